import { sql } from 'drizzle-orm';
import type { DepositKind, DepositPolicy } from '#common/domain/deposit-policy.ts';
import { queryRows, type Db } from '#server/db/client.ts';

/** The restaurants module's deposit tables (migration 0009): one policy per restaurant and its ordered rules. */

interface PolicyRow {
  default_kind: DepositKind;
  default_per_cover_paise: number;
  free_cancel_minutes: number;
  late_cancel_keep_percent: number;
  no_show_keep_percent: number;
  updated_at: Date | string;
}

interface RuleRow {
  days: number[];
  from_time: string;
  until_time: string;
  kind: DepositKind;
  per_cover_paise: number;
}

export interface StoredDepositPolicy {
  policy: DepositPolicy;
  updatedAt: Date | string;
}

/** A restaurant's stored policy with its rules in order, or undefined when it never set one. */
export async function findDepositPolicy(db: Db, restaurantId: string): Promise<StoredDepositPolicy | undefined> {
  const [row] = await queryRows<PolicyRow>(
    db,
    sql`SELECT default_kind, default_per_cover_paise, free_cancel_minutes, late_cancel_keep_percent, no_show_keep_percent, updated_at
        FROM deposit_policies WHERE restaurant_id = ${restaurantId}`,
  );
  if (!row) return undefined;
  const rules = await queryRows<RuleRow>(
    db,
    sql`SELECT days, from_time, until_time, kind, per_cover_paise FROM deposit_policy_rules WHERE restaurant_id = ${restaurantId} ORDER BY position`,
  );
  return {
    updatedAt: row.updated_at,
    policy: {
      defaultCharge: { kind: row.default_kind, perCoverPaise: row.default_per_cover_paise },
      rules: rules.map((rule) => ({
        days: rule.days.map(Number),
        fromTime: rule.from_time,
        untilTime: rule.until_time,
        kind: rule.kind,
        perCoverPaise: rule.per_cover_paise,
      })),
      freeCancelMinutes: row.free_cancel_minutes,
      lateCancelKeepPercent: row.late_cancel_keep_percent,
      noShowKeepPercent: row.no_show_keep_percent,
    },
  };
}

/** Replaces a restaurant's policy and all its rules (call inside a transaction). */
export async function replaceDepositPolicy(db: Db, restaurantId: string, policy: DepositPolicy, change: { staffId: string; now: Date }): Promise<void> {
  await db.execute(
    sql`INSERT INTO deposit_policies (restaurant_id, default_kind, default_per_cover_paise, free_cancel_minutes, late_cancel_keep_percent,
                                      no_show_keep_percent, updated_at, updated_by)
        VALUES (${restaurantId}, ${policy.defaultCharge.kind}, ${policy.defaultCharge.perCoverPaise}, ${policy.freeCancelMinutes},
                ${policy.lateCancelKeepPercent}, ${policy.noShowKeepPercent}, ${change.now.toISOString()}, ${change.staffId})
        ON CONFLICT (restaurant_id) DO UPDATE SET
          default_kind = EXCLUDED.default_kind, default_per_cover_paise = EXCLUDED.default_per_cover_paise,
          free_cancel_minutes = EXCLUDED.free_cancel_minutes, late_cancel_keep_percent = EXCLUDED.late_cancel_keep_percent,
          no_show_keep_percent = EXCLUDED.no_show_keep_percent, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
  );
  await db.execute(sql`DELETE FROM deposit_policy_rules WHERE restaurant_id = ${restaurantId}`);
  for (const [position, rule] of policy.rules.entries()) {
    await db.execute(
      sql`INSERT INTO deposit_policy_rules (restaurant_id, position, days, from_time, until_time, kind, per_cover_paise)
          VALUES (${restaurantId}, ${position}, ${`{${rule.days.join(',')}}`}::integer[], ${rule.fromTime}, ${rule.untilTime}, ${rule.kind},
                  ${rule.perCoverPaise})`,
    );
  }
}
