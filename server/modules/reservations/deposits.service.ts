import type { DepositDayResponse, MyDepositsResponse } from '#common/contract/deposit-receipts.ts';
import type { ConfirmReservationResponse } from '#common/contract/reservations.ts';
import { depositReceipt, depositStateOf } from '#common/domain/deposit-receipts.ts';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import { formatDateShort, formatTime12h, toKolkata } from '#common/domain/time.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { requireDiner, requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import { toRestaurantRef } from '#server/modules/restaurants/restaurant-sql.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { PaymentStatusChange, PaymentsService } from '#server/modules/payments/payments.service.ts';
import type { StrikesService } from '#server/modules/strikes/strikes.service.ts';
import {
  findDeposit,
  findDepositByIntent,
  insertDepositOnce,
  listDepositsOfDay,
  listDepositsOfUser,
  listResoldCandidates,
  listUnbookedDeposits,
  listUndoneMoves,
  markMoveDone,
  type ReservationDepositRow,
} from './deposits.repository.ts';
import { findReservation } from './reservations.repository.ts';
import { BOOKING_NOT_FOUND, toDinerReservation, type ReservationsService } from './reservations.service.ts';

const SWEEP_BATCH = 100;
const LIST_LIMIT = 100;
/** How far back the sweep looks for an authorisation whose listener never ran (holds last minutes). */
const UNBOOKED_LOOKBACK_MS = 24 * 3_600_000;

/**
 * Deposits wired end to end (docs/payments.md): Confirm on a slot that asks a
 * deposit starts an authorisation for the amount the server computes; the authorisation makes the
 * hold PENDING through the reservations service's own move; each later reservation move decides its
 * money move in its own transaction (reservations.service, `depositMoves`) and this service hands
 * it to payments after commit, retrying from the sweep what was left undone; every settled money
 * event is told to the diner by email.
 */
