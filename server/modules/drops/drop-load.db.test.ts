import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { createTestApp, requestHold, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildStaff } from '#server/test/factories.ts';
import { waitFor } from '#server/test/eventually.ts';
import { createDrop, dropReservations, ENTRY_CLOSES, ENTRY_OPENS } from './drops.test-support.ts';

/**
 * A drop under load (run it on PostgreSQL: DATABASE_URL=…): 1,000 verified entries for 20
 * tables. At release exactly 20 holds go out, to the first 20 in the drawn order, however many
 * callers race to run the release; when a winner cancels, the 21st gets the table; when holds
 * lapse, the next ones do.
 */
const ENTRIES = 1_000;
const TABLES = 20;
const RELEASE = '2026-11-24T05:00:00.000Z';

let t: TestApp;
let dropId: string;

beforeAll(async () => {
  t = await createTestApp();
  const restaurant = await buildRestaurant(t.database.db);
  const staff = await buildStaff(t.database.db, restaurant.id);
  // 10 dates × 2 times, 2 covers each: 20 tables for parties of two.
  dropId = await createDrop(t, staff.token, {
    dateFrom: '2026-11-25',
    dateTo: '2026-12-04',
    times: ['19:00', '21:00'],
    capacity: 2,
    entryOpensAt: ENTRY_OPENS,
    entryClosesAt: ENTRY_CLOSES,
    releaseAt: RELEASE,
  });
  // Set-based: 1,000 diners with verified phones, each entered once, a second apart.
  await t.database.db.execute(
    sql`INSERT INTO users (username, password_hash, name, email, verified_phone, phone, phone_verified_at)
        SELECT 'load_' || g, 'not-a-real-hash', 'Load Diner ' || g, 'load_' || g || '@example.com',
               '+9170' || lpad(g::text, 8, '0'), '+9170' || lpad(g::text, 8, '0'), ${ENTRY_OPENS}::timestamptz
        FROM generate_series(1, ${ENTRIES}) AS g`,
  );
  await t.database.db.execute(
    sql`INSERT INTO drop_entries (drop_id, user_id, phone, party_size, created_at)
        SELECT ${dropId}, u.id, u.verified_phone, 2, ${ENTRY_OPENS}::timestamptz + (row_number() OVER (ORDER BY u.username)) * interval '1 second'
        FROM users u WHERE u.username LIKE 'load\\_%'`,
  );
}, 180_000);
afterAll(() => t.close());

async function entryAt(position: number) {
  const [row] = await queryRows<{ id: string; user_id: string; status: string; reservation_id: string | null }>(
    t.database.db,
    sql`SELECT id, user_id, status, reservation_id FROM drop_entries WHERE drop_id = ${dropId} AND position = ${position}`,
  );
  return row;
}

async function oversoldSlots(): Promise<unknown[]> {
  return queryRows(
    t.database.db,
    sql`SELECT s.id FROM slots s JOIN reservations r ON r.slot_id = s.id
        WHERE s.drop_id = ${dropId} AND r.status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED')
          AND (r.status <> 'HELD' OR r.hold_expires_at > ${t.clock.now().toISOString()})
        GROUP BY s.id, s.capacity HAVING sum(r.party_size) > s.capacity`,
  );
}

