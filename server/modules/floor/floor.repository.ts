import { sql } from 'drizzle-orm';
import type { FloorSection, FloorSettings, FloorTable, Occupancy, Shift, TableCombination, TurnBand } from '#common/domain/floor.ts';
import { asDate, queryRows, toPgArray, type Db } from '#server/db/client.ts';
import { holdsCovers } from '#server/modules/reservations/reservation-sql.ts';

/** The floor's SQL (decision 240): the only place that writes floor_tables, table_combinations, floor_settings and table_assignments. */

interface TableRow {
  id: string;
  name: string;
  section: FloorSection;
  min_covers: number;
  max_covers: number;
  online_bookable: boolean;
}

const toTable = (row: TableRow): FloorTable => ({
  id: row.id,
  name: row.name,
  section: row.section,
  minCovers: row.min_covers,
  maxCovers: row.max_covers,
  onlineBookable: row.online_bookable,
});

/** A restaurant's tables, by section then name. */
export async function listTables(db: Db, restaurantId: string): Promise<FloorTable[]> {
  const rows = await queryRows<TableRow>(
    db,
    sql`SELECT id, name, section, min_covers, max_covers, online_bookable FROM floor_tables
        WHERE restaurant_id = ${restaurantId}
        ORDER BY array_position(ARRAY['indoor','terrace','bar','private'], section), length(name), name`,
  );
  return rows.map(toTable);
}

export async function listCombinations(db: Db, restaurantId: string): Promise<TableCombination[]> {
  const rows = await queryRows<{ id: string; table_ids: string[]; min_covers: number; max_covers: number }>(
    db,
    sql`SELECT id, table_ids, min_covers, max_covers FROM table_combinations WHERE restaurant_id = ${restaurantId} ORDER BY max_covers, created_at, id`,
  );
  return rows.map((row) => ({ id: row.id, tableIds: row.table_ids, minCovers: row.min_covers, maxCovers: row.max_covers }));
}

interface SettingsRow {
  shifts: Shift[][];
  interval_minutes: number;
  turns: TurnBand[];
  pacing_max_covers: number | null;
  pacing_max_parties: number | null;
}

const toSettings = (row: SettingsRow): FloorSettings => ({
  shifts: row.shifts,
  intervalMinutes: row.interval_minutes,
  turns: row.turns,
  pacing: { maxCovers: row.pacing_max_covers, maxParties: row.pacing_max_parties },
});

export async function findSettings(db: Db, restaurantId: string): Promise<FloorSettings | undefined> {
  const [row] = await queryRows<SettingsRow>(
    db,
    sql`SELECT shifts, interval_minutes, turns, pacing_max_covers, pacing_max_parties FROM floor_settings WHERE restaurant_id = ${restaurantId}`,
  );
  return row ? toSettings(row) : undefined;
}

/**
 * The floor's lock (lock order: diner, slot, floor): the restaurant's floor_settings row, FOR
 * UPDATE, with the settings it holds; undefined when the restaurant has no floor.
 */
export async function lockFloor(tx: Db, restaurantId: string): Promise<FloorSettings | undefined> {
  const [row] = await queryRows<SettingsRow>(
    tx,
    sql`SELECT shifts, interval_minutes, turns, pacing_max_covers, pacing_max_parties FROM floor_settings WHERE restaurant_id = ${restaurantId} FOR UPDATE`,
  );
  return row ? toSettings(row) : undefined;
}

export async function upsertSettings(tx: Db, restaurantId: string, settings: FloorSettings, now: Date): Promise<void> {
  await tx.execute(
    sql`INSERT INTO floor_settings (restaurant_id, shifts, interval_minutes, turns, pacing_max_covers, pacing_max_parties, updated_at)
        VALUES (${restaurantId}, ${JSON.stringify(settings.shifts)}::jsonb, ${settings.intervalMinutes}, ${JSON.stringify(settings.turns)}::jsonb,
                ${settings.pacing.maxCovers}, ${settings.pacing.maxParties}, ${now.toISOString()})
        ON CONFLICT (restaurant_id) DO UPDATE SET shifts = excluded.shifts, interval_minutes = excluded.interval_minutes, turns = excluded.turns,
          pacing_max_covers = excluded.pacing_max_covers, pacing_max_parties = excluded.pacing_max_parties, updated_at = excluded.updated_at`,
  );
}

