import type { AdminFloor, FloorDay, FloorSettingsBody, ReassignTableBody, ReplaceFloorTablesBody, TableAssignmentView } from '#common/contract/floor.ts';
import {
  DEFAULT_FLOOR_SETTINGS,
  chooseSeating,
  freeTableIds,
  isPacingAllowed,
  seatingAt,
  turnMinutes,
  type Floor,
  type FloorSettings,
  type Seating,
} from '#common/domain/floor.ts';
import { addDays, kolkataInstant, toKolkata } from '#common/domain/time.ts';
import { isHoldingCovers } from '#common/domain/reservation-status.ts';
import { asDate, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import {
  deleteTablesExcept,
  findReservationOfRestaurant,
  findSettings,
  insertAssignment,
  insertCombination,
  insertTable,
  listCombinations,
  listDayAssignments,
  listOccupancies,
  listTables,
  lockFloor,
  parkTableNames,
  releaseAssignment,
  updateTable,
  upsertSettings,
  type TimedOccupancy,
} from './floor.repository.ts';

const MINUTE_MS = 60_000;
/** The longest turn any band may set (contract TURN_MINUTES_MAX): how far back an occupancy can reach into a time. */
const LONGEST_TURN_MS = 360 * MINUTE_MS;

export const RESERVATION_NOT_FOUND = 'Reservation not found';
export const TABLE_TAKEN = 'That table is taken for part of this booking’s turn';

/** Where a hold sits: the tables it takes until `endsAt`. */
export interface HoldSeating extends Seating {
  startsAt: Date;
  endsAt: Date;
}

/**
 * The floor (decision 240): staff edit their tables, combinations, shifts, turn times and pacing;
 * holds take a table through seatHold inside the floor's lock; staff move a booking to another table.
 */
export function createFloorService(deps: AppDeps) {
  const { db, clock } = deps;

  /** The restaurant's floor, or null when it has no tables (then covers alone decide, decision 240). */
  async function loadFloor(database: Db, restaurantId: string, settings?: FloorSettings): Promise<Floor | null> {
    const tables = await listTables(database, restaurantId);
    if (tables.length === 0) return null;
    const combinations = await listCombinations(database, restaurantId);
    return { tables, combinations, settings: settings ?? (await findSettings(database, restaurantId)) ?? DEFAULT_FLOOR_SETTINGS };
  }

  /** What takes tables during [startMs, endMs), and what starts in its pacing window, as of `now`. */
  function occupanciesAround(database: Db, restaurantId: string, startMs: number, endMs: number, now: Date): Promise<TimedOccupancy[]> {
    return listOccupancies(database, restaurantId, new Date(Math.min(startMs, startMs - (startMs % (15 * MINUTE_MS)))), new Date(endMs + LONGEST_TURN_MS), now);
  }

  async function readAdminFloor(restaurantId: string): Promise<AdminFloor> {
    const tables = await listTables(db, restaurantId);
    const combinations = await listCombinations(db, restaurantId);
    const names = new Map(tables.map((table) => [table.id, table.name]));
    return {
      tables,
      combinations: combinations.map((combination) => ({ ...combination, tableNames: combination.tableIds.map((id) => names.get(id) ?? '?') })),
      settings: (await findSettings(db, restaurantId)) ?? DEFAULT_FLOOR_SETTINGS,
      hasFloor: tables.length > 0,
    };
  }

  /** Future bookings still counting on a table that is about to go: the save is refused rather than lose their place. */
  async function assertNoBookingsOn(tx: Db, restaurantId: string, removed: Set<string>, now: Date): Promise<void> {
    if (removed.size === 0) return;
    const upcoming = await listOccupancies(tx, restaurantId, now, new Date(now.getTime() + 400 * 86_400_000), now);
    if (upcoming.some((occupancy) => occupancy.tableIds.some((id) => removed.has(id)))) {
      throw conflict('A table you removed has bookings to come. Move them to another table first.');
    }
  }

  async function toAssignmentView(restaurantId: string, reservationId: string, now: Date): Promise<TableAssignmentView> {
    const reservation = await findReservationOfRestaurant(db, restaurantId, reservationId);
    const startsAt = asDate(reservation!.starts_at);
    const day = await readDay(restaurantId, toKolkata(startsAt).date, now);
    return day.assignments.find((assignment) => assignment.reservation?.id === reservationId)!;
  }

  async function readDay(restaurantId: string, date: string, now: Date): Promise<FloorDay> {
    const from = kolkataInstant(date, '00:00');
    const to = kolkataInstant(addDays(date, 1), '00:00');
    const names = new Map((await listTables(db, restaurantId)).map((table) => [table.id, table.name]));
    const rows = await listDayAssignments(db, restaurantId, from, to, now);
    return {
      date,
      assignments: rows.map((row) => ({
        id: row.id,
        tableIds: row.table_ids,
        tableNames: row.table_ids.map((id) => names.get(id) ?? '?'),
        combinationId: row.combination_id,
        partySize: row.party_size,
        startsAt: asDate(row.starts_at).toISOString(),
        endsAt: asDate(row.ends_at).toISOString(),
        time: toKolkata(asDate(row.starts_at)).time,
        reservation: row.reservation_id ? { id: row.reservation_id, status: row.status as never, dinerName: row.diner_name ?? '' } : null,
      })),
    };
  }

  return {
    loadFloor,

    /** GET /api/admin/floor: the staff's own floor. */
    async getFloor(principal: Principal): Promise<AdminFloor> {
      requireStaff(principal);
      return readAdminFloor(principal.restaurantId);
    },

    /**
     * PUT /api/admin/floor/tables: the tables and combinations, replaced as a whole under the floor's
     * lock. A table kept by id keeps its bookings; removing one that has bookings to come is refused.
     */
    async replaceTables(principal: Principal, input: ReplaceFloorTablesBody): Promise<AdminFloor> {
      requireStaff(principal);
      const { restaurantId } = principal;
      await db.transaction(async (tx) => {
        const now = clock.now();
        if (!(await lockFloor(tx, restaurantId))) {
          await upsertSettings(tx, restaurantId, DEFAULT_FLOOR_SETTINGS, now);
          await lockFloor(tx, restaurantId);
        }
        const existing = new Set((await listTables(tx, restaurantId)).map((table) => table.id));
        const kept = input.tables.flatMap((table) => (table.id ? [table.id] : []));
        const unknown = kept.find((id) => !existing.has(id));
        if (unknown) throw notFound('Table not found');
        await assertNoBookingsOn(tx, restaurantId, new Set([...existing].filter((id) => !kept.includes(id))), now);
        await deleteTablesExcept(tx, restaurantId, kept);
        await parkTableNames(tx, restaurantId);
        const idByName = new Map<string, string>();
        for (const table of input.tables) {
          const values = {
            name: table.name,
            section: table.section,
            minCovers: table.minCovers,
            maxCovers: table.maxCovers,
            onlineBookable: table.onlineBookable,
          };
          const id = table.id ?? (await insertTable(tx, restaurantId, values));
          if (table.id) await updateTable(tx, restaurantId, { id, ...values });
          idByName.set(table.name.trim().toLowerCase(), id);
        }
        for (const combination of input.combinations) {
          const tableIds = combination.tableNames.map((name) => idByName.get(name.trim().toLowerCase())!);
          await insertCombination(tx, restaurantId, { tableIds, minCovers: combination.minCovers, maxCovers: combination.maxCovers });
        }
      });
      return readAdminFloor(restaurantId);
    },

    /** PUT /api/admin/floor/settings: shifts, booking interval, turn times and pacing. Bookings made keep their turns. */
    async updateSettings(principal: Principal, input: FloorSettingsBody): Promise<AdminFloor> {
      requireStaff(principal);
      const settings: FloorSettings = { ...input, turns: [...input.turns].sort((a, b) => a.fromPartySize - b.fromPartySize) };
      await db.transaction(async (tx) => {
        await lockFloor(tx, principal.restaurantId);
        await upsertSettings(tx, principal.restaurantId, settings, clock.now());
      });
      return readAdminFloor(principal.restaurantId);
    },

    /** GET /api/admin/floor/day?date: the day's table assignments that still count, with their reservations. */
    async getDay(principal: Principal, date: string): Promise<FloorDay> {
      requireStaff(principal);
      return readDay(principal.restaurantId, date, clock.now());
    },

    /**
     * PUT /api/admin/floor/assignments/{reservationId}: staff seat a live booking at other tables
     * (any of their tables, online or not), free for the booking's whole turn; pacing is not asked
     * again (the party is already booked at that time).
     */
    async reassignTable(principal: Principal, reservationId: string, input: ReassignTableBody): Promise<TableAssignmentView> {
      requireStaff(principal);
      const { restaurantId } = principal;
      const now = clock.now();
      await db.transaction(async (tx) => {
        const settings = await lockFloor(tx, restaurantId);
        const floor = settings ? await loadFloor(tx, restaurantId, settings) : null;
        const reservation = await findReservationOfRestaurant(tx, restaurantId, reservationId);
        if (!reservation) throw notFound(RESERVATION_NOT_FOUND);
        if (!floor) throw conflict('Add your tables on the Floor tab first');
        const status = reservation.status as Parameters<typeof isHoldingCovers>[0];
        if (!isHoldingCovers(status, reservation.hold_expires_at ? asDate(reservation.hold_expires_at) : null, now)) {
          throw conflict(`This booking is ${status === 'HELD' ? 'CANCELLED' : status} and holds no table`);
        }
        const tableIds = [...new Set(input.tableIds)];
        if (!tableIds.every((id) => floor.tables.some((table) => table.id === id))) throw notFound('Table not found');
        await releaseAssignment(tx, restaurantId, reservationId, now);
        const startsAt = asDate(reservation.starts_at);
        const endsAt = new Date(startsAt.getTime() + turnMinutes(reservation.party_size, floor.settings.turns) * MINUTE_MS);
        const others = await occupanciesAround(tx, restaurantId, startsAt.getTime(), endsAt.getTime(), now);
        const free = freeTableIds(floor.tables, others, startsAt.getTime(), endsAt.getTime());
        if (!tableIds.every((id) => free.has(id))) throw conflict(TABLE_TAKEN);
        const combination = floor.combinations.find(
          (entry) => entry.tableIds.length === tableIds.length && entry.tableIds.every((id) => tableIds.includes(id)),
        );
        await insertAssignment(tx, {
          restaurantId,
          reservationId,
          tableIds,
          combinationId: combination?.id ?? null,
          partySize: reservation.party_size,
          startsAt,
          endsAt,
        });
      });
      return toAssignmentView(restaurantId, reservationId, now);
    },

    /** DELETE /api/admin/floor/assignments/{reservationId}: the booking keeps its time but no table (its covers still count). */
    async unassignTable(principal: Principal, reservationId: string): Promise<void> {
      requireStaff(principal);
      const released = await db.transaction(async (tx) => {
        await lockFloor(tx, principal.restaurantId);
        return releaseAssignment(tx, principal.restaurantId, reservationId, clock.now());
      });
      if (!released) throw notFound('That booking has no table');
    },

    /**
     * For every hold, inside its transaction after the diner's and the slot's locks (lock order:
     * diner, slot, floor): locks the restaurant's floor and finds where a party of `partySize`
     * starting at `startsAt` sits, by chooseSeating, free for its whole turn and within pacing.
     * 'no-floor' when the restaurant has no tables (covers alone decide); null when nothing seats it.
     */
    async seatHold(tx: Db, hold: { restaurantId: string; startsAt: Date; partySize: number; onlineOnly: boolean }): Promise<HoldSeating | null | 'no-floor'> {
      const settings = await lockFloor(tx, hold.restaurantId);
      const floor = settings ? await loadFloor(tx, hold.restaurantId, settings) : null;
      if (!floor) return 'no-floor';
      const startMs = hold.startsAt.getTime();
      const endMs = startMs + turnMinutes(hold.partySize, floor.settings.turns) * MINUTE_MS;
      const occupancies = await occupanciesAround(tx, hold.restaurantId, startMs, endMs, clock.now());
      const seating = seatingAt(floor, occupancies, startMs, hold.partySize, { onlineOnly: hold.onlineOnly });
      return seating ? { ...seating, startsAt: hold.startsAt, endsAt: new Date(endMs) } : null;
    },

    /** Writes the table(s) seatHold chose for the reservation just inserted, in the same transaction. */
    async recordSeating(tx: Db, restaurantId: string, reservationId: string, partySize: number, seating: HoldSeating): Promise<void> {
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
      const occupancies = await listOccupancies(db, restaurantId, kolkataInstant(addDays(fromDate, -1), '00:00'), kolkataInstant(addDays(toDate, 2), '00:00'), now);
      const occupanciesByDate = new Map<string, TimedOccupancy[]>();
      for (const occupancy of occupancies) {
        const date = toKolkata(new Date(occupancy.startMs)).date;
        const ofDate = occupanciesByDate.get(date);
        if (ofDate) ofDate.push(occupancy);
        else occupanciesByDate.set(date, [occupancy]);
      }
      return { floor, occupanciesByDate };
    },

    /** Where a party would be seated now, without taking anything (for tests and the host view). */
    async previewSeating(restaurantId: string, startsAt: Date, partySize: number, onlineOnly: boolean): Promise<Seating | null> {
      const floor = await loadFloor(db, restaurantId);
      if (!floor) return null;
      const startMs = startsAt.getTime();
      const endMs = startMs + turnMinutes(partySize, floor.settings.turns) * MINUTE_MS;
      const occupancies = await occupanciesAround(db, restaurantId, startMs, endMs, clock.now());
      return chooseSeating(floor.tables, floor.combinations, freeTableIds(floor.tables, occupancies, startMs, endMs), partySize, { onlineOnly });
    },
  };
}

export type FloorService = ReturnType<typeof createFloorService>;