describe('a drop of 1,000 entries for 20 tables', () => {
  it('has every entry in before the release, and its tables hidden from normal booking', async () => {
    const [count] = await queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM drop_entries WHERE drop_id = ${dropId}`);
    expect(count.count).toBe(ENTRIES);
    t.clock.set(new Date(Date.parse(ENTRY_OPENS) + 3_600_000));
    const drop = (await t.app.inject({ method: 'GET', url: `/api/drops/${dropId}` })).json();
    expect(drop).toMatchObject({ phase: 'open', entryCount: ENTRIES, slotCount: TABLES });
    const diner = await buildDiner(t.database.db);
    const booking = await requestHold(t.app, diner.token, { restaurantSlug: drop.restaurant.slug, date: '2026-11-25', time: '19:00', partySize: 2 });
    expect(booking.statusCode).toBe(409);
    expect(booking.json()).toEqual({ error: 'That time is given out through a drop. Enter the drop for a fair chance at a table.' });
    const availability = await t.app.inject({ method: 'GET', url: `/api/restaurants/${drop.restaurant.slug}/availability?date=2026-11-25&partySize=2` });
    expect(availability.json()).toEqual([
      expect.objectContaining({ time: '19:00', available: false }),
      expect.objectContaining({ time: '21:00', available: false }),
    ]);
  });

  it('offers exactly 20 holds at release, to positions 1-20, however many callers race to release it', async () => {
    t.clock.set(RELEASE);
    const started = Date.now();
    const { dropOffers: drops } = t.app.services;
    await Promise.all([
      drops.runDueWork(),
      drops.advanceDrop(dropId),
      drops.advanceDrop(dropId),
      t.app.inject({ method: 'GET', url: `/api/drops/${dropId}` }),
      t.app.inject({ method: 'GET', url: '/api/drops' }),
      drops.runDueWork(),
    ]);
    const elapsed = Date.now() - started;
    const holds = await dropReservations(t.database.db, dropId, t.clock.now());
    expect(holds).toHaveLength(TABLES);
    expect(holds.map((hold) => hold.position)).toEqual(Array.from({ length: TABLES }, (_, i) => i + 1));
    expect(holds.every((hold) => hold.status === 'HELD')).toBe(true);
    expect(new Set(holds.map((hold) => hold.slot_id)).size).toBe(TABLES);
    expect(await oversoldSlots()).toEqual([]);
    const [offered] = await queryRows<{ count: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS count FROM drop_entries WHERE drop_id = ${dropId} AND status = 'offered'`,
    );
    expect(offered.count).toBe(TABLES);
    // A winner's email is in the outbox; the 21st is first in line.
    const winner = await entryAt(1);
    const [mail] = await queryRows<{ subject: string }>(
      t.database.db,
      sql`SELECT subject FROM outbox_messages WHERE user_id = ${winner.user_id} AND channel = 'email'`,
    );
    expect(mail.subject).toMatch(/^You got a table at /);
    expect((await entryAt(TABLES + 1)).status).toBe('waiting');
    // Released in reasonable time even on a shared machine.
    expect(elapsed).toBeLessThan(30_000);
    // Running it again offers nothing more.
    expect(await drops.advanceDrop(dropId)).toEqual({ drew: false, offers: 0 });
  });

  it('gives a cancelled winner’s table to the 21st in line (event-driven)', async () => {
    const winner = await entryAt(7);
    // The hold screen cancels with the reservation id alone.
    const cancel = await t.app.inject({ method: 'POST', url: `/api/reservations/${winner.reservation_id}/cancel`, payload: {} });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await waitFor(async () => (await entryAt(TABLES + 1)).status === 'offered', 5_000, 'the 21st entry to be offered the table');
    const holds = await dropReservations(t.database.db, dropId, t.clock.now());
    expect(holds.map((hold) => hold.position)).toEqual([...Array.from({ length: TABLES }, (_, i) => i + 1).filter((p) => p !== 7), TABLES + 1]);
    expect((await entryAt(TABLES + 2)).status).toBe('waiting');
    expect(await oversoldSlots()).toEqual([]);
  });

  it('passes lapsed holds down the line after a restart-proof sweep', async () => {
    // Everyone holding lets the hold lapse; the sweeper (timer) expires them and the drop's sweep re-offers.
    t.clock.advance(10 * 60_000 + 1_000);
    await t.app.services.reservations.expireDueHolds();
    await t.app.services.dropOffers.runDueWork();
    const holds = await dropReservations(t.database.db, dropId, t.clock.now());
    expect(holds.map((hold) => hold.position)).toEqual(Array.from({ length: TABLES }, (_, i) => TABLES + 2 + i));
    expect(await oversoldSlots()).toEqual([]);
    const lapsed = await t.app.inject({ method: 'GET', url: `/api/drops/${dropId}` });
    expect(lapsed.statusCode).toBe(200);
  });
});
