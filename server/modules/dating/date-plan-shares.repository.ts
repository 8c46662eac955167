import { sql } from 'drizzle-orm';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';

/** A date plan's share links (decision 208): one row a link; its id is what the link signs. */

export interface PlanShareRow {
  id: string;
  plan_id: string;
  member_id: string;
  revoked_at: Date | string | null;
}

export async function insertPlanShare(db: Db, share: { planId: string; memberId: string; now: Date }): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO dating_plan_shares (plan_id, member_id, created_at) VALUES (${share.planId}, ${share.memberId}, ${share.now.toISOString()}) RETURNING id`,
  );
  return row.id;
}

export async function findPlanShare(db: Db, shareId: string): Promise<PlanShareRow | undefined> {
  const [row] = await queryRows<PlanShareRow>(db, sql`SELECT id, plan_id, member_id, revoked_at FROM dating_plan_shares WHERE id = ${shareId}`);
  return row;
}

/** Ends every open link the member made for the plan; answers how many ended. */
export async function revokePlanShares(db: Db, planId: string, memberId: string, now: Date): Promise<number> {
  const rows = await queryRows(
    db,
    sql`UPDATE dating_plan_shares SET revoked_at = ${now.toISOString()} WHERE plan_id = ${planId} AND member_id = ${memberId} AND revoked_at IS NULL RETURNING 1`,
  );
  return rows.length;
}

/** The plans among `planIds` for which the member has a link open (not revoked). */
export async function listPlansSharedBy(db: Db, planIds: readonly string[], memberId: string): Promise<Set<string>> {
  if (planIds.length === 0) return new Set();
  const rows = await queryRows<{ plan_id: string }>(
    db,
    sql`SELECT DISTINCT plan_id FROM dating_plan_shares WHERE member_id = ${memberId} AND revoked_at IS NULL AND plan_id = ANY(${toPgArray(planIds)}::uuid[])`,
  );
  return new Set(rows.map((row) => row.plan_id));
}
