import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { formatRupees as rupees } from '#common/domain/deposit-policy.ts';
import { cancelMoneySentences, depositFigures } from '#common/domain/money-sentences.ts';
import { MINUTE_MS } from '#common/domain/time.ts';
import type { MyDeposit } from '#common/contract/deposit-receipts.ts';
import { queryRows } from '#server/db/client.ts';
import { buildDiner, eveningSlots, type BuiltAccount } from '#server/test/factories.ts';
import { call, place, sandbox, setUpDepositsFixture, staff, t } from './deposits.test-support.ts';
import { TEST_TODAY as TODAY } from '#server/test/app.ts';

/**
 * Every money sentence a diner reads about a deposit, on screen (/me's receipt, the cancel dialog)
 * and in email, against the ledger's own figures for that deposit (decision 220): for a release, a
 * late-cancel fee, a no-show fee, credit on the bill and a refunded fee. Each figure is read from
 * ledger_lines, never from the code that wrote the sentence.
 */
const PER_COVER = 20_000;
// Late cancel keeps half, a no-show keeps it all: every outcome has its own figures.
setUpDepositsFixture({ restaurantName: 'Vino Veritas', perCoverPaise: PER_COVER, lateCancelKeepPercent: 50, noShowKeepPercent: 100 });

const nextSlot = eveningSlots(() => t.database.db, TODAY);

/** A booking of two on its own slot, paid on the sandbox page and accepted by staff. */
async function acceptedBooking() {
  const { time } = await nextSlot(place.id, 8);
  const diner = await buildDiner(t.database.db);
  const held = await call('POST', '/api/reservations', diner.token, { restaurantSlug: place.slug, date: TODAY, time, partySize: 2 });
  expect(held.statusCode, held.body).toBe(201);
  const id = held.json().id as string;
  const intentId = (await call('POST', `/api/reservations/${id}/confirm`, diner.token, {})).json().payment.intentId as string;
  expect((await call('POST', `/api/payments/sandbox/${intentId}/decision`, undefined, { decision: 'approve' })).statusCode).toBe(200);
  await sandbox.settle();
  await staffMove(id, 'CONFIRMED');
  return { id, intentId, diner, startsAt: Date.parse(`${TODAY}T${time}:00+05:30`) };
}

async function staffMove(id: string, status: string) {
  const answer = await call('PATCH', `/api/admin/bookings/${id}`, staff.token, { status });
  expect(answer.statusCode, answer.body).toBe(200);
  await sandbox.settle();
}

/** The ledger's own figures for one intent: what its postings blocked, kept, credited, released and refunded. */
async function ledgerFigures(intentId: string) {
  const lines = await queryRows<{ kind: string; account: string; amount_paise: number }>(
    t.database.db,
    sql`SELECT p.kind, l.account, l.amount_paise FROM ledger_postings p JOIN ledger_lines l ON l.posting_id = p.id WHERE p.intent_id = ${intentId}`,
  );
  const sum = (pick: (line: (typeof lines)[number]) => boolean) => lines.filter(pick).reduce((total, line) => total + Number(line.amount_paise), 0);
  return {
    blocked: sum((line) => line.kind === 'authorise' && line.account === 'diner_authorised'),
    kept: sum((line) => line.account === 'restaurant_receivable'),
    credited: sum((line) => line.account === 'restaurant_credit_at_table'),
    released: sum((line) => (line.kind === 'release' || line.kind === 'capture') && line.account === 'diner_funds'),
    refunded: sum((line) => line.kind === 'refund' && line.account === 'diner_funds'),
  };
}

async function myDeposit(diner: BuiltAccount, id: string): Promise<MyDeposit> {
  const answer = await call('GET', '/api/me/deposits', diner.token);
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json().deposits as MyDeposit[]).find((deposit) => deposit.reservationId === id)!;
}

/** The diner's one email with this subject (its body is what the test reads). */
async function emailTitled(userId: string, subject: string) {
  const rows = await queryRows<{ subject: string; body: string }>(
    t.database.db,
    sql`SELECT subject, body FROM outbox_messages WHERE user_id = ${userId} AND channel = 'email' AND subject = ${subject}`,
  );
  expect(rows, `an email "${subject}"`).toHaveLength(1);
  return rows[0];
}

/** What the cancel dialog says a cancel would do now, from the diner's own /me answer. */
function cancelPreview(deposit: MyDeposit, status: 'CONFIRMED') {
  const figures = {
    ...depositFigures({
      status: 'AUTHORISED',
      authorisedPaise: deposit.blockedPaise,
      capturedPaise: 0,
      refundedPaise: 0,
      capturePurpose: null,
      amountPaise: deposit.amountPaise,
    }),
  };
  return cancelMoneySentences(status, { ...deposit.terms, freeCancelUntil: new Date(deposit.terms.freeCancelUntil) }, figures, t.clock.now());
}

/** Once money has moved, an email says what happened: never the terms that say it "is blocked … is kept". */
function expectSettledEmail(email: { subject: string; body: string }) {
  expect(email.body).not.toContain('is blocked on your card or UPI now');
  expect(email.body).not.toContain('What you agreed');
}

