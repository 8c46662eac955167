import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import { addDays, kolkataInstant } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { unbalancedPostings } from '#server/modules/payments/payments.test-support.ts';
import type { SandboxGateway } from '#server/modules/payments/sandbox-gateway.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * A diner changes a booking (decisions 280-284) through HTTP, the real database, the floor and the
 * sandbox gateway. "Now" is 10:00 in Kolkata on 23 November; each test books on its own date.
 */
const PER_COVER = 50_000;
let t: TestApp;
let sandbox: SandboxGateway;
let paid: BuiltRestaurant;
let dates = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { PAYMENTS_WEBHOOK_SECRET: 'test-webhook-secret-0123456789' } });
  sandbox = t.app.services.payments.sandbox!;
  paid = await buildRestaurant(t.database.db, { name: 'Deposit House' });
  const staff = await buildStaff(t.database.db, paid.id);
  const policy = {
    defaultCharge: { kind: 'deposit', perCoverPaise: PER_COVER },
    rules: [],
    freeCancelMinutes: 120,
    lateCancelKeepPercent: 100,
    noShowKeepPercent: 50,
  };
  expect((await call('PUT', '/api/admin/deposit-policy', staff.token, policy)).statusCode).toBe(200);
  const table = (name: string) => ({ name, section: 'indoor', minCovers: 1, maxCovers: 4, onlineBookable: true });
  const floor = await call('PUT', '/api/admin/floor/tables', staff.token, { tables: [table('T1'), table('T2'), table('T3')], combinations: [] });
  expect(floor.statusCode, floor.body).toBe(200);
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.set(TEST_NOW);
  sandbox.resetFaults();
});

function call(method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
}

/** A date of its own (24 November onwards) with a 7:00 PM and an 8:30 PM slot of `capacity` covers. */
async function freshEvening(capacity = 8): Promise<string> {
  dates += 1;
  const date = addDays('2026-11-23', dates);
  await buildSlot(t.database.db, paid.id, { date, time: '19:00', capacity });
  await buildSlot(t.database.db, paid.id, { date, time: '20:30', capacity });
  return date;
}

async function approve(intentId: string) {
  const answer = await call('POST', `/api/payments/sandbox/${intentId}/decision`, undefined, { decision: 'approve' });
  expect(answer.statusCode, answer.body).toBe(200);
  await sandbox.settle();
}

/** Held at 7:00 PM, deposit paid: a PENDING booking. */
async function paidBooking(date: string, partySize = 2, who?: BuiltAccount) {
  const diner = who ?? (await buildDiner(t.database.db));
  const held = await call('POST', '/api/reservations', diner.token, { restaurantSlug: paid.slug, date, time: '19:00', partySize });
  expect(held.statusCode, held.body).toBe(201);
  const id = held.json().id as string;
  const confirm = await call('POST', `/api/reservations/${id}/confirm`, diner.token, {});
  await approve(confirm.json().payment.intentId);
  return { id, diner, intentId: confirm.json().payment.intentId as string };
}

/** Everything a failed change must leave as it was. */
async function snapshot(id: string) {
  const [booking] = await queryRows<{ status: string; slot_id: string; party_size: number; starts_at: string }>(
    t.database.db,
    sql`SELECT status, slot_id, party_size, starts_at FROM reservations WHERE id = ${id}`,
  );
  const tables = await queryRows<{ id: string; table_ids: string[]; starts_at: string }>(
    t.database.db,
    sql`SELECT id, table_ids, starts_at FROM table_assignments WHERE reservation_id = ${id} AND released_at IS NULL`,
  );
  const [deposit] = await queryRows(t.database.db, sql`SELECT amount_paise, free_cancel_until, move FROM reservation_deposits WHERE reservation_id = ${id}`);
  const ledger = await queryRows(
    t.database.db,
    sql`SELECT l.account, sum(l.amount_paise)::int AS paise FROM ledger_lines l JOIN ledger_postings p ON p.id = l.posting_id
          JOIN payment_intents i ON i.id = p.intent_id
        WHERE i.reservation_id = ${id} GROUP BY l.account ORDER BY l.account`,
  );
  return { booking, tables, deposit, ledger };
}

