import type { CreateReservationBody, DinerReservation } from '#common/contract/reservations.ts';
import { isEmptyRequest } from '#common/domain/guests.ts';
import { HOUR_MS, isPastBookingCutoff, kolkataInstant } from '#common/domain/time.ts';
import { asDate, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, conflict, notFound, sessionExpired } from '#server/errors.ts';
import { requireDiner, type Principal } from '#server/modules/accounts/principal.ts';
import type { AvailabilityService } from '#server/modules/availability/availability.service.ts';
import type { FloorService } from '#server/modules/floor/floor.service.ts';
import type { StrikesService } from '#server/modules/strikes/strikes.service.ts';
import { announceReservation } from './move-reservation.ts';
import {
  countCoversTaken,
  findReservation,
  insertReservation,
  insertReservationEvent,
  isOwedToWaitlist,
  isSlotPublic,
  listHoldStartsSince,
  lockSlot,
  lockUser,
  readDinerBookingCounts,
} from './reservations.repository.ts';
import { HELD_FOR_DROP, holdStartsLimitMessage, NO_LONGER_AVAILABLE, OWED_TO_WAITLIST, toDinerReservation, upcomingLimitMessage } from './reservation-view.ts';

/**
 * A diner holds a table (POST /api/reservations): a HELD reservation whose covers, and on a
 * restaurant with a floor its table (decision 240), are taken at once, atomically, or not at all
 * (decision 002), within the diner's own limits and behind a drop's line and a waitlist owed the
 * freed covers.
 */
export function createHoldTable(deps: AppDeps, availability: AvailabilityService, strikes: StrikesService, floor: FloorService) {
  const { db, clock, config, events } = deps;

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

  /** The refusal when a slot has no covers left for the party, counted for /metrics. */
  function slotFull(): Error {
    deps.metrics?.slotFullRefusals.inc();
    return conflict(NO_LONGER_AVAILABLE);
  }

  /**
   * POST /api/reservations. When the time is gone for this party, the 409 names the nearest times
   * of that date it can still book, as `details.nearestTimes` (decision 240).
   */
  return async function createReservation(principal: Principal, input: CreateReservationBody): Promise<DinerReservation> {
    try {
      return await holdTable(principal, input);
    } catch (error) {
      if (!(error instanceof AppError) || error.message !== NO_LONGER_AVAILABLE) throw error;
      const nearestTimes = await availability.findNearestFreeTimes(input.restaurantSlug, input.date, input.time, input.partySize).catch(() => []);
      throw nearestTimes.length > 0 ? conflict(NO_LONGER_AVAILABLE, { nearestTimes }) : error;
    }
  };

  async function holdTable(principal: Principal, input: CreateReservationBody): Promise<DinerReservation> {
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
        // The table, inside the floor's lock (lock order: diner, slot, floor): the smallest free one
        // bookable online that seats the party for its whole turn, combinations last (decision 240).
        const seating = await floor.seatHold(tx, { restaurantId, startsAt: asDate(slot.starts_at), partySize: input.partySize, onlineOnly: true });
        if (seating === null) throw slotFull();
        const holdExpiresAt = new Date(now.getTime() + config.holdMinutes * 60_000);
        const id = await insertReservation(tx, {
          userId: principal.userId,
          restaurantId,
          slotId: slot.id,
          partySize: input.partySize,
          holdExpiresAt,
          startsAt: asDate(slot.starts_at),
          now,
          request: input.request && !isEmptyRequest(input.request) ? input.request : null,
        });
        if (seating !== 'no-floor') await floor.recordSeating(tx, restaurantId, id, input.partySize, seating);
        await insertReservationEvent(tx, { reservationId: id, from: null, to: 'HELD', actor: 'diner', actorId: principal.userId, now });
        return (await findReservation(tx, id))!;
      })
      .catch((error: unknown) => {
        if (owedSlotId) events.publish('slot.freed', { slotId: owedSlotId, restaurantId });
        throw error;
      });
    announceReservation(deps, row, 'HELD');
    return toDinerReservation(row, clock.now(), config.bookingCutoffMinutes);
  }
}
