import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, requestHold, type TestApp, TEST_TODAY as DATE } from '#server/test/app.ts';
import { buildDatingMember, buildDiner, buildRestaurant, buildSlot, buildStaff, TEST_PASSWORD, type BuiltAccount } from '#server/test/factories.ts';

/**
 * "Delete my account" (decision 266): after it, no table holds the diner's personal data except
 * the payment ledger the law makes us keep. The test reads every text column of every table the
 * migrations made (from information_schema), so a table added later is read too.
 */
let t: TestApp;
let diner: BuiltAccount;
let staff: BuiltAccount;
let upcoming: string;

const PHONE = '+919876512345';
/** Everything that names the diner, as stored anywhere. */
const MARKERS = ['Qwzx Erasure', 'qwzx_erasure', 'qwzx.erasure@example.com', '9876512345', 'QWZX-REQUEST', 'QWZX-NOTE', 'QWZX-DREAM', 'Qwzx Dating'];
/** The payments module's tables: the ledger the law makes us keep (docs/security.md). */
const LEDGER = new Set(['payment_intents', 'ledger_postings', 'ledger_lines', 'payment_events', 'provider_calls', 'payouts']);

async function book(time: string, request?: object): Promise<string> {
  const restaurant = (
    await queryRows<{ slug: string; id: string }>(
      t.database.db,
      sql`SELECT r.slug, r.id FROM restaurants r JOIN staff_accounts s ON s.restaurant_id = r.id WHERE s.id = ${staff.id}`,
    )
  )[0];
  await buildSlot(t.database.db, restaurant.id, { date: DATE, time, capacity: 10 });
  const held = await requestHold(t.app, diner.token, { restaurantSlug: restaurant.slug, date: DATE, time, partySize: 2, request });
  expect(held.statusCode, held.body).toBe(201);
  const id: string = held.json().id;
  expect((await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/confirm`, headers: bearer(diner.token), payload: {} })).statusCode).toBe(200);
  return id;
}

/** Every (table, column) of text, text array or JSON in this database's schema, and the rows in it naming the diner. */
async function personalDataLeft(): Promise<string[]> {
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    t.database.db,
    sql`SELECT c.table_name, c.column_name FROM information_schema.columns c
        JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name AND tb.table_type = 'BASE TABLE'
        WHERE c.table_schema = current_schema() AND (c.data_type IN ('text', 'character varying', 'jsonb', 'json') OR c.udt_name IN ('_text', '_varchar'))
        ORDER BY 1, 2`,
  );
  expect(columns.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    if (LEDGER.has(table)) continue;
    const patterns = MARKERS.map((marker) => `%${marker.toLowerCase()}%`);
    const [row] = await queryRows<{ count: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS count FROM ${sql.identifier(table)} WHERE lower(${sql.identifier(column)}::text) LIKE ANY(${`{${patterns.map((p) => `"${p}"`).join(',')}}`}::text[])`,
    );
    if (row.count > 0) found.push(`${table}.${column}`);
  }
  return found;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const restaurant = await buildRestaurant(db);
  staff = await buildStaff(db, restaurant.id);
  diner = await buildDiner(db, { username: 'qwzx_erasure', name: 'Qwzx Erasure', email: 'qwzx.erasure@example.com', phone: PHONE });
  await db.execute(sql`UPDATE users SET verified_phone = ${PHONE}, phone_verified_at = now() WHERE id = ${diner.id}`);
  // A dating account on the diner's verified phone, with a photo.
  const member = await buildDatingMember(db, { name: 'Qwzx Dating' });
  await db.execute(sql`UPDATE dating_users SET phone = ${PHONE}, dreams = 'QWZX-DREAM' WHERE id = ${member}`);
  await db.execute(
    sql`INSERT INTO dating_photos (dating_user_id, sort_order, object_key, content_type, size_bytes) VALUES (${member}, 0, 'dating/qwzx-test.webp', 'image/webp', 10)`,
  );

  // A past visit with a request, accepted (its acceptance email names the diner), and the restaurant's note.
  const past = await book('11:00', { occasion: 'birthday', picks: ['allergies'], note: 'QWZX-REQUEST peanuts' });
  const principal = { kind: 'staff' as const, staffId: staff.id, restaurantId: restaurant.id };
  for (const to of ['CONFIRMED', 'SEATED', 'COMPLETED'] as const) await t.app.services.reservations.moveReservationAsStaff(principal, past, to);
  const note = await t.app.inject({
    method: 'PUT',
    url: `/api/admin/guests/${diner.id}/notes`,
    headers: bearer(staff.token),
    payload: { tags: ['vip'], note: 'QWZX-NOTE Qwzx Erasure likes the window' },
  });
  expect(note.statusCode, note.body).toBe(200);
  // Tonight's booking, still ahead.
  upcoming = await book('21:00', { occasion: 'date', picks: [], note: 'QWZX-REQUEST tonight' });
  // And a place in a waitlist's line.
  const slug = (await queryRows<{ slug: string }>(db, sql`SELECT slug FROM restaurants WHERE id = ${restaurant.id}`))[0].slug;
  const waiting = await t.app.inject({
    method: 'POST',
    url: '/api/waitlist',
    headers: bearer(diner.token),
    payload: { restaurantSlug: slug, date: '2026-11-24', partySize: 2, windowStart: '19:00', windowEnd: '20:00' },
  });
  expect(waiting.statusCode, waiting.body).toBe(201);
  expect(await personalDataLeft()).toEqual(
    expect.arrayContaining(['users.name', 'users.email', 'reservations.special_request', 'guest_notes.note', 'dating_users.name']),
  );
});
afterAll(() => t.close());

describe('deleting an account', () => {
  it('cancels upcoming bookings, erases everything personal outside the ledger, and ends the sign-in', async () => {
    const deleted = await t.app.inject({ method: 'DELETE', url: '/api/auth/me', headers: bearer(diner.token) });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ cancelledBookings: 1 });

    const [booking] = await queryRows<{ status: string }>(t.database.db, sql`SELECT status FROM reservations WHERE id = ${upcoming}`);
    expect(booking.status).toBe('CANCELLED');
    const lines = await queryRows<{ status: string }>(t.database.db, sql`SELECT status FROM waitlist_entries WHERE user_id = ${diner.id}`);
    expect(lines.map((line) => line.status)).toEqual(['removed']);
    expect(await personalDataLeft()).toEqual([]);

    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(diner.token) })).statusCode).toBe(401);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'qwzx_erasure', password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(401);
    // Staff no longer find the guest.
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/guests/${diner.id}`, headers: bearer(staff.token) })).statusCode).toBe(404);
  });

  it('waits for an accepted table less than 2 hours away', async () => {
    const other = await buildDiner(t.database.db);
    const restaurant = await buildRestaurant(t.database.db);
    const otherStaff = await buildStaff(t.database.db, restaurant.id);
    await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '11:00', capacity: 4 });
    const held = await requestHold(t.app, other.token, { restaurantSlug: restaurant.slug, date: DATE, time: '11:00', partySize: 2 });
    const id: string = held.json().id;
    await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/confirm`, headers: bearer(other.token), payload: {} });
    await t.app.services.reservations.moveReservationAsStaff({ kind: 'staff', staffId: otherStaff.id, restaurantId: restaurant.id }, id, 'CONFIRMED');
    const refused = await t.app.inject({ method: 'DELETE', url: '/api/auth/me', headers: bearer(other.token) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/less than 2 hours away/);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(other.token) })).statusCode).toBe(200);
  });
});
