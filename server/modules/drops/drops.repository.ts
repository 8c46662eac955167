import { sql } from 'drizzle-orm';
import type { ReservationStatus } from '#common/domain/reservation-status.ts';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';
import { coversTakenJoin } from '#server/modules/reservations/reservation-sql.ts';
import { restaurantRefColumns, type RestaurantRefRow } from '#server/modules/restaurants/restaurant-sql.ts';

/** The drops' SQL: drops, their slots, entries and the draw. No rules here. */

export interface DropRow extends RestaurantRefRow {
  id: string;
  title: string;
  description: string | null;
  entry_opens_at: Date | string;
  entry_closes_at: Date | string;
  release_at: Date | string;
  capacity: number;
  last_slot_at: Date | string;
  seed: string | null;
  drawn_at: Date | string | null;
  opened_to_all_at: Date | string | null;
  seed_commitment: string | null;
  committed_at: Date | string | null;
  entries_closed_at: Date | string | null;
  closed_entry_count: number | null;
  closed_entries_hash: string | null;
  deposit_per_cover_paise: number | null;
  date_from: string;
  date_to: string;
  times: string[];
  slot_count: number;
  entry_count: number;
  offered_count: number;
  booked_count: number;
}

const dropSelect = sql`SELECT d.id, d.title, d.description, d.entry_opens_at, d.entry_closes_at, d.release_at, d.capacity,
    d.last_slot_at, d.seed, d.drawn_at, d.opened_to_all_at,
    d.seed_commitment, d.committed_at, d.entries_closed_at, d.closed_entry_count, d.closed_entries_hash, d.deposit_per_cover_paise, ${restaurantRefColumns},
    sl.date_from, sl.date_to, sl.times, sl.slot_count,
    en.entry_count, en.offered_count, en.booked_count
  FROM drops d
  JOIN restaurants rest ON rest.id = d.restaurant_id
  CROSS JOIN LATERAL (
    SELECT to_char(min(s.slot_date), 'YYYY-MM-DD') AS date_from, to_char(max(s.slot_date), 'YYYY-MM-DD') AS date_to,
           coalesce(array_agg(DISTINCT s.slot_time ORDER BY s.slot_time), '{}') AS times, count(*)::int AS slot_count
    FROM slots s WHERE s.drop_id = d.id) sl
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS entry_count,
           count(*) FILTER (WHERE e.status = 'offered')::int AS offered_count,
           count(*) FILTER (WHERE e.status = 'offered' AND r.status IN ('PENDING', 'CONFIRMED', 'SEATED', 'COMPLETED'))::int AS booked_count
    FROM drop_entries e LEFT JOIN reservations r ON r.id = e.reservation_id WHERE e.drop_id = d.id) en`;

/** Drops whose window or slots are not long past, newest release first; optionally one restaurant's. */
export function listDrops(db: Db, options: { since: Date; restaurantId?: string; limit: number }): Promise<DropRow[]> {
  const restaurantFilter = options.restaurantId ? sql`AND d.restaurant_id = ${options.restaurantId}` : sql``;
  return queryRows<DropRow>(
    db,
    sql`${dropSelect} WHERE d.last_slot_at >= ${options.since.toISOString()} ${restaurantFilter}
        ORDER BY d.release_at DESC, d.id LIMIT ${options.limit}`,
  );
}

export async function findDrop(db: Db, id: string): Promise<DropRow | undefined> {
  const [row] = await queryRows<DropRow>(db, sql`${dropSelect} WHERE d.id = ${id}`);
  return row;
}

export interface LockedDrop {
  id: string;
  restaurant_id: string;
  title: string;
  release_at: Date | string;
  entry_opens_at: Date | string;
  entry_closes_at: Date | string;
  capacity: number;
  drawn_at: Date | string | null;
  opened_to_all_at: Date | string | null;
  last_slot_at: Date | string;
  /** The seed committed to at creation (secret until the draw); null for drops older than decision 100. */
  sealed_seed: string | null;
  seed_commitment: string | null;
  entries_closed_at: Date | string | null;
  closed_entries_hash: string | null;
}

/** Locks the drop row: the draw and every offer of one drop queue here, so each happens once. */
export async function lockDrop(db: Db, id: string, mode: 'update' | 'share' = 'update'): Promise<LockedDrop | undefined> {
  const [row] = await queryRows<LockedDrop>(
    db,
    sql`SELECT id, restaurant_id, title, release_at, entry_opens_at, entry_closes_at, capacity, drawn_at, opened_to_all_at, last_slot_at,
               sealed_seed, seed_commitment, entries_closed_at, closed_entries_hash
        FROM drops WHERE id = ${id} ${mode === 'update' ? sql`FOR UPDATE` : sql`FOR SHARE`}`,
  );
  return row;
}

