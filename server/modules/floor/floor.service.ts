import type { AdminFloor, FloorDay, FloorSettingsBody, ReassignTableBody, ReplaceFloorTablesBody, TableAssignmentView } from '#common/contract/floor.ts';
import { DEFAULT_FLOOR_SETTINGS, freeTableIds, turnMinutes, type FloorSettings } from '#common/domain/floor.ts';
import { addDays, kolkataInstant, MINUTE_MS, toKolkata } from '#common/domain/time.ts';
import { isHoldingCovers } from '#common/domain/reservation-status.ts';
import { asDate, iso, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import { createFloorSeating, loadFloor, occupanciesAround } from './floor-seating.ts';

export type { HoldSeating } from './floor-seating.ts';
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
} from './floor.repository.ts';

export const RESERVATION_NOT_FOUND = 'Reservation not found';
export const TABLE_TAKEN = 'That table is taken for part of this booking’s turn';

/**
 * The floor (decision 240): staff edit their tables, combinations, shifts, turn times and pacing;
 * holds take a table through seatHold inside the floor's lock; staff move a booking to another table.
 */
export function createFloorService(deps: AppDeps) {
  const { db, clock } = deps;

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
        startsAt: iso(row.starts_at),
        endsAt: iso(row.ends_at),
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
          // Staff's choice: a re-pack for a later hold never moves it (decision 217).
          pinned: true,
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

    ...createFloorSeating(deps),
  };
}

export type FloorService = ReturnType<typeof createFloorService>;
