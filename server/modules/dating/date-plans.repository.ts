import { sql } from 'drizzle-orm';
import type { DateDepositMove, DatePlanStatus } from '#common/domain/dating-plan.ts';
import { eveningWindows } from '#common/domain/dating-match.ts';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';
import { coversTakenJoin } from '#server/modules/reservations/reservation-sql.ts';
import { restaurantRefColumns, type RestaurantRefRow } from '#server/modules/restaurants/restaurant-sql.ts';
import { slotIsPublic } from '#server/modules/slots/slot-sql.ts';
import { pairIsNewSql, roomForUnpaidDateSql } from './date-plan-limits.repository.ts';
import { budgetGapSql, kmBetweenSql, wishesMatchSql } from './dating-matches.repository.ts';

/** Date plans' SQL (decision 184): proposals, the plan and its two members, settlement, sweeps. */

/** The evening window code of a slot's Kolkata time (`s.slot_time`), or NULL outside both windows. */
const SLOT_WINDOW = sql.raw(
  `CASE ${eveningWindows.map((window) => `WHEN s.slot_time >= '${window.from}' AND s.slot_time < '${window.until}' THEN '${window.value}'`).join(' ')} END`,
);

export interface PlanCandidateRow {
  slot_id: string;
  restaurant_id: string;
  starts_at: Date | string;
}

/**
 * The best tables for a pair's date, best first (decision 184), in one statement (none for a pair
 * where either has blocked the other): partner
 * restaurants within one budget band of both members and offering one of their cuisines or kinds of
 * date, on slots open to anyone with room for two and on an evening with room for one more unpaid
 * date hold (decision 209), starting in [`earliest`, `latest`) on an evening
 * both are free (day and window). Ordered by the earliest start, then the smallest sum of the
 * distances from the two homes, then how many of the pair's cuisines and kinds of date it offers.
 */
export async function findPlanCandidates(
  db: Db,
  request: {
    memberA: string;
    memberB: string;
    now: Date;
    /** The earliest start; `earliestIfBothSayTonight` instead when both members chose "tonight is fine" (decision 252). */
    earliest: Date;
    earliestIfBothSayTonight: Date;
    latest: Date;
    excludeRestaurantIds: string[];
    limit: number;
  },
): Promise<PlanCandidateRow[]> {
  const { now } = request;
  return queryRows<PlanCandidateRow>(
    db,
    sql`WITH pair AS (
          SELECT a.free_evenings AS evenings_a, b.free_evenings AS evenings_b, a.cuisines || b.cuisines AS cuisines,
                 a.first_date_types || b.first_date_types AS date_types, a.date_budget AS budget_a, b.date_budget AS budget_b,
                 a.neighbourhoods[1] AS home_a, b.neighbourhoods[1] AS home_b,
                 CASE WHEN a.tonight_is_fine AND b.tonight_is_fine THEN ${request.earliestIfBothSayTonight.toISOString()}::timestamptz
                      ELSE ${request.earliest.toISOString()}::timestamptz END AS earliest,
                 ${pairIsNewSql(sql`a.id`, sql`b.id`)} AS is_new
          FROM dating_users a, dating_users b WHERE a.id = ${request.memberA} AND b.id = ${request.memberB}
            -- A pair where either has blocked the other is never planned for, whatever asked.
            AND NOT EXISTS (SELECT 1 FROM dating_blocks x WHERE (x.blocker_id = a.id AND x.blocked_id = b.id) OR (x.blocker_id = b.id AND x.blocked_id = a.id))
            -- Nor a pair where either no longer wants to meet the other (decision 250).
            AND ${wishesMatchSql(sql`a`, sql`b`)}
        )
        SELECT s.id AS slot_id, s.restaurant_id, s.starts_at
        FROM pair
        JOIN dating_partners p ON ${budgetGapSql(sql`p.budget`, sql`pair.budget_a`)} <= 1 AND ${budgetGapSql(sql`p.budget`, sql`pair.budget_b`)} <= 1
          AND (p.cuisines && pair.cuisines OR p.date_types && pair.date_types)
          AND p.restaurant_id <> ALL(${toPgArray(request.excludeRestaurantIds)}::uuid[])
        JOIN slots s ON s.restaurant_id = p.restaurant_id AND s.starts_at >= pair.earliest AND s.starts_at < ${request.latest.toISOString()}
          AND s.status = 'available' AND ${slotIsPublic(now)}
        ${coversTakenJoin(now)}
        CROSS JOIN LATERAL (SELECT upper(to_char(s.slot_date, 'DY')) || '_' || ${SLOT_WINDOW} AS code) AS evening
        WHERE s.capacity - taken.covers >= 2 AND evening.code = ANY(pair.evenings_a) AND evening.code = ANY(pair.evenings_b)
          -- Unpaid date holds take a bounded share of the restaurant's evening (decision 209).
          AND ${roomForUnpaidDateSql(sql`s`, sql`pair.is_new`, now)}
        ORDER BY s.starts_at,
                 ${kmBetweenSql(sql`pair.home_a`, sql`p.neighbourhood`)} + ${kmBetweenSql(sql`pair.home_b`, sql`p.neighbourhood`)},
                 (SELECT count(*) FROM unnest(p.cuisines || p.date_types) AS offered WHERE offered = ANY(pair.cuisines || pair.date_types)) DESC,
                 s.id
        LIMIT ${request.limit}`,
  );
}