export async function insertDrop(
  db: Db,
  drop: {
    restaurantId: string;
    title: string;
    description: string | null;
    entryOpensAt: Date;
    entryClosesAt: Date;
    releaseAt: Date;
    capacity: number;
    lastSlotAt: Date;
    now: Date;
    /** The draw's seed, sealed, and its published SHA-256 (decision 100). */
    sealedSeed: string;
    seedCommitment: string;
    /** A per-guest deposit (decision 120); none when absent. */
    depositPerCoverPaise?: number | null;
  },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO drops (restaurant_id, title, description, entry_opens_at, entry_closes_at, release_at, capacity, last_slot_at, created_at,
                           sealed_seed, seed_commitment, committed_at, deposit_per_cover_paise)
        VALUES (${drop.restaurantId}, ${drop.title}, ${drop.description}, ${drop.entryOpensAt.toISOString()}, ${drop.entryClosesAt.toISOString()},
                ${drop.releaseAt.toISOString()}, ${drop.capacity}, ${drop.lastSlotAt.toISOString()}, ${drop.now.toISOString()},
                ${drop.sealedSeed}, ${drop.seedCommitment}, ${drop.now.toISOString()}, ${drop.depositPerCoverPaise ?? null})
        RETURNING id`,
  );
  return row.id;
}

export interface DropSlotRow {
  id: string;
  date: string;
  time: string;
  starts_at: Date | string;
  capacity: number;
  status: 'available' | 'full';
  covers_taken: number;
}

/** The drop's slots, soonest first, with covers taken now. */
export function listDropSlots(db: Db, dropId: string, now: Date): Promise<DropSlotRow[]> {
  return queryRows<DropSlotRow>(
    db,
    sql`SELECT s.id, to_char(s.slot_date, 'YYYY-MM-DD') AS date, s.slot_time AS time, s.starts_at, s.capacity, s.status,
               taken.covers AS covers_taken
        FROM slots s ${coversTakenJoin(now)}
        WHERE s.drop_id = ${dropId}
        ORDER BY s.starts_at, s.id`,
  );
}

export async function insertEntry(db: Db, entry: { dropId: string; userId: string; phone: string; partySize: number; now: Date }): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO drop_entries (drop_id, user_id, phone, party_size, created_at)
        VALUES (${entry.dropId}, ${entry.userId}, ${entry.phone}, ${entry.partySize}, ${entry.now.toISOString()})
        RETURNING id`,
  );
  return row.id;
}

export interface EntryRow {
  id: string;
  drop_id: string;
  user_id: string;
  party_size: number;
  status: 'waiting' | 'offered' | 'withdrawn';
  position: number | null;
  reservation_id: string | null;
  created_at: Date | string;
  reservation_status: ReservationStatus | null;
  hold_expires_at: Date | string | null;
  slot_date: string | null;
  slot_time: string | null;
  diner_name: string;
  diner_username: string;
  diner_phone: string;
}

const entrySelect = sql`SELECT e.id, e.drop_id, e.user_id, e.party_size, e.status, e.position, e.reservation_id, e.created_at,
    r.status AS reservation_status, r.hold_expires_at, to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time,
    u.name AS diner_name, u.username AS diner_username, e.phone AS diner_phone
  FROM drop_entries e
  JOIN users u ON u.id = e.user_id
  LEFT JOIN reservations r ON r.id = e.reservation_id
  LEFT JOIN slots s ON s.id = r.slot_id`;

export async function findEntryOfUser(db: Db, dropId: string, userId: string): Promise<EntryRow | undefined> {
  const [row] = await queryRows<EntryRow>(db, sql`${entrySelect} WHERE e.drop_id = ${dropId} AND e.user_id = ${userId}`);
  return row;
}

/** Every entry: in drawn order once drawn, in order of entry before. */
export function listEntries(db: Db, dropId: string): Promise<EntryRow[]> {
  return queryRows<EntryRow>(db, sql`${entrySelect} WHERE e.drop_id = ${dropId} ORDER BY e.position NULLS LAST, e.created_at, e.id`);
}

