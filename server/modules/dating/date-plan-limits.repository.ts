import { sql, type SQL } from 'drizzle-orm';
import { DATE_PARTY_SIZE, NEW_MEMBERS_UNPAID_DATE_SEATS_DIVISOR, UNPAID_DATE_SEATS_DIVISOR } from '#common/domain/dating-plan.ts';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';

/**
 * The bounds on unpaid date holds (decision 209) in SQL: one proposed plan per member at a time,
 * and a share of a restaurant's evening for proposed plans, a smaller one for plans with a new
 * member. Proposals take the members' locks, then the evening's, before they count.
 */

/** Whether `member` has been at the table of a date through us (staff marked them arrived): not a new member. */
function hasBeenToADate(member: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM dating_plan_members seen WHERE seen.member_id = ${member} AND seen.arrived_at IS NOT NULL)`;
}

/** Whether a pair of members includes a new member (decision 209). */
export function pairIsNewSql(memberA: SQL, memberB: SQL): SQL {
  return sql`NOT (${hasBeenToADate(memberA)} AND ${hasBeenToADate(memberB)})`;
}

/**
 * Whether the evening of the slot aliased `slot` (its restaurant, its Kolkata day) has room for one
 * more proposed plan of a pair (`pairIsNew`: a boolean SQL expression): the covers of its proposed
 * plans still open at `now`, plus this one, within a quarter of its seats, and those of plans with a
 * new member within an eighth when this pair has one; always room for one plan.
 */
export function roomForUnpaidDateSql(slot: SQL, pairIsNew: SQL, now: Date): SQL {
  return sql`(SELECT unpaid.covers + ${DATE_PARTY_SIZE} <= greatest(${DATE_PARTY_SIZE}, evening_seats.seats / ${UNPAID_DATE_SEATS_DIVISOR})
                 AND (NOT ${pairIsNew} OR unpaid.new_covers + ${DATE_PARTY_SIZE} <= greatest(${DATE_PARTY_SIZE}, evening_seats.seats / ${NEW_MEMBERS_UNPAID_DATE_SEATS_DIVISOR}))
              FROM (SELECT coalesce(max(es.capacity), 0)::int AS seats FROM slots es
                    WHERE es.restaurant_id = ${slot}.restaurant_id AND es.slot_date = ${slot}.slot_date) AS evening_seats,
                   (SELECT coalesce(sum(ur.party_size), 0)::int AS covers,
                           coalesce(sum(ur.party_size) FILTER (WHERE ${pairIsNewSql(sql`up.member_a`, sql`up.member_b`)}), 0)::int AS new_covers
                    FROM dating_plans up JOIN reservations ur ON ur.id = up.reservation_id JOIN slots us ON us.id = ur.slot_id
                    WHERE up.status = 'PROPOSED' AND up.deadline > ${now.toISOString()}
                      AND up.restaurant_id = ${slot}.restaurant_id AND us.slot_date = ${slot}.slot_date) AS unpaid)`;
}

/**
 * Serialises proposals touching either member (a pair's own, and the member's other matches), in
 * id order so two proposals never wait for each other the wrong way round.
 */
export async function lockMembers(db: Db, memberIds: readonly string[]): Promise<void> {
  for (const id of [...memberIds].sort()) await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`dating-member:${id}`}))`);
}

/**
 * Serialises proposals on the restaurants' evenings of these slots (each slot's restaurant and
 * Kolkata day), so their counts hold; all of them at once and in one order, so two proposals
 * trying the same evenings in another order never wait for each other.
 */
export async function lockEveningsOfSlots(db: Db, slotIds: readonly string[]): Promise<void> {
  if (slotIds.length === 0) return;
  const rows = await queryRows<{ key: string }>(
    db,
    sql`SELECT DISTINCT 'dating-evening:' || s.restaurant_id::text || ':' || s.slot_date::text AS key FROM slots s WHERE s.id = ANY(${toPgArray(slotIds)}::uuid[])`,
  );
  for (const key of rows.map((row) => row.key).sort()) await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
}

/** Whether either member is on a proposed plan still open at `now` (with anyone). */
export async function hasOpenProposal(db: Db, memberIds: readonly string[], now: Date): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`SELECT 1 FROM dating_plans p WHERE p.status = 'PROPOSED' AND p.deadline > ${now.toISOString()}
          AND (p.member_a = ANY(${toPgArray(memberIds)}::uuid[]) OR p.member_b = ANY(${toPgArray(memberIds)}::uuid[])) LIMIT 1`,
  );
  return rows.length > 0;
}

/** Whether the slot's evening still has room for the pair's proposed plan (read under the evening's lock). */
export async function hasRoomForUnpaidDate(db: Db, request: { slotId: string; memberA: string; memberB: string; now: Date }): Promise<boolean> {
  const [row] = await queryRows<{ room: boolean }>(
    db,
    sql`SELECT ${roomForUnpaidDateSql(sql`s`, pairIsNewSql(sql`${request.memberA}::uuid`, sql`${request.memberB}::uuid`), request.now)} AS room
        FROM slots s WHERE s.id = ${request.slotId}`,
  );
  return row?.room === true;
}
