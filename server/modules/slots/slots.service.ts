import type { AdminSlot, BulkSlotsInput, BulkSlotsResponse } from '#common/contract/portal.ts';
import { clockTimesBetween, formatDateShort, formatTime12h, isPastBookingCutoff, kolkataInstant, todayInKolkata } from '#common/domain/time.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, conflict, notFound } from '#server/errors.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import {
  findDropIdOfSlot,
  findSlotOfRestaurant,
  findTakenSlotTimes,
  insertDropSlots,
  insertSlots,
  listSlotsOfDate,
  lockExistingTimes,
  moveSlotsIntoDrop,
  type AdminSlotRow,
} from './slots.repository.ts';

import { createSlotEdits, SLOT_NOT_FOUND } from './slot-edits.ts';

export { SLOT_NOT_FOUND };

/**
 * The slots a restaurant offers (decision 091: this module alone writes the slots table). Staff
 * add and close their own; drops add theirs through addDropSlots inside the drop's transaction.
 */
export function createSlotsService(deps: AppDeps) {
  const { db, clock, config, events } = deps;

  function toAdminSlot(row: AdminSlotRow, now: Date): AdminSlot {
    return {
      id: row.id,
      date: row.date,
      time: row.time,
      capacity: row.capacity,
      status: isPastBookingCutoff(row.starts_at, now, config.bookingCutoffMinutes) ? 'cutoff' : row.status,
      staffStatus: row.status,
      coversBooked: row.covers_booked,
    };
  }

  async function readSlot(principal: Principal, slotId: string): Promise<AdminSlot> {
    requireStaff(principal);
    const now = clock.now();
    const row = await findSlotOfRestaurant(db, principal.restaurantId, slotId, now);
    if (!row) throw notFound(SLOT_NOT_FOUND);
    return toAdminSlot(row, now);
  }

  return {
    ...createSlotEdits(deps, readSlot),

    /** GET /api/admin/slots?date: the date's slots with covers booked and display status. */
    async listSlots(principal: Principal, date: string): Promise<AdminSlot[]> {
      requireStaff(principal);
      const now = clock.now();
      return (await listSlotsOfDate(db, principal.restaurantId, date, now)).map((row) => toAdminSlot(row, now));
    },

    /**
     * POST /api/admin/slots/bulk: a time every `interval` minutes from start up to and including end.
     * Times already on that date are skipped (never duplicated or changed); times of today that
     * have already started are not created.
     */
    async addSlots(principal: Principal, input: BulkSlotsInput): Promise<BulkSlotsResponse> {
      requireStaff(principal);
      const now = clock.now();
      if (input.date < todayInKolkata(now)) throw badInput('date must not be in the past');
      const times = clockTimesBetween(input.start, input.end, input.interval);
      const future = times.filter((time) => kolkataInstant(input.date, time) > now);
      const created = await insertSlots(db, principal.restaurantId, {
        date: input.date,
        times: future,
        startsAt: future.map((time) => kolkataInstant(input.date, time).toISOString()),
        capacity: input.capacity,
      });
      if (created.length > 0) {
        // New capacity: waitlists and open dashboards hear of it.
        for (const slotId of created) events.publish('slot.freed', { slotId, restaurantId: principal.restaurantId });
      }
      return { created: created.length, skipped: future.length - created.length, past: times.length - future.length };
    },

    /** Inside the caller's transaction: which of these (date, time) pairs the restaurant already has a slot at. */
    findTakenTimes(tx: Db, restaurantId: string, dates: string[], times: string[]): Promise<{ date: string; time: string }[]> {
      return findTakenSlotTimes(tx, restaurantId, dates, times);
    },

    /** Inside the drop's transaction: the drop's slots, one per (date, time) pair, hidden until its line has had its turn. */
    addDropSlots(
      tx: Db,
      restaurantId: string,
      dropId: string,
      slots: { dates: string[]; times: string[]; startsAt: string[]; capacity: number },
    ): Promise<void> {
      return insertDropSlots(tx, restaurantId, dropId, slots);
    },

    /**
     * Inside the drop's transaction (decision 226): the drop's slots, taking the times the
     * restaurant already offers when nothing is booked on them (they leave normal booking and take
     * the drop's covers) and creating the rest. Refused (409) when any of them is another drop's,
     * or has a live booking or hold, each booked time named; the caller's transaction then undoes
     * the drop.
     */
    async takeDropSlots(
      tx: Db,
      restaurantId: string,
      dropId: string,
      slots: { dates: string[]; times: string[]; startsAt: string[]; capacity: number },
      now: Date,
    ): Promise<{ taken: number; created: number }> {
      const existing = await lockExistingTimes(tx, restaurantId, [...new Set(slots.dates)], [...new Set(slots.times)], now);
      const when = (row: { date: string; time: string }) => `${formatDateShort(row.date)} at ${formatTime12h(row.time)}`;
      const otherDrop = existing.find((row) => row.drop_id !== null);
      if (otherDrop) throw conflict(`${when(otherDrop)} is already in the drop “${otherDrop.drop_title}”: choose other dates or times`);
      const booked = existing.filter((row) => row.bookings > 0);
      if (booked.length > 0) {
        const named = booked.map(
          (row) => `${when(row)} (${row.bookings} ${row.bookings === 1 ? 'booking' : 'bookings'}, ${row.covers} ${row.covers === 1 ? 'guest' : 'guests'})`,
        );
        throw conflict(
          `These times have bookings, so they cannot go into a drop: ${named.join(', ')}. Leave them out, or move or cancel those bookings first.`,
        );
      }
      await moveSlotsIntoDrop(
        tx,
        restaurantId,
        dropId,
        existing.map((row) => row.id),
        slots.capacity,
      );
      const have = new Set(existing.map((row) => `${row.date} ${row.time}`));
      const fresh = slots.dates
        .map((date, i) => ({ date, time: slots.times[i], startsAt: slots.startsAt[i] }))
        .filter((pair) => !have.has(`${pair.date} ${pair.time}`));
      await insertDropSlots(tx, restaurantId, dropId, {
        dates: fresh.map((pair) => pair.date),
        times: fresh.map((pair) => pair.time),
        startsAt: fresh.map((pair) => pair.startsAt),
        capacity: slots.capacity,
      });
      return { taken: existing.length, created: fresh.length };
    },

    /** The drop a slot belongs to, or null (a freed table of a drop goes down its line). */
    findDropIdOfSlot(slotId: string): Promise<string | null> {
      return findDropIdOfSlot(db, slotId);
    },
  };
}

export type SlotsService = ReturnType<typeof createSlotsService>;
