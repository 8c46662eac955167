import type { BookingChangeView, ChangeBookingBody, ChangeBookingResponse, ChangeTermsView } from '#common/contract/booking-change.ts';
import { changeableStatuses, changeTermsFor, describeChange, type ChangeTerms } from '#common/domain/booking-change.ts';
import { depositRequirementFor, type DepositRequirement } from '#common/domain/deposit-policy.ts';
import type { ChangeMoney } from '#common/domain/money-sentences.ts';
import { effectiveStatus, type ReservationStatus } from '#common/domain/reservation-status.ts';
import { isPastBookingCutoff, kolkataInstant, toKolkata } from '#common/domain/time.ts';
import { asDate, iso, isoOrNull, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound, sessionExpired } from '#server/errors.ts';
import { requireDiner, type Principal } from '#server/modules/accounts/principal.ts';
import type { FloorService } from '#server/modules/floor/floor.service.ts';
import type { PaymentStatusChange, PaymentsService } from '#server/modules/payments/payments.service.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import {
  findChangeByIntent,
  insertChange,
  listChanges,
  listExtraIntents,
  refuseWaitingChanges,
  setChangeIntent,
  settleWaitingChange,
  updateDepositTerms,
  updateReservationTimeAndParty,
  type ReservationChangeRow,
} from './booking-changes.repository.ts';
import { findDeposit, findDropDepositOfSlot, type ReservationDepositRow } from './deposits.repository.ts';
import { announceReservation, type MoveStep } from './move-reservation.ts';
import {
  countCoversTaken,
  findReservation,
  hasLiveReservationAt,
  insertReservationEvent,
  isOwedToWaitlist,
  isSlotPublic,
  lockSlot,
  lockUser,
  type ReservationRow,
} from './reservations.repository.ts';
import { HELD_FOR_DROP, NO_LONGER_AVAILABLE, OWED_TO_WAITLIST, RESERVATION_NOT_FOUND, toDinerReservation } from './reservation-view.ts';

/** The history's reason on a change's event: the status stays, so the calendar file's SEQUENCE rises (decision 284). */
export const CHANGED_REASON = 'CHANGED';
export const TOO_LATE_TO_CHANGE = 'It is too late to change this booking online. Please call the restaurant.';
const SAME_BOOKING = 'That is the booking you already have: choose another time or party size';

/** An applied change as its listeners hear it, inside the change's transaction. */
export interface AppliedChange {
  reservationId: string;
  userId: string;
  fromStartsAt: Date;
  toStartsAt: Date;
  fromPartySize: number;
  toPartySize: number;
  money: ChangeMoney;
}

/** Hears an applied change in its transaction (the outbox is written there); may return work for after commit. */
export type ChangeListener = (tx: Db, change: AppliedChange) => Promise<(() => void) | void>;

/** Where a change goes, and who makes it. */
interface ChangeTarget {
  reservationId: string;
  userId: string;
  date: string;
  time: string;
  partySize: number;
}

/** What the checks under the locks found: the locked booking, the new slot, and the terms. */
interface CheckedChange {
  row: ReservationRow;
  status: ReservationStatus;
  slotId: string;
  startsAt: Date;
  deposit: ReservationDepositRow | undefined;
  extrasPaise: number;
  next: DepositRequirement;
  terms: ChangeTerms;
  /** Where the new party sits, chosen by the floor's seatHold while the old table still counts. */
  seating: Awaited<ReturnType<FloorService['seatHold']>>;
}

function toTermsView(terms: ChangeTerms): ChangeTermsView {
  return { ...terms, freeCancelUntil: terms.freeCancelUntil?.toISOString() ?? null };
}