/** Entries still waiting ahead of a position (for "number N in line"). */
export async function countWaitingAhead(db: Db, dropId: string, position: number): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM drop_entries WHERE drop_id = ${dropId} AND status = 'waiting' AND position < ${position}`,
  );
  return row.count;
}

export async function deleteEntry(db: Db, id: string): Promise<void> {
  await db.execute(sql`DELETE FROM drop_entries WHERE id = ${id}`);
}

export async function withdrawEntry(db: Db, id: string): Promise<void> {
  await db.execute(sql`UPDATE drop_entries SET status = 'withdrawn' WHERE id = ${id} AND status = 'waiting'`);
}

/**
 * The ids of every entry in the draw: since decision 100 every entry there was when entries closed
 * (one withdrawn after the close keeps its place in the fixed list and is passed over in line).
 */
export async function listEntryIdsForDraw(db: Db, dropId: string): Promise<{ id: string; user_id: string; status: string }[]> {
  return queryRows<{ id: string; user_id: string; status: string }>(db, sql`SELECT id, user_id, status FROM drop_entries WHERE drop_id = ${dropId}`);
}

/** Records the entry list fixed at the close: when, how many, and its hash. */
export async function recordEntriesClosed(db: Db, dropId: string, closed: { count: number; hash: string; now: Date }): Promise<void> {
  await db.execute(
    sql`UPDATE drops SET entries_closed_at = ${closed.now.toISOString()}, closed_entry_count = ${closed.count}, closed_entries_hash = ${closed.hash}
        WHERE id = ${dropId} AND entries_closed_at IS NULL`,
  );
}

/** Drops whose entries have closed but whose entry list is not fixed yet. */
export async function listDropsToClose(db: Db, now: Date): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM drops WHERE entries_closed_at IS NULL AND entry_closes_at <= ${now.toISOString()} ORDER BY entry_closes_at LIMIT 100`,
  );
  return rows.map((row) => row.id);
}

/** Writes the drawn order (positions 1…n) and the seed, in one go. */
export async function recordDraw(db: Db, dropId: string, draw: { seed: string; order: string[]; now: Date }): Promise<void> {
  if (draw.order.length > 0) {
    await db.execute(
      sql`UPDATE drop_entries e SET position = o.position
          FROM unnest(${toPgArray(draw.order)}::uuid[]) WITH ORDINALITY AS o(id, position)
          WHERE e.id = o.id AND e.drop_id = ${dropId}`,
    );
  }
  await db.execute(sql`UPDATE drops SET seed = ${draw.seed}, drawn_at = ${draw.now.toISOString()} WHERE id = ${dropId}`);
}

/** The first waiting entry in line whose party fits `maxCovers`, leaving out `skip`. */
export async function findNextInLine(
  db: Db,
  dropId: string,
  maxCovers: number,
  skip: string[],
): Promise<{ id: string; user_id: string; party_size: number; position: number } | undefined> {
  const skipFilter = skip.length > 0 ? sql`AND NOT (id = ANY(${toPgArray(skip)}::uuid[]))` : sql``;
  const [row] = await queryRows<{ id: string; user_id: string; party_size: number; position: number }>(
    db,
    sql`SELECT id, user_id, party_size, position FROM drop_entries
        WHERE drop_id = ${dropId} AND status = 'waiting' AND party_size <= ${maxCovers} ${skipFilter}
        ORDER BY position LIMIT 1`,
  );
  return row;
}

export async function hasWaitingEntries(db: Db, dropId: string): Promise<boolean> {
  const rows = await queryRows(db, sql`SELECT 1 FROM drop_entries WHERE drop_id = ${dropId} AND status = 'waiting' LIMIT 1`);
  return rows.length > 0;
}

export async function markEntryOffered(db: Db, entryId: string, reservationId: string, now: Date): Promise<void> {
  await db.execute(sql`UPDATE drop_entries SET status = 'offered', reservation_id = ${reservationId}, offered_at = ${now.toISOString()} WHERE id = ${entryId}`);
}

export async function markOpenedToAll(db: Db, dropId: string, now: Date): Promise<void> {
  await db.execute(sql`UPDATE drops SET opened_to_all_at = ${now.toISOString()} WHERE id = ${dropId} AND opened_to_all_at IS NULL`);
}

/**
 * Drops with work due at `now`: released but not drawn, or drawn with slots not yet past and
 * the leftover tables not yet open to all (someone may be in line, or the line just emptied).
 */
export async function listDropsWithWorkDue(db: Db, now: Date): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT d.id FROM drops d
        WHERE d.release_at <= ${now.toISOString()} AND d.opened_to_all_at IS NULL
          AND (d.drawn_at IS NULL OR d.last_slot_at > ${now.toISOString()})
        ORDER BY d.release_at LIMIT 100`,
  );
  return rows.map((row) => row.id);
}

/** Released drops not yet drawn (a read after release draws them first). */
export async function listUndrawnReleasedDrops(db: Db, now: Date): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM drops WHERE release_at <= ${now.toISOString()} AND drawn_at IS NULL ORDER BY release_at LIMIT 100`,
  );
  return rows.map((row) => row.id);
}

/** Withdraws a deleted diner's entries still waiting in a drop's line (decision 266). */
export async function withdrawWaitingEntriesOf(db: Db, userId: string): Promise<void> {
  await db.execute(sql`UPDATE drop_entries SET status = 'withdrawn' WHERE user_id = ${userId} AND status = 'waiting'`);
}
