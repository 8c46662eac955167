import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';
import type { PaymentsService } from './payments.service.ts';

/** Shared by the payments tests and the benchmark: start an intent, read the ledger. */

export const DEPOSIT_PAISE = 50_000;

export function startDeposit(
  payments: PaymentsService,
  accountId: string,
  restaurantId: string,
  options: { key?: string; amountPaise?: number; approveBy?: Date } = {},
) {
  return payments.startAuthorisation({
    accountId,
    restaurantId,
    reservationId: randomUUID(),
    amountPaise: options.amountPaise ?? DEPOSIT_PAISE,
    purpose: 'reservation_deposit',
    idempotencyKey: options.key ?? `hold:${randomUUID()}`,
    approveBy: options.approveBy,
  });
}

/** Every account's balance over the whole ledger (or one intent), as a plain object. */
export async function balances(db: Db, intentId?: string): Promise<Record<string, number>> {
  const rows = await queryRows<{ account: string; balance: string | number }>(
    db,
    sql`SELECT l.account, sum(l.amount_paise)::bigint AS balance FROM ledger_lines l JOIN ledger_postings p ON p.id = l.posting_id
        ${intentId ? sql`WHERE p.intent_id = ${intentId}` : sql``} GROUP BY l.account`,
  );
  return Object.fromEntries(rows.filter((row) => Number(row.balance) !== 0).map((row) => [row.account, Number(row.balance)]));
}

/** Postings whose lines do not sum to zero (there must be none). */
export async function unbalancedPostings(db: Db): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM (SELECT posting_id FROM ledger_lines GROUP BY posting_id HAVING sum(amount_paise) <> 0) unbalanced`,
  );
  return row.count;
}

export async function countRows(db: Db, table: 'payment_events' | 'ledger_postings' | 'provider_calls', intentId?: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM ${sql.raw(table)} ${intentId ? sql`WHERE intent_id = ${intentId}` : sql``}`,
  );
  return row.count;
}

/** The webhooks an intent received, oldest first, and what each did (applied, ignored). */
export function eventOutcomes(db: Db, intentId: string): Promise<{ event_type: string; outcome: string }[]> {
  return queryRows<{ event_type: string; outcome: string }>(db, sql`SELECT event_type, outcome FROM payment_events WHERE intent_id = ${intentId} ORDER BY id`);
}