export interface PlanRow {
  id: string;
  member_a: string;
  member_b: string;
  restaurant_id: string;
  reservation_id: string;
  starts_at: Date | string;
  status: DatePlanStatus;
  deadline: Date | string;
  deposit_paise: number;
  replaces_plan_id: string | null;
  created_at: Date | string;
}

const PLAN_COLUMNS = sql`p.id, p.member_a, p.member_b, p.restaurant_id, p.reservation_id, p.starts_at, p.status, p.deadline, p.deposit_paise,
  p.replaces_plan_id, p.created_at`;

export async function insertPlan(
  db: Db,
  plan: {
    memberA: string;
    memberB: string;
    restaurantId: string;
    reservationId: string;
    startsAt: Date;
    deadline: Date;
    depositPaise: number;
    replacesPlanId: string | null;
    now: Date;
  },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO dating_plans (member_a, member_b, restaurant_id, reservation_id, starts_at, status, deadline, deposit_paise, replaces_plan_id, created_at, updated_at)
        VALUES (${plan.memberA}, ${plan.memberB}, ${plan.restaurantId}, ${plan.reservationId}, ${plan.startsAt.toISOString()}, 'PROPOSED',
                ${plan.deadline.toISOString()}, ${plan.depositPaise}, ${plan.replacesPlanId}, ${plan.now.toISOString()}, ${plan.now.toISOString()})
        RETURNING id`,
  );
  await db.execute(sql`INSERT INTO dating_plan_members (plan_id, member_id) VALUES (${row.id}, ${plan.memberA}), (${row.id}, ${plan.memberB})`);
  return row.id;
}

export async function findPlan(db: Db, planId: string, options: { forUpdate?: boolean } = {}): Promise<PlanRow | undefined> {
  const [row] = await queryRows<PlanRow>(
    db,
    sql`SELECT ${PLAN_COLUMNS} FROM dating_plans p WHERE p.id = ${planId} ${options.forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
  return row;
}

export async function findPlanOfReservation(db: Db, reservationId: string, options: { forUpdate?: boolean } = {}): Promise<PlanRow | undefined> {
  const [row] = await queryRows<PlanRow>(
    db,
    sql`SELECT ${PLAN_COLUMNS} FROM dating_plans p WHERE p.reservation_id = ${reservationId} ${options.forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
  return row;
}

export async function setPlanStatus(db: Db, planId: string, status: DatePlanStatus, now: Date): Promise<void> {
  await db.execute(sql`UPDATE dating_plans SET status = ${status}, updated_at = ${now.toISOString()} WHERE id = ${planId}`);
}

/** Every plan the pair ever had, newest first: a new plan never repeats a restaurant already proposed to them. */
export async function listPlansOfPair(db: Db, memberA: string, memberB: string): Promise<PlanRow[]> {
  return queryRows<PlanRow>(
    db,
    sql`SELECT ${PLAN_COLUMNS} FROM dating_plans p WHERE p.member_a = ${memberA} AND p.member_b = ${memberB} ORDER BY p.created_at DESC`,
  );
}

export interface PlanMemberRow {
  plan_id: string;
  member_id: string;
  first_name: string;
  showed_up: boolean | null;
  meet_again: boolean | null;
  answer: 'ACCEPTED' | 'DECLINED' | null;
  intent_id: string | null;
  paid_at: Date | string | null;
  arrived_at: Date | string | null;
  flaked: boolean;
  deposit_move: DateDepositMove['move'] | null;
  deposit_move_paise: number | null;
  deposit_move_to: string | null;
  deposit_move_key: string | null;
  deposit_move_done_at: Date | string | null;
}

const MEMBER_COLUMNS = sql`m.plan_id, m.member_id, split_part(btrim(u.name), ' ', 1) AS first_name, m.showed_up, m.meet_again, m.answer, m.intent_id, m.paid_at, m.arrived_at, m.flaked,
  m.deposit_move, m.deposit_move_paise, m.deposit_move_to, m.deposit_move_key, m.deposit_move_done_at`;

/** The two members' sides of the plans, in member id order. */
export async function listPlanMembers(db: Db, planIds: readonly string[]): Promise<PlanMemberRow[]> {
  if (planIds.length === 0) return [];
  return queryRows<PlanMemberRow>(
    db,
    sql`SELECT ${MEMBER_COLUMNS} FROM dating_plan_members m JOIN dating_users u ON u.id = m.member_id
        WHERE m.plan_id = ANY(${toPgArray(planIds)}::uuid[]) ORDER BY m.plan_id, m.member_id`,
  );
}

export async function setAnswer(db: Db, planId: string, memberId: string, answer: 'ACCEPTED' | 'DECLINED', now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE dating_plan_members SET answer = ${answer}, answered_at = ${now.toISOString()} WHERE plan_id = ${planId} AND member_id = ${memberId}`,
  );
}

/** The member's deposit intent, once: the first one written stays (a second accept pays the same intent). */
export async function setIntentOnce(db: Db, planId: string, memberId: string, intentId: string): Promise<void> {
  await db.execute(sql`UPDATE dating_plan_members SET intent_id = ${intentId} WHERE plan_id = ${planId} AND member_id = ${memberId} AND intent_id IS NULL`);
}

/** Marks the member whose deposit `intentId` is as paid; answers the plan id, or undefined when the intent is no plan member's. */
export async function markPaid(db: Db, intentId: string, now: Date): Promise<string | undefined> {
  const [row] = await queryRows<{ plan_id: string }>(
    db,
    sql`UPDATE dating_plan_members SET paid_at = coalesce(paid_at, ${now.toISOString()}) WHERE intent_id = ${intentId} RETURNING plan_id`,
  );
  return row?.plan_id;
}

export async function findPlanIdOfIntent(db: Db, intentId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ plan_id: string }>(db, sql`SELECT plan_id FROM dating_plan_members WHERE intent_id = ${intentId}`);
  return row?.plan_id;
}