describe('every money sentence matches the ledger', () => {
  it('blocked, then released in full on a cancel in time', async () => {
    const { id, intentId, diner } = await acceptedBooking();
    const blocked = await ledgerFigures(intentId);
    expect(blocked.blocked).toBe(2 * PER_COVER);
    const held = await myDeposit(diner, id);
    expect(held.receipt).toBe(`${rupees(blocked.blocked)} blocked on your account until your visit; nothing taken.`);
    // The "blocked" email is the one that carries the agreed terms.
    const first = await emailTitled(diner.id, `${rupees(blocked.blocked)} blocked: your booking request is sent`);
    expect(first.body).toContain('What you agreed: A deposit of ₹400');

    expect(cancelPreview(held, 'CONFIRMED')!.before).toBe(`Your ${rupees(blocked.blocked)} deposit will be released in full; nothing is kept.`);
    // The provider's answer is held back, so the receipt is read before it arrives: without the
    // hold the sandbox's webhook can win the race on a fast database.
    sandbox.faults.hold = true;
    expect((await call('POST', `/api/reservations/${id}/cancel`, diner.token, {})).statusCode).toBe(200);
    // At once, before the provider's answer: the receipt says the release is under way.
    expect((await myDeposit(diner, id)).receipt).toBe(`${rupees(blocked.blocked)} being released in full; nothing taken.`);
    expect(sandbox.heldDeliveries().map((delivery) => delivery.eventType)).toEqual(['refund.processed']);
    sandbox.faults.hold = false;
    await sandbox.releaseHeld();
    await sandbox.settle();

    const ledger = await ledgerFigures(intentId);
    expect(ledger).toMatchObject({ released: 2 * PER_COVER, kept: 0, credited: 0 });
    expect((await myDeposit(diner, id)).receipt).toBe(`${rupees(ledger.released)} released in full; nothing taken.`);
    const email = await emailTitled(diner.id, `${rupees(ledger.released)} released`);
    expect(email.body).toContain(`The ${rupees(ledger.released)} we blocked is released in full; nothing was taken.`);
    expectSettledEmail(email);
  });

  it('kept as a late-cancel fee, the rest released', async () => {
    const { id, intentId, diner, startsAt } = await acceptedBooking();
    t.clock.set(new Date(startsAt - 60 * MINUTE_MS));
    const preview = cancelPreview(await myDeposit(diner, id), 'CONFIRMED')!;
    expect((await call('POST', `/api/reservations/${id}/cancel`, diner.token, {})).statusCode).toBe(200);
    await sandbox.settle();

    const ledger = await ledgerFigures(intentId);
    expect(ledger.kept).toBe(PER_COVER);
    expect(ledger.released).toBe(PER_COVER);
    expect(preview.before).toBe(
      `${rupees(ledger.kept)} of your ${rupees(ledger.blocked)} deposit will be kept as a late-cancel fee; ${rupees(ledger.released)} will be released.`,
    );
    expect((await myDeposit(diner, id)).receipt).toBe(`${rupees(ledger.kept)} kept as a late-cancel fee; ${rupees(ledger.released)} released.`);
    const email = await emailTitled(diner.id, `${rupees(ledger.kept)} kept as a late-cancel fee`);
    expect(email.body).toContain(`Vino Veritas kept ${rupees(ledger.kept)} as a late-cancel fee; the other ${rupees(ledger.released)} is released.`);
    expectSettledEmail(email);
  });

  it('kept as a no-show fee, then waived and refunded', async () => {
    const { id, intentId, diner } = await acceptedBooking();
    t.clock.set(new Date(Date.parse(`${TODAY}T23:59:00+05:30`)));
    await staffMove(id, 'NO_SHOW');
    const ledger = await ledgerFigures(intentId);
    expect(ledger).toMatchObject({ kept: 2 * PER_COVER, released: 0 });
    expect((await myDeposit(diner, id)).receipt).toBe(`${rupees(ledger.kept)} kept as a no-show fee.`);
    const email = await emailTitled(diner.id, `${rupees(ledger.kept)} kept as a no-show fee`);
    expectSettledEmail(email);

    expect((await call('POST', `/api/admin/bookings/${id}/waive-fee`, staff.token, {})).statusCode).toBe(204);
    await sandbox.settle();
    const after = await ledgerFigures(intentId);
    expect(after).toMatchObject({ kept: 0, refunded: 2 * PER_COVER });
    expect((await myDeposit(diner, id)).receipt).toBe(`Fee of ${rupees(after.refunded)} waived and refunded.`);
    const refund = await emailTitled(diner.id, `${rupees(after.refunded)} refunded`);
    expect(refund.body).toContain(`The fee of ${rupees(after.refunded)} is waived and refunded to you.`);
    expectSettledEmail(refund);
  });

  it('credited on the bill when seated', async () => {
    const { id, intentId, diner } = await acceptedBooking();
    await staffMove(id, 'SEATED');
    const ledger = await ledgerFigures(intentId);
    expect(ledger).toMatchObject({ credited: 2 * PER_COVER, kept: 0, released: 0 });
    const deposit = await myDeposit(diner, id);
    expect(deposit.receipt).toBe(`${rupees(ledger.credited)} credited on your bill.`);
    expect(deposit).toMatchObject({ paymentId: intentId, method: expect.stringContaining('Card or UPI'), paidAt: expect.any(String) });
    const email = await emailTitled(diner.id, `${rupees(ledger.credited)} credited on your bill`);
    expect(email.body).toContain(`Your deposit of ${rupees(ledger.credited)} is credit on your bill at Vino Veritas.`);
    expect(email.body).not.toContain('is kept');
    expectSettledEmail(email);
  });
});
