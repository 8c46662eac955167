import { sql } from 'drizzle-orm';
import type { ReservationStatus } from '#common/domain/reservation-status.ts';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';
import { effectiveStatusSql, holdsCovers } from '#server/modules/reservations/reservation-sql.ts';
import type { NewAssignment } from './floor.repository.ts';

/** The floor, live (decision 245): the SQL of seating, moving and finishing parties on table_assignments (migration 0026). */

export interface PartyRow {
  id: string;
  reservation_id: string | null;
  status: ReservationStatus | null;
  name: string | null;
  is_walk_in: boolean;
  party_size: number;
  table_ids: string[];
  combination_id: string | null;
  starts_at: Date | string;
  ends_at: Date | string;
  seated_at: Date | string | null;
  finished_at: Date | string | null;
}

const partyColumns = (now: Date) => sql`a.id, a.reservation_id, ${effectiveStatusSql(now, 'r')} AS status,
  coalesce(a.guest_name, nullif(u.name, ''), u.username) AS name, a.is_walk_in, a.party_size, a.table_ids, a.combination_id,
  a.starts_at, a.ends_at, a.seated_at, a.finished_at`;

/**
 * The parties of [from, to) that a host still sees: assignments not moved away, walk-ins, and
 * bookings except cancelled ones (a lapsed hold reads as cancelled), by start.
 */
export function listDayParties(db: Db, restaurantId: string, from: Date, to: Date, now: Date): Promise<PartyRow[]> {
  return queryRows<PartyRow>(
    db,
    sql`SELECT ${partyColumns(now)}
        FROM table_assignments a
        LEFT JOIN reservations r ON r.id = a.reservation_id
        LEFT JOIN users u ON u.id = r.user_id
        WHERE a.restaurant_id = ${restaurantId} AND a.released_at IS NULL
          AND (a.reservation_id IS NOT NULL OR a.is_walk_in)
          AND a.starts_at < ${to.toISOString()} AND a.ends_at > ${from.toISOString()}
          AND (a.reservation_id IS NULL OR ${effectiveStatusSql(now, 'r')} <> 'CANCELLED')
        ORDER BY a.starts_at, a.id`,
  );
}

/** One current assignment of the restaurant, by its id or by its reservation's. */
export async function findParty(
  db: Db,
  restaurantId: string,
  by: { assignmentId: string } | { reservationId: string },
  now: Date,
): Promise<PartyRow | undefined> {
  const match = 'assignmentId' in by ? sql`a.id = ${by.assignmentId}` : sql`a.reservation_id = ${by.reservationId}`;
  const [row] = await queryRows<PartyRow>(
    db,
    sql`SELECT ${partyColumns(now)}
        FROM table_assignments a
        LEFT JOIN reservations r ON r.id = a.reservation_id
        LEFT JOIN users u ON u.id = r.user_id
        WHERE a.restaurant_id = ${restaurantId} AND a.released_at IS NULL AND ${match}`,
  );
  return row;
}

/**
 * Parties sitting at any of `tableIds` now (seated and not finished: a walk-in, or a booking still
 * SEATED), other than `exceptId`: their tables are taken whatever their turn said.
 */
export function listSeatedOn(tx: Db, restaurantId: string, tableIds: string[], exceptId: string | null): Promise<{ id: string; table_ids: string[] }[]> {
  return queryRows(
    tx,
    sql`SELECT a.id, a.table_ids FROM table_assignments a LEFT JOIN reservations r ON r.id = a.reservation_id
        WHERE a.restaurant_id = ${restaurantId} AND a.released_at IS NULL AND a.seated_at IS NOT NULL AND a.finished_at IS NULL
          AND a.table_ids && ${toPgArray(tableIds)}::uuid[]
          AND (a.reservation_id IS NULL OR r.status = 'SEATED')
          AND (${exceptId}::uuid IS NULL OR a.id <> ${exceptId}::uuid)`,
  );
}

/**
 * The tables other assignments take during [from, to) at `now`, as the floor counts them
 * (floor.repository.ts listOccupancies: not released, and a booking's only while it holds covers),
 * leaving out `exceptId`.
 */
export async function listTakenTables(tx: Db, restaurantId: string, from: Date, to: Date, now: Date, exceptId: string | null): Promise<string[]> {
  const rows = await queryRows<{ table_ids: string[] }>(
    tx,
    sql`SELECT a.table_ids FROM table_assignments a LEFT JOIN reservations r ON r.id = a.reservation_id
        WHERE a.restaurant_id = ${restaurantId} AND a.released_at IS NULL
          AND a.starts_at < ${to.toISOString()} AND a.ends_at > ${from.toISOString()}
          AND (a.reservation_id IS NULL OR ${holdsCovers(now, 'r')})
          AND (${exceptId}::uuid IS NULL OR a.id <> ${exceptId}::uuid)`,
  );
  return rows.flatMap((row) => row.table_ids);
}

/** A party seated now: a booking's new assignment (its old one released first) or a walk-in's. */
export async function insertSeatedParty(
  tx: Db,
  party: NewAssignment & { seatedAt: Date; walkIn: { name: string | null; phone: string | null } | null },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO table_assignments (restaurant_id, reservation_id, table_ids, combination_id, party_size, starts_at, ends_at, seated_at, is_walk_in, guest_name, guest_phone)
        VALUES (${party.restaurantId}, ${party.reservationId}, ${toPgArray(party.tableIds)}::uuid[], ${party.combinationId}, ${party.partySize},
                ${party.startsAt.toISOString()}, ${party.endsAt.toISOString()}, ${party.seatedAt.toISOString()}, ${party.walkIn !== null},
                ${party.walkIn?.name ?? null}, ${party.walkIn?.phone ?? null})
        RETURNING id`,
  );
  return row.id;
}

/** The party keeps its turn and moves to other tables, chosen by staff: pinned there, a re-pack never moves it (decision 217). */
export async function moveParty(tx: Db, restaurantId: string, assignmentId: string, tableIds: string[], combinationId: string | null): Promise<void> {
  await tx.execute(
    sql`UPDATE table_assignments SET table_ids = ${toPgArray(tableIds)}::uuid[], combination_id = ${combinationId}, pinned = true
        WHERE id = ${assignmentId} AND restaurant_id = ${restaurantId} AND released_at IS NULL`,
  );
}

/** The party has left: its assignment ends now (never before it began), so the rest of its turn is free. */
export async function finishParty(tx: Db, restaurantId: string, assignmentId: string, now: Date): Promise<void> {
  await tx.execute(
    sql`UPDATE table_assignments SET finished_at = ${now.toISOString()},
          ends_at = greatest(${now.toISOString()}::timestamptz, starts_at + interval '1 minute')
        WHERE id = ${assignmentId} AND restaurant_id = ${restaurantId} AND released_at IS NULL AND finished_at IS NULL`,
  );
}

/**
 * The restaurant's slots starting in [from, to): the times a freed table can be offered at. Read
 * only, to name them in 'slot.freed' (the slots module owns the table).
 */
export async function listSlotIdsBetween(db: Db, restaurantId: string, from: Date, to: Date): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM slots WHERE restaurant_id = ${restaurantId} AND starts_at >= ${from.toISOString()} AND starts_at < ${to.toISOString()} ORDER BY starts_at`,
  );
  return rows.map((row) => row.id);
}