export async function markArrived(db: Db, planId: string, memberIds: readonly string[], now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE dating_plan_members SET arrived_at = coalesce(arrived_at, ${now.toISOString()})
        WHERE plan_id = ${planId} AND member_id = ANY(${toPgArray(memberIds)}::uuid[])`,
  );
}

/** Writes what a member's deposit becomes, under its own idempotency key, to be taken by payments after commit. */
/** An arrival marked by mistake, undone (decision 253). */
export async function unmarkArrived(db: Db, planId: string, memberId: string): Promise<void> {
  await db.execute(sql`UPDATE dating_plan_members SET arrived_at = NULL WHERE plan_id = ${planId} AND member_id = ${memberId}`);
}

export async function recordDepositMove(db: Db, move: { planId: string; memberId: string; move: DateDepositMove; flaked: boolean }): Promise<void> {
  const paise = move.move.move === 'keep' ? move.move.paise : null;
  const to = move.move.move === 'pay_member' ? move.move.toMemberId : null;
  await db.execute(
    sql`UPDATE dating_plan_members SET deposit_move = ${move.move.move}, deposit_move_paise = ${paise}, deposit_move_to = ${to}, flaked = ${move.flaked},
          deposit_move_key = ${`date-deposit:${move.planId}:${move.memberId}:${move.move.move}`}
        WHERE plan_id = ${move.planId} AND member_id = ${move.memberId}`,
  );
}

export async function markDepositMoveDone(db: Db, planId: string, memberId: string, now: Date): Promise<void> {
  await db.execute(sql`UPDATE dating_plan_members SET deposit_move_done_at = ${now.toISOString()} WHERE plan_id = ${planId} AND member_id = ${memberId}`);
}

/** Plans with a deposit move decided and not yet taken (a crash after commit, a provider not answering). */
export async function listPlansWithUndoneMoves(db: Db, limit: number): Promise<string[]> {
  const rows = await queryRows<{ plan_id: string }>(
    db,
    sql`SELECT DISTINCT plan_id FROM dating_plan_members WHERE deposit_move IS NOT NULL AND deposit_move_done_at IS NULL LIMIT ${limit}`,
  );
  return rows.map((row) => row.plan_id);
}

export async function insertStrike(db: Db, strike: { memberId: string; planId: string; reason: 'NOT_ARRIVED' | 'LATE_CANCEL'; now: Date }): Promise<void> {
  await db.execute(
    sql`INSERT INTO dating_strikes (member_id, plan_id, reason, created_at) VALUES (${strike.memberId}, ${strike.planId}, ${strike.reason}, ${strike.now.toISOString()})
        ON CONFLICT DO NOTHING`,
  );
}

export async function countStrikes(db: Db, memberId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM dating_strikes WHERE member_id = ${memberId}`);
  return row.n;
}