export function createDepositsService(
  deps: AppDeps,
  reservations: ReservationsService,
  payments: PaymentsService,
  notifications: NotificationsService,
  strikes: StrikesService,
) {
  const { db, clock, log } = deps;

  async function email(deposit: ReservationDepositRow, subject: string, sentence: string): Promise<void> {
    const { date, time } = toKolkata(asDate(deposit.starts_at));
    const body = `${sentence}\n\nYour table for ${deposit.party_size} at ${deposit.restaurant_name} on ${formatDateShort(date)} at ${formatTime12h(time)}.\n\n${deposit.plain_words}`;
    await notifications.queueEmailToUser(db, deposit.user_id, { subject, body }).catch((error: unknown) => {
      log.warn({ err: error, reservationId: deposit.reservation_id }, 'deposit email not queued');
    });
  }

  /** A late cancel's covers taken by a new booking on the slot before the start: its fee is waived (decision 131). */
  async function waiveResoldLateCancels(reservationId: string): Promise<void> {
    const booked = await findReservation(db, reservationId);
    if (!booked) return;
    let covers = booked.party_size;
    for (const candidate of await listResoldCandidates(db, booked.slot_id, clock.now())) {
      if (candidate.reservation_id === reservationId || candidate.party_size > covers) continue;
      covers -= candidate.party_size;
      await reservations.recordMoneyEvent(candidate.reservation_id, 'tableResold', 'system');
    }
  }

  /**
   * Hands a decided money move to payments, with the move's own idempotency key (a retry repeats
   * the request, never doubles it). Left undone (for the sweep) when payments cannot take it yet.
   */
  async function settleMove(reservationId: string): Promise<void> {
    const deposit = await findDeposit(db, reservationId);
    if (!deposit?.move || !deposit.move_key || deposit.move_done_at) return;
    const request = { intentId: deposit.intent_id, idempotencyKey: deposit.move_key, reason: `${deposit.move} after reservation ${reservationId}` };
    try {
      switch (deposit.move) {
        case 'release':
          await payments.release(request);
          break;
        case 'capture_keep':
          // A policy that keeps nothing lets the whole authorisation go.
          if (deposit.move_paise === 0) await payments.release(request);
          else await payments.capture({ ...request, amountPaise: deposit.move_paise, purpose: 'keep' });
          break;
        case 'credit_at_table':
          await payments.creditAtTable({ intentId: deposit.intent_id, idempotencyKey: deposit.move_key });
          break;
        case 'waive': {
          const intent = await payments.readIntent(deposit.intent_id);
          if (intent.status === 'AUTHORISED') await payments.release(request);
          else if (intent.status === 'CAPTURED' && intent.capturedPaise > intent.refundedPaise) {
            await payments.refund({ ...request, amountPaise: intent.capturedPaise - intent.refundedPaise });
          } else if (intent.status.endsWith('_PENDING')) return; // the fee is still on its way: the sweep comes back
          break;
        }
      }
      await markMoveDone(db, reservationId, deposit.move_key, clock.now());
    } catch (error) {
      log.warn({ err: error, reservationId, move: deposit.move }, 'deposit money move not taken yet; the sweep retries');
    }
  }

  /** Payments tells of an authorisation or a settled move (committed); 'reject' releases a late authorisation. */
  async function onPaymentChange(change: PaymentStatusChange): Promise<void | 'reject'> {
    if (!change.reservationId || change.purpose === 'dating_deposit') return;
    const deposit = await findDepositByIntent(db, change.intentId);
    // Not a Confirm's payment (the diner never saw an approval link without its deposit row written).
    if (!deposit) return;
    if (change.to === 'AUTHORISED') {
      try {
        await reservations.confirmPaidHold(deposit.reservation_id);
      } catch {
        // The hold expired or was cancelled meanwhile: the money goes back, it never becomes a booking.
        return 'reject';
      }
      await email(
        deposit,
        `${formatRupees(deposit.amount_paise)} blocked: your booking request is sent`,
        `We blocked ${formatRupees(deposit.amount_paise)} as your deposit and sent your request to ${deposit.restaurant_name}.`,
      );
      await waiveResoldLateCancels(deposit.reservation_id);
      return;
    }
    const intent = await payments.readIntent(change.intentId);
    if (change.to === 'RELEASED') {
      await email(
        deposit,
        `${formatRupees(deposit.amount_paise)} released`,
        `The ${formatRupees(deposit.amount_paise)} we blocked is released in full; nothing was taken.`,
      );
    } else if (change.to === 'CAPTURED' && intent.capturePurpose === 'credit_at_table') {
      await email(
        deposit,
        `${formatRupees(intent.capturedPaise)} credited on your bill`,
        `Your deposit of ${formatRupees(intent.capturedPaise)} is credit on your bill at ${deposit.restaurant_name}.`,
      );
    } else if (change.to === 'CAPTURED') {
      const rest = intent.authorisedPaise - intent.capturedPaise;
      await email(
        deposit,
        `${formatRupees(intent.capturedPaise)} kept as a fee`,
        `${deposit.restaurant_name} kept ${formatRupees(intent.capturedPaise)} as its fee${rest > 0 ? `; the other ${formatRupees(rest)} is released` : ''}.`,
      );
    } else if (change.to === 'REFUNDED') {
      await email(deposit, `${formatRupees(intent.refundedPaise)} refunded`, `The fee of ${formatRupees(intent.refundedPaise)} is waived and refunded to you.`);
    }
  }

  payments.onStatusChange(onPaymentChange);
  reservations.onMoneyMoveDecided(({ reservationId }) => settleMove(reservationId));
  strikes.onDisputeUpheld((upheld) => {
    reservations.recordMoneyEvent(upheld.reservationId, 'disputeUpheld', 'staff').catch((error: unknown) => {
      log.warn({ err: error, reservationId: upheld.reservationId }, 'dispute refund not recorded');
    });
  });

  return {
    /**
     * The hold screen's Confirm: where the slot asks nothing, HELD → PENDING as before; otherwise
     * an authorisation for the amount computed here (never by the client), one per reservation,
     * approved before the hold expires. The hold stays HELD until payments says authorised.
     */
    async confirmHold(principal: Principal, id: string): Promise<ConfirmReservationResponse> {
      const { row, requirement } = await reservations.readHoldToConfirm(principal, id);
      if (requirement.kind === 'none') return { ...(await reservations.confirmReservation(principal, id)), payment: null };
      const now = clock.now();
      const view = toDinerReservation(row, now);
      if (view.status !== 'HELD') return { ...(await reservations.confirmReservation(principal, id)), payment: null };
      const existing = await findDeposit(db, id);
      // A second press pays what the first asked, whatever the policy says now.
      const amountPaise = existing?.amount_paise ?? requirement.amountPaise;
      const started = await payments.startAuthorisation({
        accountId: row.user_id,
        reservationId: row.id,
        restaurantId: row.restaurant_id,
        amountPaise,
        purpose: (existing?.kind ?? requirement.kind) === 'prepayment' ? 'reservation_prepayment' : 'reservation_deposit',
        idempotencyKey: `reservation-deposit:${row.id}`,
        approveBy: row.hold_expires_at ? asDate(row.hold_expires_at) : undefined,
      });
      await insertDepositOnce(db, { reservationId: row.id, intentId: started.intentId, requirement, now });
      return {
        ...view,
        payment: { intentId: started.intentId, amountPaise, approvalUrl: started.approvalUrl },
      };
    },

    /** GET /api/me/deposits: the diner's deposits, each with its receipt. */
    async listMyDeposits(principal: Principal): Promise<MyDepositsResponse> {
      requireDiner(principal);
      const [rows, intents] = await Promise.all([listDepositsOfUser(db, principal.userId, LIST_LIMIT), payments.listForAccount(principal)]);
      const byId = new Map(intents.intents.map((intent) => [intent.id, intent]));
      return {
        deposits: rows.flatMap((row) => {
          const intent = byId.get(row.intent_id);
          if (!intent) return [];
          return [
            {
              reservationId: row.reservation_id,
              restaurant: toRestaurantRef(row),
              slot: { date: row.slot_date, time: row.slot_time },
              amountPaise: row.amount_paise,
              state: depositStateOf(intent),
              receipt: depositReceipt(intent),
              updatedAt: intent.updatedAt,
            },
          ];
        }),
      };
    },

    /** GET /api/admin/deposits?date=: each booking's deposit state, and the day's totals held, captured and released. */
    async depositDay(principal: Principal, date: string): Promise<DepositDayResponse> {
      requireStaff(principal);
      const rows = await listDepositsOfDay(db, principal.restaurantId, date);
      const intents = await Promise.all(rows.map((row) => payments.readIntent(row.intent_id)));
      const totals = { heldPaise: 0, capturedPaise: 0, releasedPaise: 0 };
      const bookings = rows.map((row, index) => {
        const intent = intents[index]!;
        const state = depositStateOf(intent);
        if (state === 'held') totals.heldPaise += intent.authorisedPaise;
        totals.capturedPaise += intent.capturedPaise - intent.refundedPaise;
        if (state === 'released') totals.releasedPaise += intent.authorisedPaise;
        if (state === 'kept' || state === 'credit_at_table' || state === 'refunded') {
          totals.releasedPaise += intent.authorisedPaise - intent.capturedPaise + intent.refundedPaise;
        }
        return { reservationId: row.reservation_id, amountPaise: row.amount_paise, state };
      });
      return { date, bookings, totals };
    },

    /** Staff waive the fee of their own restaurant's late cancel or no-show. */
    async waiveFee(principal: Principal, id: string): Promise<void> {
      requireStaff(principal);
      const row = await findReservation(db, id);
      if (!row || row.restaurant_id !== principal.restaurantId) throw notFound(BOOKING_NOT_FOUND);
      if (!(await reservations.recordMoneyEvent(id, 'staffWaiver', 'staff'))) throw conflict('This booking has no fee to waive');
    },

    /**
     * The sweep: money moves decided but not taken (a crash after commit, a busy provider), and
     * authorisations whose listener never ran (a process dying after payments committed them).
     */
    async sweep(): Promise<number> {
      let done = 0;
      for (const reservationId of await listUndoneMoves(db, SWEEP_BATCH)) {
        await settleMove(reservationId);
        done += 1;
      }
      for (const deposit of await listUnbookedDeposits(db, new Date(clock.now().getTime() - UNBOOKED_LOOKBACK_MS), SWEEP_BATCH)) {
        const intent = await payments.readIntent(deposit.intent_id);
        if (intent.status !== 'AUTHORISED') continue;
        const answer = await onPaymentChange({
          intentId: intent.id,
          purpose: intent.purpose,
          reservationId: deposit.reservation_id,
          datingPlanId: null,
          from: 'CREATED',
          to: 'AUTHORISED',
        });
        if (answer === 'reject') {
          await payments
            .release({ intentId: intent.id, idempotencyKey: `auto-release:${intent.id}`, reason: 'authorised for a hold that is gone' })
            .catch((error: unknown) => log.warn({ err: error, intentId: intent.id }, 'release of an unbooked deposit failed'));
        }
        done += 1;
      }
      return done;
    },
  };
}

export type DepositsService = ReturnType<typeof createDepositsService>;