const intentStatus = async (intentId: string) =>
  (await queryRows<{ status: string; amount_paise: number }>(t.database.db, sql`SELECT status, amount_paise FROM payment_intents WHERE id = ${intentId}`))[0];

describe('changing a booking', () => {
  it('inside the free window, another time costs nothing: moved atomically, recorded in the history with its actor, the calendar SEQUENCE rises', async () => {
    const date = await freshEvening();
    const { id, diner } = await paidBooking(date);
    const before = await snapshot(id);
    const events = async () =>
      (await queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM reservation_events WHERE reservation_id = ${id}`))[0].count;
    const eventsBefore = await events();
    const sequenceBefore = (await call('GET', (await call('GET', `/api/reservations/${id}/calendar-link`, diner.token)).json<{ path: string }>().path)).body;
    expect(sequenceBefore).toContain(`SEQUENCE:${eventsBefore}`);

    const terms = await call('GET', `/api/reservations/${id}/change-terms?date=${date}&time=20:30&partySize=2`, diner.token);
    expect(terms.json()).toMatchObject({ kind: 'free', extraPaise: 0, releasedPaise: 0, depositPaise: 2 * PER_COVER });
    const changed = await call('POST', `/api/reservations/${id}/change`, diner.token, { date, time: '20:30', partySize: 2 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ applied: true, payment: null, reservation: { status: 'PENDING', slot: { date, time: '20:30' }, partySize: 2 } });

    const after = await snapshot(id);
    expect(after.deposit).toEqual(before.deposit);
    expect(after.ledger).toEqual(before.ledger);
    expect(after.tables).toHaveLength(1);
    expect(new Date(after.tables[0].starts_at).toISOString()).toBe(kolkataInstant(date, '20:30').toISOString());
    expect(await events()).toBe(eventsBefore + 1);
    const [history] = await queryRows(
      t.database.db,
      sql`SELECT actor_kind, actor_id, reason, created_at FROM reservation_events WHERE reservation_id = ${id} ORDER BY id DESC LIMIT 1`,
    );
    expect(history).toMatchObject({ actor_kind: 'diner', actor_id: diner.id, reason: 'CHANGED' });
    const list = (await call('GET', `/api/reservations/${id}/changes`, diner.token)).json();
    expect(list).toMatchObject([{ status: 'applied', description: 'Changed from 7:00 PM to 8:30 PM', actor: 'diner' }]);
    const calendarPath = (await call('GET', `/api/reservations/${id}/calendar-link`, diner.token)).json<{ path: string }>().path;
    const ics = await call('GET', calendarPath);
    expect(ics.statusCode).toBe(200);
    expect(ics.body).toContain(`SEQUENCE:${eventsBefore + 1}`);
    expect(ics.body).toMatch(/DTSTART:\d{8}T150000Z/);
  });

  it('a larger party pays exactly the difference in paise, keeps its old terms until it is authorised, then moves; ledger sums stay zero', async () => {
    const date = await freshEvening();
    const { id, diner, intentId } = await paidBooking(date);
    const terms = await call('GET', `/api/reservations/${id}/change-terms?date=${date}&time=20:30&partySize=4`, diner.token);
    expect(terms.json()).toMatchObject({ kind: 'pay_extra', extraPaise: 2 * PER_COVER, depositPaise: 4 * PER_COVER });

    const asked = await call('POST', `/api/reservations/${id}/change`, diner.token, { date, time: '20:30', partySize: 4 });
    expect(asked.statusCode, asked.body).toBe(200);
    const body = asked.json();
    expect(body).toMatchObject({ applied: false, payment: { amountPaise: 2 * PER_COVER }, reservation: { slot: { time: '19:00' }, partySize: 2 } });
    expect(body.payment.approvalUrl).toBe(`/pay/sandbox/${body.payment.intentId}`);
    expect((await snapshot(id)).booking).toMatchObject({ party_size: 2 });

    await approve(body.payment.intentId);
    const after = await snapshot(id);
    expect(after.booking).toMatchObject({ status: 'PENDING', party_size: 4 });
    expect(new Date(after.booking.starts_at).toISOString()).toBe(kolkataInstant(date, '20:30').toISOString());
    expect(await intentStatus(body.payment.intentId)).toEqual({ status: 'AUTHORISED', amount_paise: 2 * PER_COVER });
    expect(await intentStatus(intentId)).toEqual({ status: 'AUTHORISED', amount_paise: 2 * PER_COVER });
    expect(await unbalancedPostings(t.database.db)).toBe(0);
    expect((await call('GET', `/api/reservations/${id}/changes`, diner.token)).json()).toMatchObject([
      { status: 'applied', description: 'Changed from 7:00 PM to 8:30 PM (party 2 → 4)', extraPaise: 2 * PER_COVER },
    ]);

    // A cancel inside the free window releases both the deposit and the extra.
    expect((await call('POST', `/api/reservations/${id}/cancel`, diner.token, {})).statusCode).toBe(200);
    await sandbox.settle();
    expect((await intentStatus(body.payment.intentId)).status).toBe('RELEASED');
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });

  it('a smaller party inside the free window releases exactly the difference', async () => {
    const date = await freshEvening();
    const { id, diner } = await paidBooking(date, 4);
    const changed = await call('POST', `/api/reservations/${id}/change`, diner.token, { date, time: '19:00', partySize: 3 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ applied: true, terms: { kind: 'release', releasedPaise: PER_COVER, depositPaise: 3 * PER_COVER } });
    expect((await snapshot(id)).deposit).toMatchObject({ amount_paise: 3 * PER_COVER });
    expect((await call('GET', `/api/reservations/${id}/changes`, diner.token)).json()).toMatchObject([
      { releasedPaise: PER_COVER, description: 'Changed (party 4 → 3)' },
    ]);
  });

  it('is refused with 409 past the booking cut-off, and changes nothing', async () => {
    const date = await freshEvening();
    const { id, diner } = await paidBooking(date);
    const before = await snapshot(id);
    t.clock.set(new Date(kolkataInstant(date, '19:00').getTime() - 20 * 60_000).toISOString());
    const refused = await call('POST', `/api/reservations/${id}/change`, diner.token, { date, time: '20:30', partySize: 2 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('It is too late to change this booking online. Please call the restaurant.');
    expect(await snapshot(id)).toEqual(before);
  });

  it('a failed change leaves status, table, deposit and ledger exactly as they were: the new time is taken while the extra is being paid', async () => {
    const date = await freshEvening(4);
    const { id, diner } = await paidBooking(date);
    const asked = (await call('POST', `/api/reservations/${id}/change`, diner.token, { date, time: '20:30', partySize: 4 })).json();
    const before = await snapshot(id);
    // Another diner takes 8:30 PM meanwhile: only 2 of its 4 covers are left.
    const other = await buildDiner(t.database.db);
    expect((await call('POST', '/api/reservations', other.token, { restaurantSlug: paid.slug, date, time: '20:30', partySize: 2 })).statusCode).toBe(201);

    await approve(asked.payment.intentId);
    expect(await snapshot(id)).toEqual(before);
    expect((await intentStatus(asked.payment.intentId)).status).toBe('RELEASED');
    expect(await unbalancedPostings(t.database.db)).toBe(0);
    expect((await call('GET', `/api/reservations/${id}/changes`, diner.token)).json()).toMatchObject([{ status: 'refused' }]);

    // Asked directly, the same change is refused at once and changes nothing either.
    const refused = await call('POST', `/api/reservations/${id}/change`, diner.token, { date, time: '20:30', partySize: 3 });
    expect(refused.statusCode).toBe(409);
    expect(await snapshot(id)).toEqual(before);
  });

  it("answers 404 for another diner's booking, and asks a diner's sign-in", async () => {
    const date = await freshEvening();
    const { id } = await paidBooking(date);
    const stranger = await buildDiner(t.database.db);
    const before = await snapshot(id);
    expect((await call('POST', `/api/reservations/${id}/change`, stranger.token, { date, time: '20:30', partySize: 2 })).statusCode).toBe(404);
    expect((await call('GET', `/api/reservations/${id}/change-terms?date=${date}&time=20:30&partySize=2`, stranger.token)).statusCode).toBe(404);
    expect((await call('POST', `/api/reservations/${id}/change`, undefined, { date, time: '20:30', partySize: 2 })).statusCode).toBe(401);
    expect(await snapshot(id)).toEqual(before);
  });
});

/** The diner's emails whose subject starts "Changed:", oldest first. */
const changeEmails = (userId: string) =>
  queryRows<{ subject: string; body: string }>(
    t.database.db,
    sql`SELECT subject, body FROM outbox_messages WHERE user_id = ${userId} AND channel = 'email' AND subject LIKE 'Changed:%' ORDER BY created_at, id`,
  );

/** What the ledger blocked for one intent, in paise: the figure an email's money sentence must name. */
async function ledgerBlocked(intentId: string): Promise<number> {
  const [row] = await queryRows<{ paise: number }>(
    t.database.db,
    sql`SELECT coalesce(sum(l.amount_paise), 0)::int AS paise FROM ledger_lines l JOIN ledger_postings p ON p.id = l.posting_id
        WHERE p.intent_id = ${intentId} AND p.kind = 'authorise' AND l.account = 'diner_authorised'`,
  );
  return row.paise;
}

/** The calendar file an email links to, fetched as the diner's calendar would. */
async function calendarOf(body: string): Promise<string> {
  const url = /https?:\/\/[^\s]+\/api\/calendar\/[^\s]+/.exec(body)?.[0];
  expect(url, 'a calendar link in the email').toBeTruthy();
  const file = await call('GET', new URL(url!).pathname);
  expect(file.statusCode).toBe(200);
  return file.body;
}

describe('the email a change sends (decision 284)', () => {
  it('7:00 → 8:30 PM and 2 → 4 guests: says what changed, the extra blocked in the money sentences\u2019 words matching the ledger, and the calendar file with its raised SEQUENCE', async () => {
    const date = await freshEvening();
    const { id, diner } = await paidBooking(date);
    const eventsBefore = (
      await queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM reservation_events WHERE reservation_id = ${id}`)
    )[0].count;
    const asked = (await call('POST', `/api/reservations/${id}/change`, diner.token, { date, time: '20:30', partySize: 4 })).json();
    // Nothing has changed while the extra waits for its approval, so nothing is said yet.
    expect(await changeEmails(diner.id)).toHaveLength(0);

    await approve(asked.payment.intentId);
    const emails = await changeEmails(diner.id);
    expect(emails).toHaveLength(1);
    const [email] = emails;
    expect(email.subject).toBe('Changed: your table at Deposit House, now 8:30 PM for 4 guests');
    expect(email.body).toContain('Your table at Deposit House moved from 7:00 PM to 8:30 PM, 2 → 4 guests.');
    const extra = await ledgerBlocked(asked.payment.intentId);
    expect(extra).toBe(2 * PER_COVER);
    const deposit = 4 * PER_COVER;
    expect(email.body).toContain(
      `${formatRupees(extra)} blocked on your account until your visit; nothing taken. Your deposit is now ${formatRupees(deposit)}.`,
    );
    const ics = await calendarOf(email.body);
    expect(ics).toContain(`SEQUENCE:${eventsBefore + 1}`);
    expect(ics).toMatch(/DTSTART:\d{8}T150000Z/);
  });

  it('a smaller party: the released difference as the deposit row records it, and what stays blocked', async () => {
    const date = await freshEvening();
    const { id, diner, intentId } = await paidBooking(date, 4);
    const blocked = await ledgerBlocked(intentId);
    expect((await call('POST', `/api/reservations/${id}/change`, diner.token, { date, time: '19:00', partySize: 3 })).statusCode).toBe(200);
    const [row] = await queryRows<{ amount_paise: number }>(t.database.db, sql`SELECT amount_paise FROM reservation_deposits WHERE reservation_id = ${id}`);
    const [email] = await changeEmails(diner.id);
    expect(email.subject).toBe('Changed: your table at Deposit House, now 7:00 PM for 3 guests');
    expect(email.body).toContain('Your table at Deposit House on ');
    expect(email.body).toContain('now for 3 guests (was 4).');
    expect(email.body).toContain(
      `${formatRupees(blocked - row.amount_paise)} of your deposit released. ${formatRupees(row.amount_paise)} blocked on your account until your visit; nothing taken.`,
    );
  });

  it('another time at no charge says no money moved; a refused change sends nothing', async () => {
    const date = await freshEvening();
    const { id, diner } = await paidBooking(date);
    expect((await call('POST', `/api/reservations/${id}/change`, diner.token, { date, time: '20:30', partySize: 2 })).statusCode).toBe(200);
    const [email] = await changeEmails(diner.id);
    expect(email.body).toContain('Your table at Deposit House moved from 7:00 PM to 8:30 PM, 2 guests.');
    expect(email.body).toContain(`No money moved. ${formatRupees(2 * PER_COVER)} blocked on your account until your visit; nothing taken.`);
    expect((await call('POST', `/api/reservations/${id}/change`, diner.token, { date, time: '20:30', partySize: 2 })).statusCode).toBe(409);
    expect(await changeEmails(diner.id)).toHaveLength(1);
  });
});