export interface MemberPlanRow extends PlanRow, RestaurantRefRow {}

/** A member's plans, newest first, with their restaurant. */
export async function listPlansOfMember(db: Db, memberId: string, limit: number): Promise<MemberPlanRow[]> {
  return queryRows<MemberPlanRow>(
    db,
    sql`SELECT ${PLAN_COLUMNS}, ${restaurantRefColumns}
        FROM dating_plans p JOIN restaurants rest ON rest.id = p.restaurant_id
        WHERE p.member_a = ${memberId} OR p.member_b = ${memberId}
        ORDER BY p.created_at DESC LIMIT ${limit}`,
  );
}

export async function findPlanWithRestaurant(db: Db, planId: string): Promise<MemberPlanRow | undefined> {
  const [row] = await queryRows<MemberPlanRow>(
    db,
    sql`SELECT ${PLAN_COLUMNS}, ${restaurantRefColumns} FROM dating_plans p JOIN restaurants rest ON rest.id = p.restaurant_id WHERE p.id = ${planId}`,
  );
  return row;
}

/** Mutual yeses of a member that have never had a plan, and where neither has blocked the other. */
export async function listMatchesWithoutPlan(db: Db, memberId: string): Promise<{ member_a: string; member_b: string }[]> {
  return queryRows(
    db,
    sql`SELECT s.member_a, s.member_b FROM dating_suggestions s
        WHERE (s.member_a = ${memberId} OR s.member_b = ${memberId}) AND s.answer_a = 'YES' AND s.answer_b = 'YES'
          AND NOT EXISTS (SELECT 1 FROM dating_plans p WHERE p.member_a = s.member_a AND p.member_b = s.member_b)
          AND NOT EXISTS (SELECT 1 FROM dating_blocks b WHERE (b.blocker_id = s.member_a AND b.blocked_id = s.member_b) OR (b.blocker_id = s.member_b AND b.blocked_id = s.member_a))`,
  );
}

/** Proposed plans past their deadline at `now`. */
export async function listLapsedProposals(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM dating_plans WHERE status = 'PROPOSED' AND deadline <= ${now.toISOString()} ORDER BY deadline LIMIT ${limit}`,
  );
  return rows.map((row) => row.id);
}

/** Proposed plans both members have paid for (the booking's move may not have happened: a crash between). */
export async function listPaidProposals(db: Db, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT p.id FROM dating_plans p WHERE p.status = 'PROPOSED'
          AND (SELECT count(*) FROM dating_plan_members m WHERE m.plan_id = p.id AND m.paid_at IS NOT NULL) = 2
        LIMIT ${limit}`,
  );
  return rows.map((row) => row.id);
}