function toChangeView(row: ReservationChangeRow): BookingChangeView {
  const change = {
    fromStartsAt: asDate(row.from_starts_at),
    toStartsAt: asDate(row.to_starts_at),
    fromPartySize: row.from_party_size,
    toPartySize: row.to_party_size,
  };
  return {
    id: row.id,
    status: row.status,
    description: describeChange(change),
    fromStartsAt: change.fromStartsAt.toISOString(),
    toStartsAt: change.toStartsAt.toISOString(),
    fromPartySize: row.from_party_size,
    toPartySize: row.to_party_size,
    extraPaise: row.extra_paise,
    releasedPaise: row.released_paise,
    actor: row.actor_kind,
    createdAt: iso(row.created_at),
    appliedAt: isoOrNull(row.applied_at),
  };
}

/** The row of a change applied at once (a change that paid an extra was recorded when it was asked). */
async function recordAppliedChange(tx: Db, checked: CheckedChange, target: ChangeTarget, now: Date): Promise<void> {
  const { row, terms } = checked;
  await insertChange(tx, {
    reservationId: row.id,
    status: 'applied',
    fromSlotId: row.slot_id,
    toSlotId: checked.slotId,
    fromStartsAt: asDate(row.starts_at),
    toStartsAt: checked.startsAt,
    fromPartySize: row.party_size,
    toPartySize: target.partySize,
    extraPaise: 0,
    releasedPaise: terms.releasedPaise,
    actorKind: 'diner',
    actorId: target.userId,
    now,
  });
}

/** What an applied change's listeners hear. */
function appliedChangeOf({ row, startsAt, terms }: CheckedChange, target: ChangeTarget): AppliedChange {
  return {
    reservationId: row.id,
    userId: target.userId,
    fromStartsAt: asDate(row.starts_at),
    toStartsAt: startsAt,
    fromPartySize: row.party_size,
    toPartySize: target.partySize,
    money: { kind: terms.kind, depositPaise: terms.depositPaise, extraPaise: terms.extraPaise, releasedPaise: terms.releasedPaise },
  };
}

/**
 * A diner changes a booking's time and/or party size at the same restaurant (decisions 280-284).
 * The change is one transaction under the diner's, the booking's, the new slot's and the floor's
 * locks (in that order, as a hold takes them): the new covers and table are taken by the floor's
 * seatHold while the old table still counts, then the old table is let go, the booking and its
 * deposit terms are rewritten and the history records the change; any refusal rolls all of it
 * back. A change that asks an extra deposit is checked, waits for that payment, and is applied the
 * same way when payments says it is authorised; until then the booking keeps its old terms.
 */
