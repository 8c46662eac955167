import { toRestaurantRef } from '#server/modules/restaurants/restaurant-sql.ts';
import { toDepositRequirementView } from '#common/contract/deposits.ts';
import type { CreateReservationBody, DinerReservation, ReservationDetail, ReservationSummary } from '#common/contract/reservations.ts';
import { depositMoveFor, isLateCancel, type DepositEvent, type DepositMoveDecision, type DepositTransition } from '#common/domain/deposit-moves.ts';
import { depositRequirementFor, type DepositRequirement } from '#common/domain/deposit-policy.ts';
import {
  checkTransition,
  DINER_CANCEL_NOTICE_MINUTES,
  effectiveStatus,
  NO_SHOW_GRACE_MINUTES,
  summaryBuckets,
  type ReservationActor,
  type ReservationStatus,
  type TransitionCheck,
} from '#common/domain/reservation-status.ts';
import { formatTime12h, isPastBookingCutoff, kolkataInstant, toKolkata } from '#common/domain/time.ts';
import { asDate, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, conflict, forbidden, notFound, sessionExpired, unauthenticated } from '#server/errors.ts';
import { anonymous, rejectInvalidCredential, requireDiner, requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { AvailabilityService } from '#server/modules/availability/availability.service.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import type { StrikesService } from '#server/modules/strikes/strikes.service.ts';
import {
  countActiveHolds,
  countCoversTaken,
  countReservationEvents,
  countReservationsByStatus,
  countUpcomingReservations,
  expireDueHolds,
  findDropDepositOfSlot,
  findReservation,
  hasLiveReservationAt,
  insertReservation,
  insertReservationEvent,
  isOwedToWaitlist,
  isSlotPublic,
  listHoldStartsSince,
  listReservationsOfUser,
  lockSlot,
  lockSlotById,
  lockSlotForHold,
  lockUser,
  readDinerBookingCounts,
  updateReservationStatus,
  type ReservationRow,
} from './reservations.repository.ts';
import { findDeposit, markAuthorised, recordMove, requirementOfDeposit, type ReservationDepositRow } from './deposits.repository.ts';

export const NO_LONGER_AVAILABLE = 'That time is no longer available';
export const RESERVATION_NOT_FOUND = 'Reservation not found';
/** Staff asking for another restaurant's booking are told it is not found. */
export const BOOKING_NOT_FOUND = 'Booking not found';
/** A drop's slot before its line has had its turn (decision 082). */
export const HELD_FOR_DROP = 'That time is given out through a drop. Enter the drop for a fair chance at a table.';
/** Covers freed on a slot that someone waiting for it has not been offered yet (decision 099). */
export const OWED_TO_WAITLIST = 'That table has just come free and is being offered to the diners on its waitlist first. Please try another time.';
/** MAX_UPCOMING_RESERVATIONS reached (decision 086). */
export const upcomingLimitMessage = (limit: number) => `You already have ${limit} upcoming reservations. Cancel one before booking another.`;

/** MAX_HOLDS_PER_RESTAURANT_PER_HOUR reached (decision 098): when a place in the budget comes back, in Kolkata time. */
export const holdStartsLimitMessage = (limit: number, retryAt: Date) =>
  `You have started ${limit} holds at this restaurant in the last hour. Please try again after ${formatTime12h(toKolkata(retryAt).time)}.`;
const HOUR_MS = 3_600_000;

/** Why an offer (drop or waitlist) could not become a hold: the caller passes the table on. */
export type OfferRefusal = 'no_account' | 'hold_limit' | 'upcoming_limit' | 'same_time' | 'slot_closed' | 'no_room';
/** An expired hold reads as the CANCELLED it has become (the refusal names the status, like every other). */
export const HOLD_EXPIRED = 'This hold has expired (it is now CANCELLED), so it can no longer be confirmed';

/** How a target status reads in a refusal: "…so it cannot be <verb>". */
const verbForTarget: Record<ReservationStatus, string> = {
  HELD: 'held',
  PENDING: 'confirmed',
  CONFIRMED: 'confirmed',
  SEATED: 'seated',
  COMPLETED: 'completed',
  CANCELLED: 'cancelled',
  NO_SHOW: 'marked as a no-show',
};

function refusalMessage(check: Exclude<TransitionCheck, { allowed: true }>, from: ReservationStatus, to: ReservationStatus): string {
  switch (check.reason) {
    case 'hold_expired':
      return HOLD_EXPIRED;
    case 'too_late_to_cancel':
      return `This reservation is ${from}: an accepted reservation can be cancelled only at least ${DINER_CANCEL_NOTICE_MINUTES / 60} hours ahead. Please call the restaurant.`;
    case 'too_early_for_no_show':
      return `This reservation is ${from}: a no-show can be marked only ${NO_SHOW_GRACE_MINUTES} minutes after the booked time`;
    case 'hold_not_expired':
    case 'not_a_move':
      return `This reservation is ${from}, so it cannot be ${verbForTarget[to]}`;
  }
}

/** A committed reservation move (or money event) that decided a money move payments must now take. */
export interface MoneyMoveDecided {
  reservationId: string;
}

/** Work another module does inside a reservation move's transaction, after the move. */
export type AlsoInTransaction = (tx: Db, moved: { id: string; userId: string; restaurantId: string }) => Promise<void>;

/** A move as the steps other modules add see it. */
export interface MoveOfReservation {
  id: string;
  userId: string;
  restaurantId: string;
  from: ReservationStatus;
  to: ReservationStatus;
}

/**
 * A step another module adds to every move, run inside the move's transaction (so it is written
 * with the move or not at all); what it returns, if anything, runs once the move has committed.
 */
export type MoveStep = (tx: Db, move: MoveOfReservation) => Promise<(() => void) | void>;

interface MoveOptions {
  cancelReason?: string;
  /** The diner gives the table back from a reminder's link: allowed up to the start (decision 152). */
  releasedFromReminder?: boolean;
  /** The move is the platform's own, not the caller's: a date plan booking or settling its table (decision 184). */
  bySystem?: boolean;
  /**
   * The booking's money is held outside reservation_deposits (a date's two deposits, decision 184):
   * like a booking with a deposit, it may be cancelled up to the start.
   */
  paidElsewhere?: boolean;
}

/** A date plan's move of its own reservation (decision 184), as `moveDateReservation` takes it. */
export interface DateReservationMove {
  reservationId: string;
  /** The platform account that holds dates' tables: the reservation must be one of its own. */
  platformUserId: string;
  to: ReservationStatus;
  /** 'member': one of the two members, in the diner's place; 'system': the plan itself (booked, settled). */
  by: 'member' | 'system';
  cancelReason?: string;
  alsoInTransaction: AlsoInTransaction;
}

/** A reminder link's grant, checked by the reminders service: this reservation, at this start. */
export interface ReminderLinkGrant {
  reservationId: string;
  startsAt: Date;
}

/** A reservation reached through a signed link: as its diner sees it, its owner, and its count of changes. */
export interface LinkedReservation {
  reservation: DinerReservation;
  userId: string;
  changes: number;
}

/** A reminder link for a start the reservation no longer has (a link is bound to the start it was sent for). */
export const LINK_FOR_ANOTHER_TIME = 'This link was sent for another time of this reservation, so it no longer works.';

/** The money move `depositMoves` gives for a transition of a reservation with this deposit, at `now`. */
function moneyMoveOf(
  deposit: ReservationDepositRow,
  transition: DepositTransition,
  now: Date,
): { decision: DepositMoveDecision; requirement: DepositRequirement } {
  const requirement: DepositRequirement = requirementOfDeposit(deposit);
  const decision = depositMoveFor(transition, { now, requirement, authorised: deposit.authorised_at !== null, wasLateCancel: deposit.late_cancel });
  return { decision, requirement };
}

export function toDinerReservation(row: ReservationRow, now: Date): DinerReservation {
  const status = effectiveStatus(row.status, row.hold_expires_at, now);
  return {
    id: row.id,
    status,
    partySize: row.party_size,
    restaurant: toRestaurantRef(row),
    slot: { date: row.slot_date, time: row.slot_time },
    holdExpiresAt: status === 'HELD' && row.hold_expires_at ? asDate(row.hold_expires_at).toISOString() : null,
    startsAt: asDate(row.starts_at).toISOString(),
    createdAt: asDate(row.created_at).toISOString(),
  };
}

/** Holds, confirmations and cancellations: the state machine of ARCHITECTURE.md, enforced here. */
export function createReservationsService(deps: AppDeps, restaurants: RestaurantsService, availability: AvailabilityService, strikes: StrikesService) {
  const { db, clock, config, events, log } = deps;

  /** Who the actor is, in the state machine's terms, and their id for the history. */
  function asActor(principal: Principal): { actor: ReservationActor; actorId: string | null } {
    if (principal.kind === 'diner') return { actor: 'diner', actorId: principal.userId };
    if (principal.kind === 'staff') return { actor: 'staff', actorId: principal.staffId };
    return { actor: 'diner', actorId: null };
  }

  /** The hold screen works with the id alone; a diner's token, when sent, must be the owner's. */
  function assertMayActOnAsDiner(principal: Principal, row: ReservationRow): void {
    rejectInvalidCredential(principal);
    // Staff, dating and moderator credentials are not diner credentials (decisions 004, 185), even where none is needed.
    if (principal.kind !== 'anonymous' && principal.kind !== 'diner') throw unauthenticated('This needs a diner sign-in');
    if (principal.kind === 'diner' && principal.userId !== row.user_id) {
      throw forbidden('That reservation belongs to another account');
    }
  }

  /**
   * A diner's move: the id alone may confirm or cancel only a hold (HELD as stored; an expired one is
   * then refused by the state machine), anything later needs the owner's token (decision 097). Runs
   * on the locked row, so the status cannot change between this check and the move.
   */
  function assertMayMoveAsDiner(principal: Principal, row: ReservationRow, verb: 'confirm' | 'cancel'): void {
    assertMayActOnAsDiner(principal, row);
    if (principal.kind === 'anonymous' && row.status !== 'HELD') {
      const status = effectiveStatus(row.status, row.hold_expires_at, clock.now());
      throw unauthenticated(`This reservation is ${status}: sign in as the diner who made it to ${verb} it.`);
    }
  }

  /** The first per-diner rule a new hold would break (MAX_ACTIVE_HOLDS, MAX_UPCOMING_RESERVATIONS, one per time), or null. */
  function dinerRuleRefusal(counts: { activeHolds: number; upcoming: number; hasLiveAtStart: boolean }): string | null {
    if (counts.activeHolds >= config.maxActiveHolds) return `You already have ${config.maxActiveHolds} holds waiting. Confirm or cancel one first.`;
    if (counts.upcoming >= config.maxUpcomingReservations) return upcomingLimitMessage(config.maxUpcomingReservations);
    if (counts.hasLiveAtStart) return 'You already have a reservation at that date and time';
    return null;
  }

  /**
   * MAX_HOLDS_PER_RESTAURANT_PER_HOUR (decision 098): holds the diner started at this restaurant in
   * the last hour, counted from the reservations themselves under the diner's row lock, so every
   * instance agrees and two requests of one diner cannot both squeeze in. The refusal names the
   * minute (rounded up) when the oldest of the counted holds leaves the hour.
   */
  async function assertMayStartHold(tx: Db, userId: string, restaurantId: string, now: Date): Promise<void> {
    const limit = config.maxHoldsPerRestaurantPerHour;
    const started = await listHoldStartsSince(tx, userId, restaurantId, new Date(now.getTime() - HOUR_MS), limit);
    if (started.length < limit) return;
    const retryAt = new Date(Math.ceil((started[limit - 1].getTime() + HOUR_MS) / 60_000) * 60_000);
    throw new AppError('RATE_LIMITED', holdStartsLimitMessage(limit, retryAt));
  }

  /** Applies one move inside a transaction, after the state machine allows it. */
  async function applyMove(
    tx: Db,
    row: ReservationRow,
    to: ReservationStatus,
    principal: Principal,
    options: MoveOptions = {},
  ): Promise<{ from: ReservationStatus; moneyMoved: boolean }> {
    // Confirming a hold keeps its covers for good, so it queues on the slot like a new hold does
    // (decision 030); the time is read after the lock.
    const isConfirmingHold = row.status === 'HELD' && to === 'PENDING';
    const slot = isConfirmingHold ? await lockSlotById(tx, row.slot_id) : undefined;
    const now = clock.now();
    const from = effectiveStatus(row.status, row.hold_expires_at, now);
    const { actor, actorId } = options.bySystem ? { actor: 'system' as const, actorId: null } : asActor(principal);
    const deposit = await findDeposit(tx, row.id, { forUpdate: true });
    const check = checkTransition(from, to, actor, {
      now,
      holdExpiresAt: row.hold_expires_at ? asDate(row.hold_expires_at) : null,
      startsAt: asDate(row.starts_at),
      // A paid booking may be cancelled late, for its fee (decision 121).
      carriesDeposit: deposit?.authorised_at != null || options.paidElsewhere === true,
      releasedFromReminder: options.releasedFromReminder,
    });
    if (!check.allowed) {
      // Confirming an expired hold names what happened rather than the status it has become.
      if (row.status === 'HELD' && from === 'CANCELLED' && to === 'PENDING') throw conflict(HOLD_EXPIRED, { status: from });
      throw conflict(refusalMessage(check, from, to), { status: from });
    }
    // Another instance, whose clock runs ahead, may already have given these covers away as expired:
    // then the hold has lapsed for the slot, whatever this clock says.
    if (slot && (await countCoversTaken(tx, row.slot_id, now)) > slot.capacity) throw conflict(HOLD_EXPIRED, { status: 'CANCELLED' });
    await updateReservationStatus(tx, row.id, { to, cancelReason: options.cancelReason, now });
    await insertReservationEvent(tx, { reservationId: row.id, from, to, actor, actorId, reason: options.cancelReason, now });
    const moneyMoved = deposit ? await decideMoneyMove(tx, deposit.reservation_id, { from, to, actor }, now) : false;
    return { from, moneyMoved };
  }

  /**
   * Writes the money move `depositMoves` gives for this move, in the move's transaction, so the
   * one move that wins the row lock is the one money move (decision 130). Payments takes it after
   * commit (the onMoneyMoveDecided listeners); returns whether there is one.
   */
  async function decideMoneyMove(
    tx: Db,
    reservationId: string,
    transition: { from: ReservationStatus; to: ReservationStatus; actor: ReservationActor; event?: DepositEvent },
    now: Date,
  ): Promise<boolean> {
    const deposit = await findDeposit(tx, reservationId, { forUpdate: true });
    if (!deposit) return false;
    const { decision, requirement } = moneyMoveOf(deposit, transition, now);
    if (decision.move === 'none') return false;
    // A waiver after a waiver (or a second dispute) is the same move: its key makes it one.
    const key = `deposit:${reservationId}:${transition.event ?? `${transition.from}-${transition.to}`}:${decision.move}`;
    if (deposit.move_key === key) return deposit.move_done_at === null;
    const lateCancel = transition.to === 'CANCELLED' && transition.actor === 'diner' && decision.move === 'capture_keep' && isLateCancel(requirement, now);
    await recordMove(tx, reservationId, { move: decision.move, paise: decision.capturePaise, key, lateCancel, now });
    return true;
  }

  /** What the reservation's slot asks now: the restaurant's policy, or its drop's own deposit. */
  async function currentRequirement(principal: Principal, row: ReservationRow, now: Date): Promise<DepositRequirement> {
    const [policy, dropDeposit] = await Promise.all([restaurants.getDepositPolicy(principal, row.restaurant_id), findDropDepositOfSlot(db, row.slot_id)]);
    return depositRequirementFor(policy, {
      startsAt: asDate(row.starts_at),
      covers: row.party_size,
      dropRequirement: dropDeposit ? { perCoverPaise: dropDeposit } : null,
      now,
    });
  }

  const moneyListeners = new Set<(decided: MoneyMoveDecided) => Promise<void>>();
  /** Work other modules do in every move's transaction (reminders' calendar emails). */
  const moveSteps = new Set<MoveStep>();
  /** After commit: the deposits service hands the move to payments before the caller is answered. */
  async function announceMoney(reservationId: string): Promise<void> {
    for (const listener of moneyListeners) await listener({ reservationId });
  }

  /** The refusal when a slot has no covers left for the party, counted for /metrics. */
  function slotFull(): Error {
    deps.metrics?.slotFullRefusals.inc();
    return conflict(NO_LONGER_AVAILABLE);
  }

  function announce(row: ReservationRow, status: ReservationStatus): void {
    deps.metrics?.reservationChanged(status);
    events.publish('reservation.changed', { reservationId: row.id, restaurantId: row.restaurant_id, userId: row.user_id, status });
    if (status === 'CANCELLED' || status === 'NO_SHOW') events.publish('slot.freed', { slotId: row.slot_id, restaurantId: row.restaurant_id });
  }

  /** Moves a reservation, locking it first so two moves cannot interleave. */
  async function moveReservation(
    principal: Principal,
    id: string,
    to: ReservationStatus,
    authorise: (row: ReservationRow) => void,
    options: MoveOptions & { alsoInTransaction?: AlsoInTransaction } = {},
  ): Promise<DinerReservation> {
    let moneyMoved = false;
    const afterCommit: (() => void)[] = [];
    const row = await db.transaction(async (tx) => {
      const locked = await findReservation(tx, id, { forUpdate: true });
      if (!locked) throw notFound(RESERVATION_NOT_FOUND);
      authorise(locked);
      const applied = await applyMove(tx, locked, to, principal, options);
      moneyMoved = applied.moneyMoved;
      const moved = { id: locked.id, userId: locked.user_id, restaurantId: locked.restaurant_id };
      await options.alsoInTransaction?.(tx, moved);
      for (const step of moveSteps) {
        const then = await step(tx, { ...moved, from: applied.from, to });
        if (then) afterCommit.push(then);
      }
      return (await findReservation(tx, id))!;
    });
    for (const then of afterCommit) then();
    announce(row, to);
    if (moneyMoved) await announceMoney(row.id);
    return toDinerReservation(row, clock.now());
  }

  return {
    /** Places a HELD reservation: the covers are taken at once, atomically, or not at all. */
    async createReservation(principal: Principal, input: CreateReservationBody): Promise<DinerReservation> {
      requireDiner(principal);
      const startsAt = kolkataInstant(input.date, input.time);
      // In a drop nearly every request is for a slot already full. When the slot is full as of
      // the latest change this instance has heard of, and the diner's own rules pass (read
      // without locks), answer as the locked path would, so only requests that may get covers
      // queue for the locks (decision 073). The locked path below still decides every hold.
      if (
        (await availability.isSlotClearlyFull(input.restaurantSlug, input.date, input.time, input.partySize)) &&
        !dinerRuleRefusal(await readDinerBookingCounts(db, principal.userId, startsAt, clock.now()))
      ) {
        throw slotFull();
      }
      const restaurantId = await availability.findRestaurantId(input.restaurantSlug);
      // Set when the covers are owed to the waitlist: after the refusal, the line is offered them at once.
      let owedSlotId: string | undefined;
      const row = await db
        .transaction(async (tx) => {
          const now = clock.now();
          // Lock order: diner, then slot, everywhere.
          if (!(await lockUser(tx, principal.userId))) throw sessionExpired();
          const refusal = dinerRuleRefusal(await readDinerBookingCounts(tx, principal.userId, startsAt, now));
          if (refusal) throw conflict(refusal);
          await assertMayStartHold(tx, principal.userId, restaurantId, now);
          await strikes.assertMayBook(tx, principal.userId);
          // Waiting for a connection may have outlasted the covers: holds committed meanwhile have been
          // heard, so a slot full in memory is refused before queueing for its lock (decision 073).
          // Memory only: a read on another connection here could wait on the pool this holds a place in.
          if (availability.isSlotKnownFull(input.restaurantSlug, input.date, input.time, input.partySize)) throw slotFull();
          const slot = await lockSlot(tx, restaurantId, input.date, input.time);
          if (!slot) throw notFound('That time is not offered on that date');
          if (slot.status !== 'available' || isPastBookingCutoff(slot.starts_at, now, config.bookingCutoffMinutes)) throw slotFull();
          if (slot.drop_id && !(await isSlotPublic(tx, slot.id, now))) throw conflict(HELD_FOR_DROP);
          const free = slot.capacity - (await countCoversTaken(tx, slot.id, now));
          if (free < input.partySize) throw slotFull();
          // Covers freed by a lapsed hold, a cancel or staff go to the line first, whichever way they
          // were freed and whether or not the sweeper or an event has run yet (decision 099).
          if (await isOwedToWaitlist(tx, slot.id, free, principal.userId)) {
            owedSlotId = slot.id;
            throw conflict(OWED_TO_WAITLIST);
          }
          const holdExpiresAt = new Date(now.getTime() + config.holdMinutes * 60_000);
          const id = await insertReservation(tx, {
            userId: principal.userId,
            restaurantId,
            slotId: slot.id,
            partySize: input.partySize,
            holdExpiresAt,
            startsAt: asDate(slot.starts_at),
            now,
          });
          await insertReservationEvent(tx, { reservationId: id, from: null, to: 'HELD', actor: 'diner', actorId: principal.userId, now });
          return (await findReservation(tx, id))!;
        })
        .catch((error: unknown) => {
          if (owedSlotId) events.publish('slot.freed', { slotId: owedSlotId, restaurantId });
          throw error;
        });
      announce(row, 'HELD');
      return toDinerReservation(row, clock.now());
    },

    /**
     * For drops and the waitlist, inside their own transaction (after they locked their drop or
     * entry row): a HELD reservation placed by the system for `userId` on `slotId`, lasting
     * `holdMinutes`, through the same path as createReservation (lock diner, lock slot, count
     * covers in a fresh statement, insert) and the same per-diner limits. A refusal is answered,
     * not thrown, so the caller can pass the table to the next in line. `gate`: 'drop' offers a
     * drop's own slot; 'public' only a slot anyone may book. Call announceOfferedHold after commit.
     */
    async createHoldForOffer(
      tx: Db,
      offer: { userId: string; slotId: string; partySize: number; holdMinutes: number; reason: 'DROP_OFFER' | 'WAITLIST_OFFER'; gate: 'drop' | 'public' },
    ): Promise<{ held: ReservationRow } | { refused: OfferRefusal }> {
      const now = clock.now();
      if (!(await lockUser(tx, offer.userId))) return { refused: 'no_account' };
      if ((await countActiveHolds(tx, offer.userId, now)) >= config.maxActiveHolds) return { refused: 'hold_limit' };
      if ((await countUpcomingReservations(tx, offer.userId, now)) >= config.maxUpcomingReservations) return { refused: 'upcoming_limit' };
      const slot = await lockSlotForHold(tx, offer.slotId);
      if (!slot) return { refused: 'slot_closed' };
      const startsAt = asDate(slot.starts_at);
      if (await hasLiveReservationAt(tx, offer.userId, startsAt, now)) return { refused: 'same_time' };
      if (slot.status !== 'available' || isPastBookingCutoff(startsAt, now, config.bookingCutoffMinutes)) return { refused: 'slot_closed' };
      if (offer.gate === 'drop' ? slot.drop_id === null : !(await isSlotPublic(tx, slot.id, now))) return { refused: 'slot_closed' };
      if (slot.capacity - (await countCoversTaken(tx, slot.id, now)) < offer.partySize) return { refused: 'no_room' };
      const id = await insertReservation(tx, {
        userId: offer.userId,
        restaurantId: slot.restaurant_id,
        slotId: slot.id,
        partySize: offer.partySize,
        holdExpiresAt: new Date(now.getTime() + offer.holdMinutes * 60_000),
        startsAt,
        now,
      });
      await insertReservationEvent(tx, { reservationId: id, from: null, to: 'HELD', actor: 'system', actorId: null, reason: offer.reason, now });
      return { held: (await findReservation(tx, id))! };
    },

    /**
     * For date plans (decision 184), inside their transaction: a HELD reservation for `partySize` on
     * `slotId`, placed for the platform account `userId` and lasting until `holdUntil` (the plan's
     * deadline), through the same protocol as every hold: lock the slot, count its covers in a fresh
     * statement, leave covers owed to the waitlist to the line. The per-diner limits do not apply:
     * the account holds every date's table. Answers undefined when the slot cannot take it; call
     * announceOfferedHold after commit.
     */
    async createHoldForPlatform(
      tx: Db,
      hold: { userId: string; slotId: string; partySize: number; holdUntil: Date; reason: string },
    ): Promise<ReservationRow | undefined> {
      const now = clock.now();
      const slot = await lockSlotForHold(tx, hold.slotId);
      if (!slot || slot.status !== 'available' || hold.holdUntil.getTime() <= now.getTime()) return undefined;
      const startsAt = asDate(slot.starts_at);
      if (isPastBookingCutoff(startsAt, now, config.bookingCutoffMinutes) || !(await isSlotPublic(tx, slot.id, now))) return undefined;
      const free = slot.capacity - (await countCoversTaken(tx, slot.id, now));
      if (free < hold.partySize || (await isOwedToWaitlist(tx, slot.id, free, hold.userId))) return undefined;
      const id = await insertReservation(tx, {
        userId: hold.userId,
        restaurantId: slot.restaurant_id,
        slotId: slot.id,
        partySize: hold.partySize,
        holdExpiresAt: hold.holdUntil,
        startsAt,
        now,
      });
      await insertReservationEvent(tx, { reservationId: id, from: null, to: 'HELD', actor: 'system', actorId: null, reason: hold.reason, now });
      return (await findReservation(tx, id))!;
    },

    /**
     * A date plan moves its own reservation (decision 184): a member in the diner's place (declining
     * the hold, cancelling the date up to its start), or the plan itself (booked once both paid,
     * settled after the arrival grace). The same lock, state machine and after-commit work as every
     * move; `alsoInTransaction` writes the plan's side under the reservation's row lock.
     */
    moveDateReservation(move: DateReservationMove): Promise<DinerReservation> {
      return moveReservation(
        anonymous,
        move.reservationId,
        move.to,
        (row) => {
          if (row.user_id !== move.platformUserId) throw notFound(RESERVATION_NOT_FOUND);
        },
        { bySystem: move.by === 'system', paidElsewhere: true, cancelReason: move.cancelReason, alsoInTransaction: move.alsoInTransaction },
      );
    },

    /** Tells listeners (live dashboards) about a hold createHoldForOffer placed, once its transaction committed. */
    announceOfferedHold(row: ReservationRow): void {
      announce(row, 'HELD');
    },

    /** The signed-in diner's reservations. */
    async listMyReservations(principal: Principal): Promise<DinerReservation[]> {
      requireDiner(principal);
      const now = clock.now();
      return (await listReservationsOfUser(db, principal.userId, now)).map((row) => toDinerReservation(row, now));
    },

    /** pending = HELD + PENDING, ongoing = CONFIRMED + SEATED, completed = COMPLETED. */
    async getMySummary(principal: Principal): Promise<ReservationSummary> {
      requireDiner(principal);
      const counts = await countReservationsByStatus(db, principal.userId, clock.now());
      const total = (statuses: readonly string[]) => statuses.reduce((sum, status) => sum + (counts.get(status) ?? 0), 0);
      return { pending: total(summaryBuckets.pending), ongoing: total(summaryBuckets.ongoing), completed: total(summaryBuckets.completed) };
    },

    /** One reservation by its unguessable id (the hold screen sends no token). */
    async getReservation(principal: Principal, id: string): Promise<ReservationDetail> {
      const row = await findReservation(db, id);
      if (!row) throw notFound(RESERVATION_NOT_FOUND);
      assertMayActOnAsDiner(principal, row);
      const now = clock.now();
      // The policy as it is now; once paid, the booking keeps the terms it was asked (decision 132).
      return { ...toDinerReservation(row, now), deposit: toDepositRequirementView(await currentRequirement(principal, row, now)) };
    },

    /**
     * The hold the diner asks to pay for, with what its slot asks now (the id alone will do, like
     * Confirm). The deposits service pays for it, or confirms it as before when nothing is asked.
     */
    async readHoldToConfirm(principal: Principal, id: string): Promise<{ row: ReservationRow; requirement: DepositRequirement }> {
      const row = await findReservation(db, id);
      if (!row) throw notFound(RESERVATION_NOT_FOUND);
      assertMayMoveAsDiner(principal, row, 'confirm');
      return { row, requirement: await currentRequirement(principal, row, clock.now()) };
    },

    /**
     * HELD → PENDING once its deposit is authorised (payments' listener): the same move, lock and
     * rules as Confirm, so a hold that expired or was cancelled meanwhile is refused (and the
     * money then released by payments).
     */
    confirmPaidHold(id: string): Promise<DinerReservation> {
      return moveReservation(anonymous, id, 'PENDING', () => {}, {
        alsoInTransaction: (tx, moved) => markAuthorised(tx, moved.id, clock.now()),
      });
    },

    /**
     * A money event that is not a status change (decision 131): covers of a late cancel sold again,
     * a staff waiver, an upheld dispute. Decided by `depositMoves` on the reservation's current
     * status under its row lock; true when a money move was written.
     */
    async recordMoneyEvent(reservationId: string, event: DepositEvent, actor: ReservationActor): Promise<boolean> {
      const decided = await db.transaction(async (tx) => {
        const locked = await findReservation(tx, reservationId, { forUpdate: true });
        if (!locked) throw notFound(RESERVATION_NOT_FOUND);
        return decideMoneyMove(tx, locked.id, { from: locked.status, to: locked.status, actor, event }, clock.now());
      });
      if (decided) await announceMoney(reservationId);
      return decided;
    },

    /** Hears each committed money move decision (the deposits service hands it to payments). */
    onMoneyMoveDecided(listener: (decided: MoneyMoveDecided) => Promise<void>): () => void {
      moneyListeners.add(listener);
      return () => moneyListeners.delete(listener);
    },

    /** HELD → PENDING, before the hold expires (the id alone will do: it is still a hold). Only for slots that ask no deposit (see the deposits service). */
    confirmReservation(principal: Principal, id: string): Promise<DinerReservation> {
      return moveReservation(principal, id, 'PENDING', (row) => assertMayMoveAsDiner(principal, row, 'confirm'));
    },

    /** The diner's cancel: a hold (the id alone will do), or with the owner's token a pending request or an accepted one at least 2 hours ahead. */
    cancelReservation(principal: Principal, id: string): Promise<DinerReservation> {
      return moveReservation(principal, id, 'CANCELLED', (row) => assertMayMoveAsDiner(principal, row, 'cancel'), { cancelReason: 'DINER_CANCELLED' });
    },

    /**
     * "Release my table" from a reminder (decision 152): the diner's cancel, allowed up to the start,
     * with the deposit policy's fee where there is one. Access is the signed link the reminders
     * service has checked; it is bound to the reservation and to the start it was sent for.
     * `alsoInTransaction` records the reply with the move.
     */
    releaseFromReminder(grant: ReminderLinkGrant, alsoInTransaction: AlsoInTransaction): Promise<DinerReservation> {
      return moveReservation(
        anonymous,
        grant.reservationId,
        'CANCELLED',
        (row) => {
          if (asDate(row.starts_at).getTime() !== grant.startsAt.getTime()) throw conflict(LINK_FOR_ANOTHER_TIME);
        },
        { cancelReason: 'DINER_RELEASED', releasedFromReminder: true, alsoInTransaction },
      );
    },

    /**
     * What "Release my table" would keep of the deposit if pressed now, in paise (0 when nothing
     * is kept): the same money rule the release itself runs through (decision 130).
     */
    async releaseFeeNow(grant: ReminderLinkGrant): Promise<number> {
      const [row, deposit] = await Promise.all([findReservation(db, grant.reservationId), findDeposit(db, grant.reservationId)]);
      if (!row || !deposit) return 0;
      const now = clock.now();
      const { decision } = moneyMoveOf(deposit, { from: effectiveStatus(row.status, row.hold_expires_at, now), to: 'CANCELLED', actor: 'diner' }, now);
      return decision.move === 'capture_keep' ? decision.capturePaise : 0;
    },

    /** Adds a step to every move's transaction (reminders: the calendar update emails). */
    addMoveStep(step: MoveStep): () => void {
      moveSteps.add(step);
      return () => moveSteps.delete(step);
    },

    /**
     * A reservation as its diner sees it, with its owner and how many changes it has had, for a
     * page or file reached by a signed link (the caller has checked the link; `reservationId` is
     * what the link is bound to). Pass `tx` to read inside a move's transaction.
     */
    async findForLink(reservationId: string, tx: Db = db): Promise<LinkedReservation | undefined> {
      const row = await findReservation(tx, reservationId);
      const changes = await countReservationEvents(tx, reservationId);
      return row && { reservation: toDinerReservation(row, clock.now()), userId: row.user_id, changes };
    },

    /**
     * Staff moves on their own restaurant's bookings; another restaurant's booking is not found.
     * `alsoInTransaction` runs after the move, under the same row lock and transaction (a
     * no-show's strike), so both are written or neither.
     */
    async moveReservationAsStaff(principal: Principal, id: string, to: ReservationStatus, alsoInTransaction?: AlsoInTransaction): Promise<DinerReservation> {
      requireStaff(principal);
      return moveReservation(
        principal,
        id,
        to,
        (row) => {
          if (row.restaurant_id !== principal.restaurantId) throw notFound(BOOKING_NOT_FOUND);
        },
        { ...(to === 'CANCELLED' ? { cancelReason: 'RESTAURANT_CANCELLED' } : {}), alsoInTransaction },
      );
    },

    /** Writes CANCELLED (HOLD_EXPIRED) on holds past their expiry; run by the sweeper. */
    async expireDueHolds(): Promise<number> {
      const expired = await db.transaction((tx) => expireDueHolds(tx, clock.now()));
      deps.metrics?.holdsExpired(expired.length);
      for (const row of expired) {
        events.publish('reservation.changed', { reservationId: row.id, restaurantId: row.restaurant_id, userId: row.user_id, status: 'CANCELLED' });
        events.publish('slot.freed', { slotId: row.slot_id, restaurantId: row.restaurant_id });
      }
      if (expired.length > 0) log.info({ count: expired.length }, 'expired holds released');
      return expired.length;
    },
  };
}

export type ReservationsService = ReturnType<typeof createReservationsService>;
