import { isPastBookingCutoff } from '#common/domain/time.ts';
import { asDate, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import type { FloorService } from '#server/modules/floor/floor.service.ts';
import {
  countActiveHolds,
  countCoversTaken,
  countUpcomingReservations,
  findReservation,
  hasLiveReservationAt,
  insertReservation,
  insertReservationEvent,
  isOwedToWaitlist,
  isSlotPublic,
  lockSlotForHold,
  lockUser,
  type ReservationRow,
} from './reservations.repository.ts';

/** Why an offer (drop or waitlist) could not become a hold: the caller passes the table on. */
export type OfferRefusal = 'no_account' | 'hold_limit' | 'upcoming_limit' | 'same_time' | 'slot_closed' | 'no_room';

/**
 * Holds the system places for someone, inside the caller's transaction: a drop's or a waitlist's
 * offer to a diner, and a date plan's table for two on the platform account. Each goes through
 * the same protocol as a diner's hold (lock, count the covers in a fresh statement, take a table
 * inside the floor's lock, insert; decision 240); the
 * caller announces the hold once its transaction has committed (announceOfferedHold).
 */
export function createOfferedHolds({ clock, config }: Pick<AppDeps, 'clock' | 'config'>, floor: FloorService) {
  return {
    /**
     * For drops and the waitlist, inside their own transaction (after they locked their drop or
     * entry row): a HELD reservation placed by the system for `userId` on `slotId`, lasting
     * `holdMinutes`, through the same path as createReservation (lock diner, lock slot, count
     * covers in a fresh statement, insert) and the same per-diner limits. A refusal is answered,
     * not thrown, so the caller can pass the table to the next in line. `gate`: 'drop' offers a
     * drop's own slot; 'public' only a slot anyone may book.
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
      const seating = await floor.seatHold(tx, { restaurantId: slot.restaurant_id, startsAt, partySize: offer.partySize, onlineOnly: true });
      if (seating === null) return { refused: 'no_room' };
      const id = await insertReservation(tx, {
        userId: offer.userId,
        restaurantId: slot.restaurant_id,
        slotId: slot.id,
        partySize: offer.partySize,
        holdExpiresAt: new Date(now.getTime() + offer.holdMinutes * 60_000),
        startsAt,
        now,
      });
      if (seating !== 'no-floor') await floor.recordSeating(tx, slot.restaurant_id, id, offer.partySize, seating);
      await insertReservationEvent(tx, { reservationId: id, from: null, to: 'HELD', actor: 'system', actorId: null, reason: offer.reason, now });
      return { held: (await findReservation(tx, id))! };
    },

    /**
     * For date plans (decision 184), inside their transaction: a HELD reservation for `partySize` on
     * `slotId`, placed for the platform account `userId` and lasting until `holdUntil` (the plan's
     * deadline), through the same protocol as every hold: lock the slot, count its covers in a fresh
     * statement, leave covers owed to the waitlist to the line. The per-diner limits do not apply:
     * the account holds every date's table. Answers undefined when the slot cannot take it.
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
      // A date's table for two: the smallest free two-top bookable online (decision 240).
      const seating = await floor.seatHold(tx, { restaurantId: slot.restaurant_id, startsAt, partySize: hold.partySize, onlineOnly: true });
      if (seating === null) return undefined;
      const id = await insertReservation(tx, {
        userId: hold.userId,
        restaurantId: slot.restaurant_id,
        slotId: slot.id,
        partySize: hold.partySize,
        holdExpiresAt: hold.holdUntil,
        startsAt,
        now,
      });
      if (seating !== 'no-floor') await floor.recordSeating(tx, slot.restaurant_id, id, hold.partySize, seating);
      await insertReservationEvent(tx, { reservationId: id, from: null, to: 'HELD', actor: 'system', actorId: null, reason: hold.reason, now });
      return (await findReservation(tx, id))!;
    },
  };
}