export function createChangeBooking(deps: AppDeps, floor: FloorService, payments: PaymentsService, restaurants: RestaurantsService) {
  const { db, clock, config, events } = deps;
  const changeListeners: ChangeListener[] = [];

  /** Every check a new booking passes, on the locked booking and the locked new slot; writes nothing. */
  async function checkChange(tx: Db, principal: Principal, target: ChangeTarget, now: Date): Promise<CheckedChange> {
    if (!(await lockUser(tx, target.userId))) throw sessionExpired();
    const row = await findReservation(tx, target.reservationId, { forUpdate: true });
    // Another diner's booking is not found (decision 280): its id tells nothing.
    if (!row || row.user_id !== target.userId) throw notFound(RESERVATION_NOT_FOUND);
    const status = effectiveStatus(row.status, row.hold_expires_at, now);
    if (!(changeableStatuses as readonly string[]).includes(status)) throw conflict(`This reservation is ${status}, so it cannot be changed`, { status });
    if (isPastBookingCutoff(row.starts_at, now, config.bookingCutoffMinutes)) throw conflict(TOO_LATE_TO_CHANGE);
    const startsAt = kolkataInstant(target.date, target.time);
    const sameSlot = asDate(row.starts_at).getTime() === startsAt.getTime();
    if (sameSlot && row.party_size === target.partySize) throw conflict(SAME_BOOKING);
    const slot = await lockSlot(tx, row.restaurant_id, target.date, target.time);
    if (!slot) throw notFound('That time is not offered on that date');
    if (slot.status !== 'available' || isPastBookingCutoff(slot.starts_at, now, config.bookingCutoffMinutes)) throw conflict(NO_LONGER_AVAILABLE);
    if (!sameSlot && slot.drop_id && !(await isSlotPublic(tx, slot.id, now))) throw conflict(HELD_FOR_DROP);
    const ownCovers = slot.id === row.slot_id ? row.party_size : 0;
    const free = slot.capacity - (await countCoversTaken(tx, slot.id, now)) + ownCovers;
    if (free < target.partySize) throw conflict(NO_LONGER_AVAILABLE);
    if (target.partySize > ownCovers && (await isOwedToWaitlist(tx, slot.id, free - ownCovers, target.userId))) throw conflict(OWED_TO_WAITLIST);
    if (!sameSlot && (await hasLiveReservationAt(tx, target.userId, startsAt, now))) throw conflict('You already have a reservation at that date and time');
    const deposit = await findDeposit(tx, row.id, { forUpdate: true });
    const extrasPaise = (await listChanges(tx, row.id)).reduce((sum, change) => sum + (change.status === 'applied' ? change.extra_paise : 0), 0);
    // What a new booking of this time and party would ask (decision 120), read in this transaction.
    const [policy, dropDeposit] = [await restaurants.getDepositPolicy(principal, row.restaurant_id, tx), await findDropDepositOfSlot(tx, slot.id)];
    const next = depositRequirementFor(policy, {
      startsAt,
      covers: target.partySize,
      dropRequirement: dropDeposit ? { perCoverPaise: dropDeposit } : null,
      now,
    });
    const paid = deposit?.authorised_at ? { amountPaise: deposit.amount_paise + extrasPaise, freeCancelUntil: asDate(deposit.free_cancel_until) } : null;
    const terms = changeTermsFor(paid, next, now);
    if (terms.kind === 'release' && extrasPaise > 0) {
      throw conflict('This booking paid its deposit in two parts: please call the restaurant to make it smaller.');
    }
    // The table last, inside the floor's lock (lock order: diner, slot, floor), so the terms are shown only for a change that can be made.
    const seating = await floor.seatHold(tx, { restaurantId: row.restaurant_id, startsAt, partySize: target.partySize, onlineOnly: true });
    if (seating === null) throw conflict(NO_LONGER_AVAILABLE);
    return { row, status, slotId: slot.id, startsAt, deposit, extrasPaise, next, terms, seating };
  }

  /**
   * Writes a checked change in its transaction: the new table through the floor's seatHold (the
   * old one still counts), then the old table let go and the new one recorded, the booking, its
   * deposit terms, the history and the change's row; then its listeners, whose after-commit work
   * it returns.
   */
  async function writeChange(tx: Db, checked: CheckedChange, target: ChangeTarget, now: Date, waitingChangeId?: string): Promise<(() => void)[]> {
    const { row, terms, next, deposit, seating } = checked;
    if (seating !== null && seating !== 'no-floor') {
      await floor.releaseSeating(tx, row.restaurant_id, row.id, now);
      await floor.recordSeating(tx, row.restaurant_id, row.id, target.partySize, seating);
    }
    await updateReservationTimeAndParty(tx, row.id, { slotId: checked.slotId, startsAt: checked.startsAt, partySize: target.partySize, now });
    if (deposit?.authorised_at && terms.freeCancelUntil) {
      // The main authorisation keeps what it blocked; a release lowers its amount (decision 282), an extra is its own intent (decision 283).
      const lowered = terms.kind === 'release' && next.kind !== 'none';
      await updateDepositTerms(tx, row.id, {
        amountPaise: terms.kind === 'release' ? terms.depositPaise - checked.extrasPaise : deposit.amount_paise,
        perCoverPaise: lowered ? next.perCoverPaise : deposit.per_cover_paise,
        freeCancelUntil: terms.freeCancelUntil,
        lateCancelKeepPaise: lowered ? next.lateCancelKeepPaise : deposit.late_cancel_keep_paise,
        noShowKeepPaise: lowered ? next.noShowKeepPaise : deposit.no_show_keep_paise,
        plainWords: lowered ? next.plainWords : deposit.plain_words,
        now,
      });
    }
    await insertReservationEvent(tx, {
      reservationId: row.id,
      from: checked.status,
      to: checked.status,
      actor: 'diner',
      actorId: target.userId,
      reason: CHANGED_REASON,
      now,
    });
    if (waitingChangeId) {
      if (!(await settleWaitingChange(tx, waitingChangeId, 'applied', now))) throw conflict('This change was replaced by a newer one');
    } else {
      await refuseWaitingChanges(tx, row.id);
      await recordAppliedChange(tx, checked, target, now);
    }
    const applied = appliedChangeOf(checked, target);
    const afterCommit: (() => void)[] = [];
    for (const listener of changeListeners) {
      const after = await listener(tx, applied);
      if (after) afterCommit.push(after);
    }
    return afterCommit;
  }

  /** After commit: the dashboards hear the booking, and what the change freed goes to the old slot's waitlist. */
  async function announceChange(before: ReservationRow): Promise<ReservationRow> {
    const after = (await findReservation(db, before.id))!;
    announceReservation(deps, after, after.status);
    if (after.slot_id !== before.slot_id || after.party_size < before.party_size) {
      events.publish('slot.freed', { slotId: before.slot_id, restaurantId: before.restaurant_id });
    }
    return after;
  }

  function targetOf(principal: Principal, reservationId: string, body: ChangeBookingBody): ChangeTarget {
    requireDiner(principal);
    return { reservationId, userId: principal.userId, date: body.date, time: body.time, partySize: body.partySize };
  }

  return {
    /** GET /api/reservations/{id}/change-terms: what the change would cost or release, checked as the change would be; nothing is taken. */
    async previewChange(principal: Principal, reservationId: string, body: ChangeBookingBody): Promise<ChangeTermsView> {
      const target = targetOf(principal, reservationId, body);
      const checked = await db.transaction((tx) => checkChange(tx, principal, target, clock.now()));
      return toTermsView(checked.terms);
    },

    /**
     * POST /api/reservations/{id}/change. Without an extra deposit the change is applied at once,
     * atomically. With one, the change is recorded as waiting and its payment started; the booking
     * keeps its old time, party and terms until payments says the extra is authorised.
     */
    async changeBooking(principal: Principal, reservationId: string, body: ChangeBookingBody): Promise<ChangeBookingResponse> {
      const target = targetOf(principal, reservationId, body);
      const outcome = await db.transaction(async (tx) => {
        const now = clock.now();
        const checked = await checkChange(tx, principal, target, now);
        if (checked.terms.kind === 'pay_extra') {
          await refuseWaitingChanges(tx, reservationId);
          const changeId = await insertChange(tx, {
            reservationId,
            status: 'awaiting_payment',
            fromSlotId: checked.row.slot_id,
            toSlotId: checked.slotId,
            fromStartsAt: asDate(checked.row.starts_at),
            toStartsAt: checked.startsAt,
            fromPartySize: checked.row.party_size,
            toPartySize: target.partySize,
            extraPaise: checked.terms.extraPaise,
            releasedPaise: 0,
            actorKind: 'diner',
            actorId: target.userId,
            now,
          });
          return { checked, changeId, afterCommit: [] };
        }
        return { checked, changeId: null, afterCommit: await writeChange(tx, checked, target, now) };
      });
      const { checked, changeId } = outcome;
      if (changeId) {
        const row = checked.row;
        const started = await payments.startAuthorisation({
          accountId: row.user_id,
          reservationId: row.id,
          restaurantId: row.restaurant_id,
          amountPaise: checked.terms.extraPaise,
          purpose: checked.deposit?.kind === 'prepayment' ? 'reservation_prepayment' : 'reservation_deposit',
          idempotencyKey: `booking-change:${changeId}`,
        });
        await setChangeIntent(db, changeId, started.intentId);
        return {
          reservation: toDinerReservation(row, clock.now()),
          terms: toTermsView(checked.terms),
          applied: false,
          payment: { intentId: started.intentId, amountPaise: checked.terms.extraPaise, approvalUrl: started.approvalUrl },
        };
      }
      for (const run of outcome.afterCommit ?? []) run();
      const after = await announceChange(checked.row);
      return { reservation: toDinerReservation(after, clock.now()), terms: toTermsView(checked.terms), applied: true, payment: null };
    },

    /** GET /api/reservations/{id}/changes: the booking's changes, for its diner. */
    async listChangesAsDiner(principal: Principal, reservationId: string): Promise<BookingChangeView[]> {
      requireDiner(principal);
      const row = await findReservation(db, reservationId);
      if (!row || row.user_id !== principal.userId) throw notFound(RESERVATION_NOT_FOUND);
      return (await listChanges(db, reservationId)).map(toChangeView);
    },

    /** A booking's changes for a caller that has done its own access check (the portal's booking). */
    async listChangesOf(reservationId: string): Promise<BookingChangeView[]> {
      return (await listChanges(db, reservationId)).map(toChangeView);
    },

    /**
     * Payments' listener: the extra deposit of a waiting change is authorised, so the change is
     * applied now, checked again under the same locks. A change that can no longer be made (the
     * time was taken meanwhile, the booking cancelled, a newer change asked) is refused and its
     * payment released ('reject'); the booking stays exactly as it was.
     */
    async onPaymentChange(change: PaymentStatusChange): Promise<void | 'reject'> {
      if (change.to !== 'AUTHORISED') return;
      const waiting = await findChangeByIntent(db, change.intentId);
      if (!waiting) return;
      if (waiting.status !== 'awaiting_payment') return 'reject';
      const row = await findReservation(db, waiting.reservation_id);
      if (!row) return 'reject';
      const { date, time } = toKolkata(asDate(waiting.to_starts_at));
      const target: ChangeTarget = { reservationId: row.id, userId: row.user_id, date, time, partySize: waiting.to_party_size };
      const principal: Principal = { kind: 'diner', userId: row.user_id };
      let afterCommit: (() => void)[];
      try {
        afterCommit = await db.transaction(async (tx) => {
          const now = clock.now();
          const checked = await checkChange(tx, principal, target, now);
          // The diner pays what they were shown; the booking's terms were read again under the lock.
          const terms = { ...checked.terms, kind: 'pay_extra' as const, extraPaise: waiting.extra_paise };
          return writeChange(tx, { ...checked, terms }, target, now, waiting.id);
        });
      } catch (error) {
        deps.log.info({ err: error, reservationId: row.id }, 'a paid change could not be made; its payment is released');
        await db.transaction((tx) => settleWaitingChange(tx, waiting.id, 'refused', clock.now()));
        return 'reject';
      }
      for (const run of afterCommit) run();
      await announceChange(row);
    },

    /** Adds a listener of every applied change (server/composition.ts); returns what removes it. */
    onChangeApplied(listener: ChangeListener): () => void {
      changeListeners.push(listener);
      return () => {
        const index = changeListeners.indexOf(listener);
        if (index >= 0) changeListeners.splice(index, 1);
      };
    },

    extraMoneyStep: createExtraMoneyStep(payments),
  };
}

/**
 * Move step (server/composition.ts): a booking that paid an extra deposit for a change settles it
 * with the booking (decision 283): credited at the table when seated, released on any other end.
 */
function createExtraMoneyStep(payments: PaymentsService): MoveStep {
  return async (tx, reservation) => {
    const extras = await listExtraIntents(tx, reservation.id);
    if (extras.length === 0) return;
    return {
      carriesDeposit: true,
      async afterMove(_stepTx, move) {
        if (!['SEATED', 'CANCELLED', 'NO_SHOW'].includes(move.to)) return;
        return async () => {
          for (const extra of extras) {
            await payments.settleMoneyMove(
              {
                intentId: extra.extra_intent_id,
                key: `booking-change:${extra.id}:${move.to}`,
                kind: move.to === 'SEATED' ? 'credit_at_table' : 'release',
                reason: `${move.to} after reservation ${reservation.id}`,
              },
              async () => {},
            );
          }
        };
      },
    };
  };
}

export type ChangeBooking = ReturnType<typeof createChangeBooking>;
