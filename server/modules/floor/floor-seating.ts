import { DEFAULT_FLOOR_SETTINGS, freeTableIds, isPacingAllowed, turnMinutes, type Floor, type FloorSettings, type Seating } from '#common/domain/floor.ts';
import { placeParty, type Placement, type SeatingMove } from '#common/domain/floor-repack.ts';
import { addDays, kolkataInstant, MINUTE_MS, toKolkata } from '#common/domain/time.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import {
  findSettings,
  insertAssignment,
  listCombinations,
  listOccupancies,
  listTables,
  lockFloor,
  releaseAssignment,
  repackAssignment,
  type TimedOccupancy,
} from './floor.repository.ts';

/** The longest turn any band may set (contract TURN_MINUTES_MAX): how far back an occupancy can reach into a time. */
const LONGEST_TURN_MS = 360 * MINUTE_MS;

/** Where a hold sits: the tables it takes until `endsAt`, and the bookings not yet seated that move so it can (decision 217). */
export interface HoldSeating extends Seating {
  startsAt: Date;
  endsAt: Date;
  moves: SeatingMove[];
}

/** The restaurant's floor, or null when it has no tables (then covers alone decide, decision 240). */
export async function loadFloor(database: Db, restaurantId: string, settings?: FloorSettings): Promise<Floor | null> {
  const tables = await listTables(database, restaurantId);
  if (tables.length === 0) return null;
  const combinations = await listCombinations(database, restaurantId);
  return { tables, combinations, settings: settings ?? (await findSettings(database, restaurantId)) ?? DEFAULT_FLOOR_SETTINGS };
}

/** How far back a party's choice of table looks for the turn before it (idleMinutesAround's cap). */
const IDLE_LOOK_BACK_MS = 180 * MINUTE_MS;

/**
 * What takes tables during [startMs, endMs), what starts in its pacing window, and the turns just
 * before and after it (so the choice of table sees how tightly the turn fits), as of `now`; and what
 * takes tables around the turns a re-pack may move (decision 217: a booking whose turn overlaps this
 * one, or one whose turn overlaps that booking's; a turn is at most LONGEST_TURN_MS), so the hold
 * sees what availability sees.
 */
export function occupanciesAround(database: Db, restaurantId: string, startMs: number, endMs: number, now: Date): Promise<TimedOccupancy[]> {
  return listOccupancies(database, restaurantId, new Date(startMs - 2 * LONGEST_TURN_MS - IDLE_LOOK_BACK_MS), new Date(endMs + 2 * LONGEST_TURN_MS), now);
}

/**
 * The floor's seating (decision 240): where a hold sits, inside the floor's lock, and the reads
 * availability and the host view need. Put together by the floor service.
 */
