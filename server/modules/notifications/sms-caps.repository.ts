import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';

/**
 * Text-message caps (decision 095) counted in `rate_limit_counters`, under keys starting `sms:`
 * that the rate-limit store's cleanup leaves alone. Counted in the transaction that queues the
 * text, so a refusal or a rollback gives the count back, and N instances share the numbers.
 */

/** Adds one text to a cap's window and returns the window's total including it. */
export async function countSmsInWindow(db: Db, key: string, windowStart: Date): Promise<number> {
  const [row] = await queryRows<{ hits: number }>(
    db,
    sql`INSERT INTO rate_limit_counters (key, window_start, hits) VALUES (${`sms:${key}`}, ${windowStart.toISOString()}, 1)
        ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
        RETURNING hits`,
  );
  return Number(row.hits);
}

/** Drops the caps' windows that ended long ago. */
export async function deleteOldSmsCounts(db: Db, before: Date): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limit_counters WHERE key LIKE 'sms:%' AND window_start < ${before.toISOString()}`);
}