/** Removes the restaurant's tables not in `keepIds`, and every combination (they are written again). */
export async function deleteTablesExcept(tx: Db, restaurantId: string, keepIds: string[]): Promise<void> {
  await tx.execute(sql`DELETE FROM table_combinations WHERE restaurant_id = ${restaurantId}`);
  await tx.execute(sql`DELETE FROM floor_tables WHERE restaurant_id = ${restaurantId} AND NOT (id = ANY (${toPgArray(keepIds)}::uuid[]))`);
}

export async function updateTable(tx: Db, restaurantId: string, table: Omit<FloorTable, 'id'> & { id: string }): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`UPDATE floor_tables SET name = ${table.name}, section = ${table.section}, min_covers = ${table.minCovers}, max_covers = ${table.maxCovers},
          online_bookable = ${table.onlineBookable}
        WHERE id = ${table.id} AND restaurant_id = ${restaurantId} RETURNING id`,
  );
  return rows.length > 0;
}

/** Moves every kept table's name aside, so renames within one save (T1 ↔ T2) cannot collide. */
export async function parkTableNames(tx: Db, restaurantId: string): Promise<void> {
  await tx.execute(sql`UPDATE floor_tables SET name = '~' || id::text WHERE restaurant_id = ${restaurantId}`);
}

export async function insertTable(tx: Db, restaurantId: string, table: Omit<FloorTable, 'id'>): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO floor_tables (restaurant_id, name, section, min_covers, max_covers, online_bookable)
        VALUES (${restaurantId}, ${table.name}, ${table.section}, ${table.minCovers}, ${table.maxCovers}, ${table.onlineBookable})
        RETURNING id`,
  );
  return row.id;
}

export async function insertCombination(tx: Db, restaurantId: string, combination: Omit<TableCombination, 'id'>): Promise<void> {
  await tx.execute(
    sql`INSERT INTO table_combinations (restaurant_id, table_ids, min_covers, max_covers)
        VALUES (${restaurantId}, ${toPgArray(combination.tableIds)}::uuid[], ${combination.minCovers}, ${combination.maxCovers})`,
  );
}

/** An occupancy as read, with when it stops counting by itself: a hold's expiry, else never. */
export interface TimedOccupancy extends Occupancy {
  /** Infinity unless the occupancy belongs to a HELD reservation. */
  expiresAtMs: number;
}

interface OccupancyRow {
  movable_id: string | null;
  table_ids: string[];
  starts_at: Date | string;
  ends_at: Date | string;
  party_size: number;
  hold_expires_at: Date | string | null;
}

/**
 * What takes the restaurant's tables at `now` over [from, to): assignments not released whose
 * reservation still holds covers (reservation-sql.ts holdsCovers), and staff's own rows. A booking
 * not yet seated (held, pending or accepted) that staff did not place is movable (decision 217).
 */
export async function listOccupancies(db: Db, restaurantId: string, from: Date, to: Date, now: Date): Promise<TimedOccupancy[]> {
  const rows = await queryRows<OccupancyRow>(
    db,
    sql`SELECT a.table_ids, a.starts_at, a.ends_at, a.party_size, CASE WHEN r.status = 'HELD' THEN r.hold_expires_at END AS hold_expires_at,
               CASE WHEN a.reservation_id IS NOT NULL AND NOT a.pinned AND a.seated_at IS NULL AND a.finished_at IS NULL
                         AND r.status IN ('HELD', 'PENDING', 'CONFIRMED') THEN a.reservation_id END AS movable_id
        FROM table_assignments a LEFT JOIN reservations r ON r.id = a.reservation_id
        WHERE a.restaurant_id = ${restaurantId} AND a.released_at IS NULL
          AND a.starts_at < ${to.toISOString()} AND a.ends_at > ${from.toISOString()}
          AND (a.reservation_id IS NULL OR ${holdsCovers(now, 'r')})`,
  );
  return rows.map((row) => ({
    tableIds: row.table_ids,
    startMs: asDate(row.starts_at).getTime(),
    endMs: asDate(row.ends_at).getTime(),
    partySize: row.party_size,
    expiresAtMs: row.hold_expires_at ? asDate(row.hold_expires_at).getTime() : Number.POSITIVE_INFINITY,
    ...(row.movable_id ? { movableId: row.movable_id } : {}),
  }));
}

/** A party's place to write: a booking's (or staff's own, without a reservation) tables over [startsAt, endsAt). */
export interface NewAssignment {
  restaurantId: string;
  reservationId: string | null;
  tableIds: string[];
  combinationId: string | null;
  partySize: number;
  startsAt: Date;
  endsAt: Date;
  /** Staff chose these tables: a re-pack never moves them (decision 217). */
  pinned?: boolean;
}

export async function insertAssignment(tx: Db, assignment: NewAssignment): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO table_assignments (restaurant_id, reservation_id, table_ids, combination_id, party_size, starts_at, ends_at, pinned)
        VALUES (${assignment.restaurantId}, ${assignment.reservationId}, ${toPgArray(assignment.tableIds)}::uuid[], ${assignment.combinationId},
                ${assignment.partySize}, ${assignment.startsAt.toISOString()}, ${assignment.endsAt.toISOString()}, ${assignment.pinned ?? false})
        RETURNING id`,
  );
  return row.id;
}

