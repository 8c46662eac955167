import { offerTemplateValues } from '#server/modules/notifications/offer-message.ts';
import { toRestaurantRef } from '#server/modules/restaurants/restaurant-sql.ts';
import type { JoinWaitlistBody, WaitlistEntry, WaitlistResponse, WaitlistState } from '#common/contract/waitlist.ts';
import { WAITLIST_MAX_WAITING } from '#common/contract/waitlist.ts';
import { AVAILABILITY_HORIZON_DAYS } from '#common/domain/restaurants.ts';
import { isLiveHold } from '#common/domain/reservation-status.ts';
import { addDays, formatDateShort, formatTime12h, isPastBookingCutoff, kolkataInstant, todayInKolkata, toKolkata } from '#common/domain/time.ts';
import { asDate, iso, isoOrNull, type Db } from '#server/db/client.ts';
import { createCoalescingRunner } from '#server/coalescing-runner.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, conflict, isUniqueViolation, notFound } from '#server/errors.ts';
import { requireDiner, type Principal } from '#server/modules/accounts/principal.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import type { StrikesService } from '#server/modules/strikes/strikes.service.ts';
import {
  countWaitingOfUser,
  findEntry,
  findFreeSlotInWindow,
  findSlotState,
  insertEntry,
  listEntriesOfUser,
  listSlotsWithWaitingMatches,
  lockEntry,
  lockLongestWaitingMatch,
  markEntryOffered,
  setEntryRemoved,
  type WaitlistRow,
  removeWaitingEntriesOf,
} from './waitlist.repository.ts';

export const WAITLIST_ENTRY_NOT_FOUND = 'Waitlist entry not found';
const LIST_LIMIT = 100;
/** A guard against a runaway offer loop on one slot. */
const MAX_OFFERS_PER_SLOT = 500;

/**
 * The waitlist (decision 085): when covers free up on a slot, the longest-waiting matching entry
 * gets an exclusive HELD reservation for WAITLIST_OFFER_MINUTES and a notification; if it is not
 * taken, the freed covers go to the next. No broadcast, so no race to tap first.
 */