export function createFloorSeating({ db, clock }: Pick<AppDeps, 'db' | 'clock'>) {
  return {
    /**
     * For every hold, inside its transaction after the diner's and the slot's locks (lock order:
     * diner, slot, floor): locks the restaurant's floor and finds where a party of `partySize`
     * starting at `startsAt` sits, by placeParty (the rule availability asks too): a free table for its
     * whole turn within pacing, or, when none is, one that bookings not yet seated make room at by
     * moving to other free tables (written by recordSeating with the hold, decision 217).
     * 'no-floor' when the restaurant has no tables (covers alone decide); null when nothing seats it.
     */
    async seatHold(tx: Db, hold: { restaurantId: string; startsAt: Date; partySize: number; onlineOnly: boolean }): Promise<HoldSeating | null | 'no-floor'> {
      const settings = await lockFloor(tx, hold.restaurantId);
      const floor = settings ? await loadFloor(tx, hold.restaurantId, settings) : null;
      if (!floor) return 'no-floor';
      const startMs = hold.startsAt.getTime();
      const endMs = startMs + turnMinutes(hold.partySize, floor.settings.turns) * MINUTE_MS;
      const occupancies = await occupanciesAround(tx, hold.restaurantId, startMs, endMs, clock.now());
      const placement = placeParty(floor, occupancies, startMs, hold.partySize, { onlineOnly: hold.onlineOnly });
      return placement ? { ...placement, startsAt: hold.startsAt, endsAt: new Date(endMs) } : null;
    },

    /**
     * Writes what seatHold chose, in the same transaction under the floor's lock: the moved bookings
     * at their new tables (same turn; staff screens read these rows and reload on the hold's own
     * announcement), then the table(s) of the reservation just inserted.
     */
    async recordSeating(tx: Db, restaurantId: string, reservationId: string, partySize: number, seating: HoldSeating): Promise<void> {
      for (const move of seating.moves) {
        // A booking being changed (decision 280) counts on its old table until the change is written,
        // so the re-pack may have moved it aside: that old place is released by the caller instead.
        if (move.id === reservationId) continue;
        if (!(await repackAssignment(tx, restaurantId, move.id, move.tableIds, move.combinationId))) {
          throw new Error('A booking to re-pack was seated or placed by staff under the floor lock');
        }
      }
      await insertAssignment(tx, {
        restaurantId,
        reservationId,
        tableIds: seating.tableIds,
        combinationId: seating.combinationId,
        partySize,
        startsAt: seating.startsAt,
        endsAt: seating.endsAt,
      });
    },

    /**
     * Lets a booking's table go inside the caller's transaction, after seatHold has taken its new one
     * under the floor's lock (a booking's change, decision 280: the new table before the old).
     */
    async releaseSeating(tx: Db, restaurantId: string, reservationId: string, now: Date): Promise<boolean> {
      return releaseAssignment(tx, restaurantId, reservationId, now);
    },

    /**
     * Whether `tableIds` are all free for [startsAt, startsAt + turn) as of now (a party of
     * `partySize` gives the turn), and the pacing window would take it. For the host view.
     */
    async isTableFree(database: Db, restaurantId: string, tableIds: string[], startsAt: Date, partySize: number): Promise<boolean> {
      const floor = await loadFloor(database, restaurantId);
      if (!floor) return false;
      const startMs = startsAt.getTime();
      const endMs = startMs + turnMinutes(partySize, floor.settings.turns) * MINUTE_MS;
      const occupancies = await occupanciesAround(database, restaurantId, startMs, endMs, clock.now());
      const free = freeTableIds(floor.tables, occupancies, startMs, endMs);
      return tableIds.every((id) => free.has(id)) && isPacingAllowed(floor.settings.pacing, occupancies, startMs, partySize);
    },

    /**
     * For availability (public, no principal): the floor and what takes its tables for starts on
     * Kolkata dates [fromDate - 1, toDate], by the date each starts on, or null without a floor.
     */
    async readFloorForAvailability(
      restaurantId: string,
      fromDate: string,
      toDate: string,
      now: Date,
    ): Promise<{ floor: Floor; occupanciesByDate: Map<string, TimedOccupancy[]> } | null> {
      const floor = await loadFloor(db, restaurantId);
      if (!floor) return null;
      const occupancies = await listOccupancies(
        db,
        restaurantId,
        kolkataInstant(addDays(fromDate, -1), '00:00'),
        kolkataInstant(addDays(toDate, 2), '00:00'),
        now,
      );
      const occupanciesByDate = new Map<string, TimedOccupancy[]>();
      // Kept for the restaurant's 30 days (decision 241): the bookings on the same tables share one
      // list of their ids instead of each keeping its own copy of the strings the driver made.
      const sameTables = new Map<string, readonly string[]>();
      for (const occupancy of occupancies) {
        const key = occupancy.tableIds.join();
        const shared = sameTables.get(key);
        if (shared) occupancy.tableIds = shared;
        else sameTables.set(key, occupancy.tableIds);
        const date = toKolkata(new Date(occupancy.startMs)).date;
        const ofDate = occupanciesByDate.get(date);
        if (ofDate) ofDate.push(occupancy);
        else occupanciesByDate.set(date, [occupancy]);
      }
      return { floor, occupanciesByDate };
    },

    /** Where a party would be seated now, and who would move for it (placeParty, as a hold), without taking anything. */
    async previewSeating(restaurantId: string, startsAt: Date, partySize: number, onlineOnly: boolean): Promise<Placement | null> {
      const floor = await loadFloor(db, restaurantId);
      if (!floor) return null;
      const startMs = startsAt.getTime();
      const endMs = startMs + turnMinutes(partySize, floor.settings.turns) * MINUTE_MS;
      const occupancies = await occupanciesAround(db, restaurantId, startMs, endMs, clock.now());
      return placeParty(floor, occupancies, startMs, partySize, { onlineOnly });
    },
  };
}