describe('changing a booking on a full floor (decision 217)', () => {
  it('a couple growing to four takes the 4-top it sits on when its own old table would have to move aside, and keeps one table', async () => {
    const restaurant = await buildRestaurant(t.database.db, { name: 'Two Tables' });
    const staff = await buildStaff(t.database.db, restaurant.id);
    const floor = await call('PUT', '/api/admin/floor/tables', staff.token, {
      tables: [
        { name: 'A', section: 'indoor', minCovers: 1, maxCovers: 2, onlineBookable: true },
        { name: 'B', section: 'indoor', minCovers: 2, maxCovers: 4, onlineBookable: true },
      ],
      combinations: [],
    });
    expect(floor.statusCode, floor.body).toBe(200);
    const date = '2026-12-20';
    await buildSlot(t.database.db, restaurant.id, { date, time: '19:00', capacity: 8 });
    const book = async () => {
      const diner = await buildDiner(t.database.db);
      const held = await call('POST', '/api/reservations', diner.token, { restaurantSlug: restaurant.slug, date, time: '19:00', partySize: 2 });
      expect(held.statusCode, held.body).toBe(201);
      const id = held.json().id as string;
      expect((await call('POST', `/api/reservations/${id}/confirm`, diner.token, {})).statusCode).toBe(200);
      return { id, diner };
    };
    const [first, second] = [await book(), await book()];
    // The first couple had A, the second B; once the first cancels, the second sits alone on the 4-top.
    expect((await call('POST', `/api/reservations/${first.id}/cancel`, first.diner.token, {})).statusCode).toBe(200);
    const changed = await call('POST', `/api/reservations/${second.id}/change`, second.diner.token, { date, time: '19:00', partySize: 4 });
    expect(changed.statusCode, changed.body).toBe(200);
    const tables = await queryRows<{ table_ids: string[] }>(
      t.database.db,
      sql`SELECT table_ids FROM table_assignments WHERE reservation_id = ${second.id} AND released_at IS NULL`,
    );
    expect(tables.map((row) => row.table_ids)).toEqual([
      floor
        .json()
        .tables.filter((table: { name: string }) => table.name === 'B')
        .map((table: { id: string }) => table.id),
    ]);
  });
});