export function createWaitlistService(
  deps: AppDeps,
  restaurants: RestaurantsService,
  reservations: ReservationsService,
  notifications: NotificationsService,
  strikes: StrikesService,
) {
  const { db, clock, config, log } = deps;

  function stateOf(row: WaitlistRow, now: Date): WaitlistState {
    if (row.status === 'removed') return 'removed';
    if (row.status === 'offered') {
      const status = row.reservation_status;
      if (!status) return 'lapsed';
      if (status === 'HELD') return isLiveHold(status, row.hold_expires_at, now) ? 'offered' : 'lapsed';
      if (status === 'CANCELLED') return row.cancel_reason === 'DINER_CANCELLED' ? 'declined' : 'lapsed';
      return 'booked';
    }
    return isPastBookingCutoff(kolkataInstant(row.wait_date, row.window_end), now, config.bookingCutoffMinutes) ? 'ended' : 'waiting';
  }

  function toEntry(row: WaitlistRow, now: Date): WaitlistEntry {
    const state = stateOf(row, now);
    return {
      id: row.id,
      restaurant: toRestaurantRef(row),
      date: row.wait_date,
      partySize: row.party_size,
      windowStart: row.window_start,
      windowEnd: row.window_end,
      joinedAt: iso(row.created_at),
      state,
      placeInLine: state === 'waiting' ? row.waiting_ahead + 1 : null,
      offer:
        row.reservation_id && row.slot_date && row.slot_time
          ? {
              reservationId: row.reservation_id,
              holdExpiresAt: state === 'offered' ? isoOrNull(row.hold_expires_at) : null,
              slot: { date: row.slot_date, time: row.slot_time },
              partySize: row.offered_party_size ?? row.party_size,
            }
          : null,
    };
  }

  /**
   * Offers the slot's free covers down the matching waitlist, one exclusive hold per transaction,
   * until nothing fits. Idempotent, and safe to run from events and the sweep at once.
   */
  async function offerFreedCovers(slotId: string): Promise<number> {
    const skip: string[] = [];
    let offers = 0;
    for (let step = 0; step < MAX_OFFERS_PER_SLOT; step++) {
      const result = await db.transaction(async (tx) => {
        const now = clock.now();
        const slot = await findSlotState(tx, slotId, now, config.bookingCutoffMinutes);
        if (!slot || !slot.is_open || slot.free <= 0) return { kind: 'done' as const };
        // Lock order: waitlist entry, then diner, then slot (createHoldForOffer takes the last two).
        const entry = await lockLongestWaitingMatch(tx, { restaurantId: slot.restaurant_id, date: slot.date, time: slot.time }, slot.free, skip);
        if (!entry) return { kind: 'done' as const };
        // Struck out since joining (decision 202): passed over, keeping their place for when the block lifts.
        if (await strikes.isBlocked(tx, entry.user_id)) return { kind: 'skipped' as const, entryId: entry.id };
        const outcome = await reservations.createHoldForOffer(tx, {
          userId: entry.user_id,
          slotId,
          partySize: entry.party_size,
          holdMinutes: config.waitlistOfferMinutes,
          reason: 'WAITLIST_OFFER',
          gate: 'public',
        });
        if ('refused' in outcome) {
          if (outcome.refused === 'no_room' || outcome.refused === 'slot_closed') return { kind: 'done' as const };
          // The diner's own limits (holds, upcoming, same time): the next in line gets this table; they keep their place.
          return { kind: 'skipped' as const, entryId: entry.id };
        }
        const held = outcome.held;
        await markEntryOffered(tx, entry.id, held.id, now);
        const until = toKolkata(asDate(held.hold_expires_at!));
        const messageId = await notifications.queueOffer(tx, entry.user_id, {
          subject: `A table at ${held.restaurant_name} is yours for ${config.waitlistOfferMinutes} minutes`,
          body:
            `Good news from the waitlist: a table for ${held.party_size} at ${held.restaurant_name} on ${formatDateShort(held.slot_date)} at ` +
            `${formatTime12h(held.slot_time)} is held in your name until ${formatTime12h(until.time)}.\n\n` +
            `Complete your booking on Tablefair before then (Waitlist, or /hold/${held.id}); otherwise it goes to the next person waiting.`,
          // The registered offer template's slots (decision 213): restaurant, guests, date, time, held until, the hold's link.
          values: offerTemplateValues(held, until.time, `${config.publicUrl}/hold/${held.id}`),
          idempotencyKey: `offer:${held.id}`,
          link: `/hold/${held.id}`,
        });
        return { kind: 'offered' as const, held, entryId: entry.id, userId: entry.user_id, messageId };
      });
      if (result.kind === 'done') break;
      if (result.kind === 'skipped') {
        skip.push(result.entryId);
        continue;
      }
      offers++;
      const { held } = result;
      reservations.announceOfferedHold(held);
      notifications.publishOffer(result.userId, held, { waitlistEntryId: result.entryId });
      notifications.deliverSoon([result.messageId]);
    }
    return offers;
  }

  /** One offer run per slot at a time in this process; a request arriving meanwhile runs once more after it. */
  const scheduleOffers = createCoalescingRunner(offerFreedCovers, (error, slotId) =>
    log.warn({ err: error, slotId }, 'waitlist offer failed; the sweep retries'),
  );

  return {
    offerFreedCovers,

    /** A deleted diner leaves every line, in the deletion's transaction: no table is offered to an account that is gone (decision 266). */
    async leaveAllLines(tx: Db, userId: string, now: Date): Promise<void> {
      await removeWaitingEntriesOf(tx, userId, now);
    },

    /**
     * Listener of freed covers (wired in server/composition.ts): a cancellation, an expired hold (an
     * unanswered offer too), or staff adding slots; the slot's line is offered them.
     */
    onSlotFreed({ slotId }: { slotId: string }): void {
      void scheduleOffers(slotId);
    },

    /** For the timer (and after a restart): every slot some waiting entry could take now. */
    async runDueWork(): Promise<number> {
      const now = clock.now();
      const slotIds = await listSlotsWithWaitingMatches(db, now, todayInKolkata(now), config.bookingCutoffMinutes);
      for (const slotId of slotIds) await scheduleOffers(slotId);
      return slotIds.length;
    },

    /** POST /api/waitlist: wait for a table for `partySize` at a restaurant on a date, between two times. */
    async joinWaitlist(principal: Principal, input: JoinWaitlistBody): Promise<WaitlistEntry> {
      requireDiner(principal);
      const { userId } = principal;
      const restaurant = await restaurants.getRestaurant(principal, input.restaurantSlug);
      const now = clock.now();
      const today = todayInKolkata(now);
      if (input.date < today) throw badInput('date must not be in the past');
      if (input.date > addDays(today, AVAILABILITY_HORIZON_DAYS - 1)) throw badInput(`date must be within the next ${AVAILABILITY_HORIZON_DAYS} days`);
      if (input.windowEnd < input.windowStart) throw badInput('windowEnd must be at or after windowStart');
      if (isPastBookingCutoff(kolkataInstant(input.date, input.windowEnd), now, config.bookingCutoffMinutes)) {
        throw badInput('windowEnd: that time can no longer be booked today');
      }
      // Three no-shows pause new bookings (decision 122), and a place in line is the way to one (decision 202).
      await strikes.assertMayBook(db, userId);
      if ((await countWaitingOfUser(db, userId, today)) >= WAITLIST_MAX_WAITING) {
        throw conflict(`You are already waiting for ${WAITLIST_MAX_WAITING} tables. Leave one waitlist before joining another.`);
      }
      const free = await findFreeSlotInWindow(db, {
        restaurantId: restaurant.id,
        date: input.date,
        windowStart: input.windowStart,
        windowEnd: input.windowEnd,
        partySize: input.partySize,
        now,
        cutoffMinutes: config.bookingCutoffMinutes,
      });
      if (free) throw conflict(`A table for ${input.partySize} is free at ${formatTime12h(free.time)} on that date. Book it instead of waiting.`);
      const id = await insertEntry(db, {
        userId,
        restaurantId: restaurant.id,
        date: input.date,
        partySize: input.partySize,
        windowStart: input.windowStart,
        windowEnd: input.windowEnd,
        now,
      }).catch((error: unknown) => {
        if (isUniqueViolation(error, 'waitlist_one_waiting_key')) throw conflict('You are already on the waitlist for that restaurant on that date');
        throw error;
      });
      return toEntry((await findEntry(db, id))!, clock.now());
    },

    /** GET /api/waitlist: the diner's entries, newest first, and the live offers among them. */
    async listMyWaitlist(principal: Principal): Promise<WaitlistResponse> {
      requireDiner(principal);
      const now = clock.now();
      const entries = (await listEntriesOfUser(db, principal.userId, LIST_LIMIT)).map((row) => toEntry(row, now));
      return { entries, offers: entries.filter((entry) => entry.state === 'offered'), serverTime: now.toISOString() };
    },

    /** DELETE /api/waitlist/{id}: leave the waitlist; a live offer is let go, so the next in line gets it. */
    async leaveWaitlist(principal: Principal, id: string): Promise<WaitlistEntry> {
      requireDiner(principal);
      const offered = await db.transaction(async (tx) => {
        const entry = await lockEntry(tx, id);
        // Another diner's entry is not found, the same as one that does not exist.
        if (!entry || entry.user_id !== principal.userId) throw notFound(WAITLIST_ENTRY_NOT_FOUND);
        if (entry.status === 'removed') throw conflict('You have already left this waitlist');
        await setEntryRemoved(tx, id, clock.now());
        return entry.status === 'offered' ? entry.reservation_id : null;
      });
      if (offered) {
        const row = await findEntry(db, id);
        if (row && isLiveHold(row.reservation_status, row.hold_expires_at, clock.now())) {
          await reservations.cancelReservation(principal, offered);
        }
      }
      return toEntry((await findEntry(db, id))!, clock.now());
    },
  };
}

export type WaitlistService = ReturnType<typeof createWaitlistService>;