/** Booked plans whose arrival grace is over at `now` (`graceStart` = now − the grace). */
export async function listBookedPastGrace(db: Db, graceStart: Date, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM dating_plans WHERE status = 'BOOKED' AND starts_at <= ${graceStart.toISOString()} ORDER BY starts_at LIMIT ${limit}`,
  );
  return rows.map((row) => row.id);
}

export interface DayDateRow {
  id: string;
  reservation_id: string;
  status: DatePlanStatus;
  starts_at: Date | string;
  slot_time: string;
}

/** The dates at a restaurant on a Kolkata day that were booked (proposals the restaurant never sees). */
export async function listDatesOfDay(db: Db, restaurantId: string, day: string, onlyPlanId?: string): Promise<DayDateRow[]> {
  return queryRows<DayDateRow>(
    db,
    sql`SELECT p.id, p.reservation_id, p.status, p.starts_at, s.slot_time
        FROM dating_plans p JOIN reservations r ON r.id = p.reservation_id JOIN slots s ON s.id = r.slot_id
        WHERE p.restaurant_id = ${restaurantId} AND p.status IN ('BOOKED', 'SEATED', 'FLAKED', 'NO_SHOW', 'CANCELLED')
          AND ${onlyPlanId ? sql`p.id = ${onlyPlanId}` : sql`s.slot_date = ${day}`}
        ORDER BY p.starts_at, p.id`,
  );
}

/** A member's answers after the date, once: false when they had already answered. */
export async function setAfterDateOnce(db: Db, planId: string, memberId: string, answers: { showedUp: boolean; meetAgain: boolean }): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`UPDATE dating_plan_members SET showed_up = ${answers.showedUp}, meet_again = ${answers.meetAgain}
        WHERE plan_id = ${planId} AND member_id = ${memberId} AND showed_up IS NULL RETURNING 1`,
  );
  return rows.length === 1;
}

/** A member's plans still in play (proposed or booked). */
export async function listOpenPlansOfMember(db: Db, memberId: string): Promise<PlanRow[]> {
  return queryRows<PlanRow>(
    db,
    sql`SELECT ${PLAN_COLUMNS} FROM dating_plans p WHERE (p.member_a = ${memberId} OR p.member_b = ${memberId}) AND p.status IN ('PROPOSED', 'BOOKED')`,
  );
}

/** Open plans between two members, either way round. */
export async function listOpenPlansBetween(db: Db, one: string, other: string): Promise<PlanRow[]> {
  return queryRows<PlanRow>(
    db,
    sql`SELECT ${PLAN_COLUMNS} FROM dating_plans p
        WHERE ((p.member_a = ${one} AND p.member_b = ${other}) OR (p.member_a = ${other} AND p.member_b = ${one})) AND p.status IN ('PROPOSED', 'BOOKED')`,
  );
}

/** Open plans whose two members have blocked each other (either way; a report blocks too): the sweep closes them (decision 205). */
export async function listOpenPlansOfBlockedPairs(db: Db, now: Date, limit: number): Promise<PlanRow[]> {
  return queryRows<PlanRow>(
    db,
    sql`SELECT ${PLAN_COLUMNS} FROM dating_plans p
        WHERE p.status IN ('PROPOSED', 'BOOKED') AND p.starts_at > ${now.toISOString()}
          AND EXISTS (SELECT 1 FROM dating_blocks b
                      WHERE (b.blocker_id = p.member_a AND b.blocked_id = p.member_b) OR (b.blocker_id = p.member_b AND b.blocked_id = p.member_a))
        ORDER BY p.id LIMIT ${limit}`,
  );
}

/** What a date plan's push names (decision 227): both members with their first names, the restaurant and the start. */
export interface PlanNoticeRow {
  member_a: string;
  member_b: string;
  first_a: string;
  first_b: string;
  restaurant: string;
  starts_at: Date | string;
}

export async function findPlanNoticeFacts(db: Db, planId: string): Promise<PlanNoticeRow | undefined> {
  const [row] = await queryRows<PlanNoticeRow>(
    db,
    sql`SELECT p.member_a, p.member_b, split_part(btrim(a.name), ' ', 1) AS first_a, split_part(btrim(b.name), ' ', 1) AS first_b, r.name AS restaurant, p.starts_at
        FROM dating_plans p JOIN dating_users a ON a.id = p.member_a JOIN dating_users b ON b.id = p.member_b JOIN restaurants r ON r.id = p.restaurant_id
        WHERE p.id = ${planId}`,
  );
  return row;
}
