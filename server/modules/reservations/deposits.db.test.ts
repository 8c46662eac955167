import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { balances, unbalancedPostings } from '#server/modules/payments/payments.test-support.ts';
import { buildDiner, buildRestaurant, eveningSlots, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';
import { call, place as paid, sandbox, setUpDepositsFixture, staff, t } from './deposits.test-support.ts';
import { MINUTE_MS } from '#common/domain/time.ts';
import { bookingCode } from '#common/domain/booking-code.ts';
import { TEST_TODAY as TODAY } from '#server/test/app.ts';

/**
 * Deposits wired end to end through HTTP, the real database and the sandbox
 * gateway's signed webhooks: Confirm pays, the authorisation makes the hold PENDING, and each
 * reservation move takes its money move once. "Now" is 10:00 in Kolkata; slots are tonight.
 */
const PER_COVER = 50_000;
let free: BuiltRestaurant;

setUpDepositsFixture({ restaurantName: 'Deposit House', perCoverPaise: PER_COVER, lateCancelKeepPercent: 100, noShowKeepPercent: 50 });
beforeAll(async () => {
  free = await buildRestaurant(t.database.db, { name: 'Walk In Cafe' });
});

const nextSlot = eveningSlots(() => t.database.db, TODAY);
/** A fresh evening slot (each test its own time, so holds never meet). */
async function freshSlot(restaurantId: string, capacity = 8) {
  return (await nextSlot(restaurantId, capacity)).time;
}

async function holdAt(restaurant: BuiltRestaurant, time: string, partySize = 2, who?: BuiltAccount) {
  const diner = who ?? (await buildDiner(t.database.db));
  const held = await call('POST', '/api/reservations', diner.token, { restaurantSlug: restaurant.slug, date: TODAY, time, partySize });
  expect(held.statusCode, held.body).toBe(201);
  return { id: held.json().id as string, diner };
}

async function decide(intentId: string, decision: 'approve' | 'decline') {
  const answer = await call('POST', `/api/payments/sandbox/${intentId}/decision`, undefined, { decision });
  expect(answer.statusCode, answer.body).toBe(200);
  await sandbox.settle();
}

/** Held, Pay pressed, approved on the sandbox page: the booking is PENDING. */
async function paidBooking(time: string, partySize = 2) {
  const { id, diner } = await holdAt(paid, time, partySize);
  const confirm = await call('POST', `/api/reservations/${id}/confirm`, diner.token, {});
  expect(confirm.statusCode, confirm.body).toBe(200);
  const intentId = confirm.json().payment.intentId as string;
  await decide(intentId, 'approve');
  return { id, diner, intentId };
}

async function staffMove(id: string, status: string) {
  const answer = await call('PATCH', `/api/admin/bookings/${id}`, staff.token, { status });
  await sandbox.settle();
  return answer;
}

const reservationStatus = async (id: string) =>
  (await queryRows<{ status: string }>(t.database.db, sql`SELECT status FROM reservations WHERE id = ${id}`))[0].status;
const intentOf = async (intentId: string) =>
  (
    await queryRows<{ status: string; captured_paise: number; refunded_paise: number; capture_purpose: string | null }>(
      t.database.db,
      sql`SELECT status, captured_paise, refunded_paise, capture_purpose FROM payment_intents WHERE id = ${intentId}`,
    )
  )[0];
const mailSubjects = async (userId: string) =>
  (await queryRows<{ subject: string }>(t.database.db, sql`SELECT subject FROM outbox_messages WHERE user_id = ${userId}`)).map((row) => row.subject);
const captureCalls = async (intentId: string) =>
  (
    await queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM provider_calls WHERE intent_id = ${intentId} AND kind = 'capture'`)
  )[0].count;

describe('Confirm on a slot that asks a deposit', () => {
  it('answers the payment to approve for the amount the server computed, and stays HELD until it is authorised', async () => {
    const { id, diner } = await holdAt(paid, await freshSlot(paid.id), 3);
    const confirm = await call('POST', `/api/reservations/${id}/confirm`, diner.token, {});
    expect(confirm.statusCode, confirm.body).toBe(200);
    const body = confirm.json();
    expect(body).toMatchObject({ id, status: 'HELD', payment: { amountPaise: 3 * PER_COVER } });
    expect(body.payment.approvalUrl).toBe(`/pay/sandbox/${body.payment.intentId}`);
    // A second press is the same payment, not a second one.
    const again = (await call('POST', `/api/reservations/${id}/confirm`, diner.token, {})).json();
    expect(again.payment.intentId).toBe(body.payment.intentId);
    expect(await reservationStatus(id)).toBe('HELD');

    await decide(body.payment.intentId, 'approve');
    expect(await reservationStatus(id)).toBe('PENDING');
    expect((await intentOf(body.payment.intentId)).status).toBe('AUTHORISED');
    expect(await mailSubjects(diner.id)).toEqual(['₹1,500 blocked: your booking request is sent']);
  });

  it('where nothing is asked, confirms at once as before', async () => {
    const { id, diner } = await holdAt(free, await freshSlot(free.id));
    const confirm = await call('POST', `/api/reservations/${id}/confirm`, diner.token, {});
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect(confirm.json()).toMatchObject({ id, status: 'PENDING', payment: null });
  });

  it('a decline leaves the hold counting down until it expires, and no money moves', async () => {
    const { id, diner } = await holdAt(paid, await freshSlot(paid.id));
    const intentId = (await call('POST', `/api/reservations/${id}/confirm`, diner.token, {})).json().payment.intentId;
    await decide(intentId, 'decline');
    expect(await reservationStatus(id)).toBe('HELD');
    expect((await intentOf(intentId)).status).toBe('FAILED');
    t.clock.advance(11 * MINUTE_MS);
    await t.app.services.reservations.expireDueHolds();
    expect(await reservationStatus(id)).toBe('CANCELLED');
    expect(await balances(t.database.db, intentId)).toEqual({});
  });

  it('an approval after the hold expired is released and never becomes a booking', async () => {
    const { id, diner } = await holdAt(paid, await freshSlot(paid.id));
    const intentId = (await call('POST', `/api/reservations/${id}/confirm`, diner.token, {})).json().payment.intentId;
    t.clock.advance(11 * MINUTE_MS);
    await decide(intentId, 'approve');
    await sandbox.settle();
    expect(await reservationStatus(id)).not.toBe('PENDING');
    expect((await intentOf(intentId)).status).toBe('RELEASED');
    expect(await balances(t.database.db, intentId)).toEqual({});
  });
});

describe('money follows the reservation', () => {
  it('a no-show captures the no-show share; the rest is released', async () => {
    const { id, intentId, diner } = await paidBooking(await freshSlot(paid.id));
    expect((await staffMove(id, 'CONFIRMED')).statusCode).toBe(200);
    t.clock.set(new Date(Date.parse(`${TODAY}T23:59:00+05:30`)));
    const noShow = await staffMove(id, 'NO_SHOW');
    expect(noShow.statusCode, noShow.body).toBe(200);
    expect(await intentOf(intentId)).toMatchObject({ status: 'CAPTURED', captured_paise: PER_COVER, capture_purpose: 'keep' });
    expect(await balances(t.database.db, intentId)).toMatchObject({ restaurant_receivable: PER_COVER });
    expect(await mailSubjects(diner.id)).toContain('₹500 kept as a no-show fee');

    // Staff waive it: the fee is refunded.
    const waived = await call('POST', `/api/admin/bookings/${id}/waive-fee`, staff.token, {});
    expect(waived.statusCode, waived.body).toBe(204);
    await sandbox.settle();
    expect(await intentOf(intentId)).toMatchObject({ status: 'REFUNDED', refunded_paise: PER_COVER });
    expect(await mailSubjects(diner.id)).toContain('₹500 refunded');
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });

  it('a cancel in time is released in full', async () => {
    const { id, intentId, diner } = await paidBooking(await freshSlot(paid.id));
    expect((await staffMove(id, 'CONFIRMED')).statusCode).toBe(200);
    const cancel = await call('POST', `/api/reservations/${id}/cancel`, diner.token, {});
    expect(cancel.statusCode, cancel.body).toBe(200);
    await sandbox.settle();
    expect(await intentOf(intentId)).toMatchObject({ status: 'RELEASED', captured_paise: 0 });
    expect(await balances(t.database.db, intentId)).toEqual({});
    expect(await mailSubjects(diner.id)).toContain('₹1,000 released');
  });

  it('seated makes the deposit credit on the bill', async () => {
    const { id, intentId } = await paidBooking(await freshSlot(paid.id));
    expect((await staffMove(id, 'CONFIRMED')).statusCode).toBe(200);
    expect((await staffMove(id, 'SEATED')).statusCode).toBe(200);
    expect(await intentOf(intentId)).toMatchObject({ status: 'CAPTURED', captured_paise: 2 * PER_COVER, capture_purpose: 'credit_at_table' });
  });

  it('a late cancel keeps its fee until another diner is seated on its covers, then refunds it (decision 204)', async () => {
    const time = await freshSlot(paid.id, 2);
    const { id, intentId, diner } = await paidBooking(time);
    expect((await staffMove(id, 'CONFIRMED')).statusCode).toBe(200);
    // Within the last two hours before the start.
    const startsAt = Date.parse(`${TODAY}T${time}:00+05:30`);
    t.clock.set(new Date(startsAt - 60 * MINUTE_MS));
    const cancel = await call('POST', `/api/reservations/${id}/cancel`, diner.token, {});
    expect(cancel.statusCode, cancel.body).toBe(200);
    await sandbox.settle();
    expect(await intentOf(intentId)).toMatchObject({ status: 'CAPTURED', captured_paise: 2 * PER_COVER });

    // Someone else books the same two covers (the slot has only two) and pays: not yet a resale.
    const next = await paidBooking(time);
    expect(await reservationStatus(next.id)).toBe('PENDING');
    expect((await staffMove(next.id, 'CONFIRMED')).statusCode).toBe(200);
    expect(await intentOf(intentId)).toMatchObject({ status: 'CAPTURED', refunded_paise: 0 });
    // Seated: the covers are sold for good.
    t.clock.set(new Date(startsAt));
    expect((await staffMove(next.id, 'SEATED')).statusCode).toBe(200);
    expect(await intentOf(intentId)).toMatchObject({ status: 'REFUNDED', refunded_paise: 2 * PER_COVER });
    expect(await mailSubjects(diner.id)).toContain('₹1,000 refunded');
  });

  it('two staff pressing no-show and seated at once: one wins and exactly one money move happens', async () => {
    const { id, intentId } = await paidBooking(await freshSlot(paid.id));
    expect((await staffMove(id, 'CONFIRMED')).statusCode).toBe(200);
    t.clock.set(new Date(Date.parse(`${TODAY}T23:59:00+05:30`)));
    const answers = await Promise.all([
      call('PATCH', `/api/admin/bookings/${id}`, staff.token, { status: 'NO_SHOW' }),
      call('PATCH', `/api/admin/bookings/${id}`, staff.token, { status: 'SEATED' }),
    ]);
    await sandbox.settle();
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(await captureCalls(intentId)).toBe(1);
    const winner = await reservationStatus(id);
    expect((await intentOf(intentId)).capture_purpose).toBe(winner === 'SEATED' ? 'credit_at_table' : 'keep');
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });

  it('an upheld strike dispute refunds the no-show fee', async () => {
    const { id, intentId, diner } = await paidBooking(await freshSlot(paid.id));
    expect((await staffMove(id, 'CONFIRMED')).statusCode).toBe(200);
    t.clock.set(new Date(Date.parse(`${TODAY}T23:59:00+05:30`)));
    expect((await staffMove(id, 'NO_SHOW')).statusCode).toBe(200);
    expect((await intentOf(intentId)).status).toBe('CAPTURED');
    const strike = (await call('GET', '/api/me/strikes', diner.token)).json().strikes[0];
    const disputed = await call('POST', `/api/me/strikes/${strike.id}/dispute`, diner.token, { reason: 'I was there at 8, the host had no record of me.' });
    expect(disputed.statusCode, disputed.body).toBeLessThan(300);
    const dispute = (await call('GET', '/api/admin/strike-disputes', staff.token)).json().find((row: { reservationId: string }) => row.reservationId === id);
    const upheld = await call('PATCH', `/api/admin/strike-disputes/${dispute.id}`, staff.token, { outcome: 'uphold' });
    expect(upheld.statusCode, upheld.body).toBe(200);
    // The hook runs after the dispute's answer: the refund follows a moment later.
    await expect
      .poll(async () => {
        await sandbox.settle();
        return (await intentOf(intentId)).status;
      })
      .toBe('REFUNDED');
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });
});

describe('what the diner and the portal see', () => {
  it('/me lists each deposit with its receipt; the portal day totals held, captured and released; the month exports as CSV', async () => {
    const diner = await buildDiner(t.database.db);
    const time = await freshSlot(paid.id);
    const kept = await holdAt(paid, time, 2, diner);
    const keptIntent = (await call('POST', `/api/reservations/${kept.id}/confirm`, diner.token, {})).json().payment.intentId;
    await decide(keptIntent, 'approve');
    const other = await paidBooking(await freshSlot(paid.id));

    expect((await staffMove(kept.id, 'CONFIRMED')).statusCode).toBe(200);
    const mine = await call('GET', '/api/me/deposits', diner.token);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().deposits).toEqual([
      expect.objectContaining({
        reservationId: kept.id,
        amountPaise: 2 * PER_COVER,
        state: 'held',
        receipt: '₹1,000 blocked on your account until your visit; nothing taken.',
      }),
    ]);

    t.clock.set(new Date(Date.parse(`${TODAY}T23:59:00+05:30`)));
    expect((await staffMove(kept.id, 'NO_SHOW')).statusCode).toBe(200);
    expect((await call('GET', '/api/me/deposits', diner.token)).json().deposits[0]).toMatchObject({
      state: 'kept',
      receipt: '₹500 kept as a no-show fee; ₹500 released.',
    });

    const day = await call('GET', `/api/admin/deposits?date=${TODAY}`, staff.token);
    expect(day.statusCode, day.body).toBe(200);
    const body = day.json();
    expect(body.bookings).toEqual(expect.arrayContaining([{ reservationId: kept.id, amountPaise: 2 * PER_COVER, state: 'kept' }]));
    expect(body.bookings).toEqual(expect.arrayContaining([{ reservationId: other.id, amountPaise: 2 * PER_COVER, state: 'held' }]));
    // The totals are the sums of what each intent holds, kept and gave back.
    const intents = await queryRows<{ status: string; authorised_paise: number; captured_paise: number; refunded_paise: number }>(
      t.database.db,
      sql`SELECT status, authorised_paise, captured_paise, refunded_paise FROM payment_intents WHERE restaurant_id = ${paid.id}`,
    );
    const captured = intents.reduce((sum, row) => sum + row.captured_paise - row.refunded_paise, 0);
    expect(body.totals.capturedPaise).toBe(captured);
    expect(body.totals.heldPaise).toBeGreaterThanOrEqual(2 * PER_COVER);
    expect(body.totals.releasedPaise).toBeGreaterThanOrEqual(PER_COVER);

    const csv = await call('GET', '/api/admin/ledger.csv?month=2026-11', staff.token);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="ledger-2026-11.csv"');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('"posted_at","posting_id","intent_id","reservation_id","purpose","posting","account","amount_paise"');
    expect(lines.filter((line) => line.includes(keptIntent)).length).toBeGreaterThanOrEqual(4);
    // Every line of the export sums to zero, like the ledger.
    expect(lines.slice(1).reduce((sum, line) => sum + Number(line.split(',').at(-1)!.replaceAll('"', '')), 0)).toBe(0);
    expect((await call('GET', '/api/admin/ledger.csv?month=2026-13', staff.token)).statusCode).toBe(400);

    // Beside it, the restaurant's statement: one row a deposit, in rupees and IST, by the booking's date.
    const statement = await call('GET', '/api/admin/statement.csv?month=2026-11', staff.token);
    expect(statement.statusCode, statement.body).toBe(200);
    expect(statement.headers['content-disposition']).toBe('attachment; filename="deposit-statement-2026-11.csv"');
    const rows = statement.body.trim().split('\r\n');
    expect(rows[0]).toBe(
      '"Date","Time","Guest","Booking","For","Deposit","Held now","Kept","Released","Credited on bill","Refunded","What happened","Paid at (IST)"',
    );
    const keptRow = rows.find((row) => row.includes(`"${bookingCode(kept.id)}"`))!;
    expect(keptRow).toContain(`"${TODAY}",`);
    expect(keptRow).toContain('"Deposit","1000.00","0.00","500.00","500.00","0.00","0.00","₹500 kept as a fee; ₹500 released."');
    expect(keptRow).not.toContain(keptIntent);
    expect((await call('GET', '/api/admin/statement.csv?month=2026-11', diner.token)).statusCode).toBe(401);
    expect((await call('GET', '/api/admin/ledger.csv?month=2026-11', diner.token)).statusCode).toBe(401);
  });
});