/**
 * A re-pack's move (decision 217): a booking not yet seated and not placed by staff takes other
 * tables for the same turn. False when it no longer qualifies (the caller holds the floor's lock, so
 * it does not happen unless the read was wrong).
 */
export async function repackAssignment(
  tx: Db,
  restaurantId: string,
  reservationId: string,
  tableIds: string[],
  combinationId: string | null,
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`UPDATE table_assignments SET table_ids = ${toPgArray(tableIds)}::uuid[], combination_id = ${combinationId}
        WHERE restaurant_id = ${restaurantId} AND reservation_id = ${reservationId} AND released_at IS NULL
          AND seated_at IS NULL AND finished_at IS NULL AND NOT pinned
        RETURNING id`,
  );
  return rows.length > 0;
}

/** Ends a reservation's current assignment (moved or unassigned); true when it had one. */
export async function releaseAssignment(tx: Db, restaurantId: string, reservationId: string, now: Date): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`UPDATE table_assignments SET released_at = ${now.toISOString()}
        WHERE restaurant_id = ${restaurantId} AND reservation_id = ${reservationId} AND released_at IS NULL RETURNING id`,
  );
  return rows.length > 0;
}

export interface ReservationForFloor {
  id: string;
  restaurant_id: string;
  party_size: number;
  starts_at: Date | string;
  status: string;
  hold_expires_at: Date | string | null;
}

export async function findReservationOfRestaurant(db: Db, restaurantId: string, reservationId: string): Promise<ReservationForFloor | undefined> {
  const [row] = await queryRows<ReservationForFloor>(
    db,
    sql`SELECT id, restaurant_id, party_size, starts_at, status, hold_expires_at FROM reservations WHERE id = ${reservationId} AND restaurant_id = ${restaurantId}`,
  );
  return row;
}

export interface DayAssignmentRow {
  id: string;
  table_ids: string[];
  combination_id: string | null;
  party_size: number;
  starts_at: Date | string;
  ends_at: Date | string;
  reservation_id: string | null;
  status: string | null;
  diner_name: string | null;
}

/** The assignments that start in [from, to) and still count at `now`, with their reservations, by start. */
export function listDayAssignments(db: Db, restaurantId: string, from: Date, to: Date, now: Date): Promise<DayAssignmentRow[]> {
  return queryRows<DayAssignmentRow>(
    db,
    sql`SELECT a.id, a.table_ids, a.combination_id, a.party_size, a.starts_at, a.ends_at, a.reservation_id,
               CASE WHEN r.status = 'HELD' AND r.hold_expires_at <= ${now.toISOString()} THEN 'CANCELLED' ELSE r.status END AS status,
               coalesce(nullif(u.name, ''), u.username) AS diner_name
        FROM table_assignments a
        LEFT JOIN reservations r ON r.id = a.reservation_id
        LEFT JOIN users u ON u.id = r.user_id
        WHERE a.restaurant_id = ${restaurantId} AND a.released_at IS NULL
          AND a.starts_at >= ${from.toISOString()} AND a.starts_at < ${to.toISOString()}
        ORDER BY a.starts_at, a.created_at, a.id`,
  );
}
