import { sql } from 'drizzle-orm';
import type { CapturePurpose, LedgerLine, PaymentIntentStatus, PayoutStatus, PostingKind } from '#common/domain/payment-intent.ts';
import type { PaymentProvider, PaymentPurpose } from '#common/contract/payments.ts';
import { queryRows, type Db } from '#server/db/client.ts';

/** Payments' SQL: intents, the ledger, the webhook inbox, provider calls and payouts. No rules here. */

export interface IntentRow {
  id: string;
  account_id: string;
  restaurant_id: string;
  restaurant_name: string;
  purpose: PaymentPurpose;
  reservation_id: string | null;
  dating_plan_id: string | null;
  amount_paise: number;
  provider: PaymentProvider;
  provider_ref: string | null;
  provider_payment_ref: string | null;
  status: PaymentIntentStatus;
  authorised_paise: number;
  captured_paise: number;
  refunded_paise: number;
  capture_requested_paise: number | null;
  capture_purpose: CapturePurpose | null;
  refund_requested_paise: number | null;
  idempotency_key: string;
  approve_by: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const intentSelect = sql`SELECT p.*, r.name AS restaurant_name FROM payment_intents p JOIN restaurants r ON r.id = p.restaurant_id`;

export async function findIntent(db: Db, id: string): Promise<IntentRow | undefined> {
  const [row] = await queryRows<IntentRow>(db, sql`${intentSelect} WHERE p.id = ${id}`);
  return row;
}

/** Locks an intent's row: every move of one intent happens one at a time. */
export async function lockIntent(db: Db, id: string): Promise<IntentRow | undefined> {
  const [row] = await queryRows<IntentRow>(db, sql`${intentSelect} WHERE p.id = ${id} FOR UPDATE OF p`);
  return row;
}

export async function lockIntentByProviderRef(db: Db, provider: PaymentProvider, providerRef: string): Promise<IntentRow | undefined> {
  const [row] = await queryRows<IntentRow>(db, sql`${intentSelect} WHERE p.provider = ${provider} AND p.provider_ref = ${providerRef} FOR UPDATE OF p`);
  return row;
}

export async function findIntentByKey(db: Db, idempotencyKey: string): Promise<IntentRow | undefined> {
  const [row] = await queryRows<IntentRow>(db, sql`${intentSelect} WHERE p.idempotency_key = ${idempotencyKey}`);
  return row;
}

export function listIntentsOfAccount(db: Db, accountId: string, limit: number): Promise<IntentRow[]> {
  return queryRows<IntentRow>(db, sql`${intentSelect} WHERE p.account_id = ${accountId} ORDER BY p.created_at DESC, p.id LIMIT ${limit}`);
}

export function listIntentsOfRestaurant(db: Db, restaurantId: string, limit: number): Promise<IntentRow[]> {
  return queryRows<IntentRow>(db, sql`${intentSelect} WHERE p.restaurant_id = ${restaurantId} ORDER BY p.created_at DESC, p.id LIMIT ${limit}`);
}

export interface NewIntent {
  accountId: string;
  restaurantId: string;
  purpose: PaymentPurpose;
  reservationId: string | null;
  datingPlanId: string | null;
  amountPaise: number;
  provider: PaymentProvider;
  idempotencyKey: string;
  approveBy: Date | null;
  now: Date;
}

/** Inserts a CREATED intent; undefined when its idempotency key is taken (a retry). */
export async function insertIntent(db: Db, intent: NewIntent): Promise<string | undefined> {
  const now = intent.now.toISOString();
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO payment_intents (account_id, restaurant_id, purpose, reservation_id, dating_plan_id, amount_paise, provider, status,
                                     idempotency_key, approve_by, created_at, updated_at)
        VALUES (${intent.accountId}, ${intent.restaurantId}, ${intent.purpose}, ${intent.reservationId}, ${intent.datingPlanId}, ${intent.amountPaise},
                ${intent.provider}, 'CREATED', ${intent.idempotencyKey}, ${intent.approveBy?.toISOString() ?? null}, ${now}, ${now})
        ON CONFLICT (idempotency_key) DO NOTHING
        RETURNING id`,
  );
  return row?.id;
}

export async function setProviderRef(db: Db, id: string, providerRef: string, now: Date): Promise<void> {
  await db.execute(sql`UPDATE payment_intents SET provider_ref = ${providerRef}, updated_at = ${now.toISOString()} WHERE id = ${id} AND provider_ref IS NULL`);
}

/** The columns a move may change besides the status. */
export interface IntentChanges {
  status: PaymentIntentStatus;
  authorisedPaise?: number;
  capturedPaise?: number;
  refundedPaise?: number;
  captureRequestedPaise?: number;
  capturePurpose?: CapturePurpose;
  refundRequestedPaise?: number;
  providerPaymentRef?: string | null;
}

export async function updateIntent(db: Db, id: string, changes: IntentChanges, now: Date): Promise<void> {
  await db.execute(sql`UPDATE payment_intents SET
      status = ${changes.status},
      authorised_paise = coalesce(${changes.authorisedPaise ?? null}::int, authorised_paise),
      captured_paise = coalesce(${changes.capturedPaise ?? null}::int, captured_paise),
      refunded_paise = coalesce(${changes.refundedPaise ?? null}::int, refunded_paise),
      capture_requested_paise = coalesce(${changes.captureRequestedPaise ?? null}::int, capture_requested_paise),
      capture_purpose = coalesce(${changes.capturePurpose ?? null}::text, capture_purpose),
      refund_requested_paise = coalesce(${changes.refundRequestedPaise ?? null}::int, refund_requested_paise),
      provider_payment_ref = coalesce(${changes.providerPaymentRef ?? null}::text, provider_payment_ref),
      updated_at = ${now.toISOString()}
    WHERE id = ${id}`);
}

/** Intents still waiting for approval after their owner stopped waiting, locked and skipped by other sweepers. */
export function lockOverdueIntents(db: Db, now: Date, limit: number): Promise<{ id: string }[]> {
  return queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM payment_intents WHERE status = 'CREATED' AND approve_by <= ${now.toISOString()}
        ORDER BY approve_by LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
  );
}

/**
 * Writes one posting and its lines. The lines must sum to zero (checked here and again by the
 * database at commit); an intent posts each kind once, so a second attempt returns false.
 */
export async function insertPosting(
  db: Db,
  posting: { intentId: string; kind: Exclude<PostingKind, 'none'>; source: string; lines: LedgerLine[]; now: Date },
): Promise<boolean> {
  const total = posting.lines.reduce((sum, line) => sum + line.amountPaise, 0);
  if (total !== 0) throw new Error(`Unbalanced ${posting.kind} posting for intent ${posting.intentId}`);
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO ledger_postings (intent_id, kind, source, created_at) VALUES (${posting.intentId}, ${posting.kind}, ${posting.source}, ${posting.now.toISOString()})
        ON CONFLICT (intent_id, kind) DO NOTHING RETURNING id`,
  );
  if (!row) return false;
  const lines = posting.lines.filter((line) => line.amountPaise !== 0);
  await db.execute(
    sql`INSERT INTO ledger_lines (posting_id, account, amount_paise)
        SELECT ${row.id}, account, amount FROM unnest(${`{${lines.map((l) => l.account).join(',')}}`}::text[], ${`{${lines.map((l) => l.amountPaise).join(',')}}`}::int[]) AS l(account, amount)`,
  );
  return true;
}

/** Records a webhook in the inbox; false when the provider sent this event before. */
export async function insertEventOnce(
  db: Db,
  event: { provider: PaymentProvider; eventId: string; eventType: string; now: Date },
): Promise<number | undefined> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO payment_events (provider, event_id, event_type, outcome, received_at)
        VALUES (${event.provider}, ${event.eventId}, ${event.eventType}, 'unmatched', ${event.now.toISOString()})
        ON CONFLICT (provider, event_id) DO NOTHING RETURNING id`,
  );
  return row?.id;
}

export async function setEventOutcome(db: Db, id: number, intentId: string | null, outcome: 'applied' | 'ignored' | 'unmatched'): Promise<void> {
  await db.execute(sql`UPDATE payment_events SET intent_id = ${intentId}, outcome = ${outcome} WHERE id = ${id}`);
}

export type ProviderCallKind = 'authorise' | 'capture' | 'release' | 'refund';
export type ProviderCallOutcome = 'pending' | 'accepted' | 'timed_out' | 'refused';

export interface ProviderCallRow {
  id: number;
  intent_id: string;
  kind: ProviderCallKind;
  idempotency_key: string;
  amount_paise: number | null;
  outcome: ProviderCallOutcome;
  attempts: number;
}

export async function findProviderCall(db: Db, idempotencyKey: string): Promise<ProviderCallRow | undefined> {
  const [row] = await queryRows<ProviderCallRow>(db, sql`SELECT * FROM provider_calls WHERE idempotency_key = ${idempotencyKey}`);
  return row;
}

/** Records a call about to be made; undefined when the key was used before. */
export async function insertProviderCall(
  db: Db,
  call: { intentId: string; kind: ProviderCallKind; idempotencyKey: string; amountPaise: number | null; reason: string; now: Date },
): Promise<number | undefined> {
  const now = call.now.toISOString();
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO provider_calls (intent_id, kind, idempotency_key, amount_paise, reason, outcome, attempts, created_at, updated_at)
        VALUES (${call.intentId}, ${call.kind}, ${call.idempotencyKey}, ${call.amountPaise}, ${call.reason}, 'pending', 0, ${now}, ${now})
        ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
  );
  return row?.id;
}

/**
 * Capture, release and refund requests nobody heard back about (timed out, or never sent because
 * the process stopped), last tried before `triedBefore`, whose intent still waits on them.
 */
export function listUnansweredCalls(db: Db, triedBefore: Date, limit: number): Promise<ProviderCallRow[]> {
  return queryRows<ProviderCallRow>(
    db,
    sql`SELECT c.* FROM provider_calls c JOIN payment_intents p ON p.id = c.intent_id
        WHERE c.outcome IN ('timed_out', 'pending') AND c.updated_at <= ${triedBefore.toISOString()}
          AND ((c.kind = 'capture' AND p.status = 'CAPTURE_PENDING') OR (c.kind = 'release' AND p.status = 'RELEASE_PENDING')
            OR (c.kind = 'refund' AND p.status = 'REFUND_PENDING'))
        ORDER BY c.updated_at LIMIT ${limit}`,
  );
}

export async function recordCallOutcome(db: Db, idempotencyKey: string, outcome: ProviderCallOutcome, now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE provider_calls SET outcome = ${outcome}, attempts = attempts + 1, updated_at = ${now.toISOString()} WHERE idempotency_key = ${idempotencyKey}`,
  );
}

/** The balance of every ledger account (all intents, or one), for checks and reports. */
export function ledgerBalances(db: Db, intentId?: string): Promise<{ account: string; balance: number }[]> {
  return queryRows<{ account: string; balance: number }>(
    db,
    sql`SELECT l.account, sum(l.amount_paise)::bigint::float8 AS balance FROM ledger_lines l JOIN ledger_postings p ON p.id = l.posting_id
        ${intentId ? sql`WHERE p.intent_id = ${intentId}` : sql``} GROUP BY l.account ORDER BY l.account`,
  );
}

export interface LedgerExportRow {
  posted_at: Date | string;
  posting_id: number;
  intent_id: string;
  reservation_id: string | null;
  purpose: string;
  kind: string;
  account: string;
  amount_paise: number;
}

/** Every ledger line of a restaurant's intents posted in [from, to), in posting order. */
export async function listLedgerLinesOfRestaurant(db: Db, restaurantId: string, from: Date, to: Date): Promise<LedgerExportRow[]> {
  return queryRows<LedgerExportRow>(
    db,
    sql`SELECT p.created_at AS posted_at, p.id AS posting_id, i.id AS intent_id, i.reservation_id, i.purpose, p.kind, l.account, l.amount_paise
        FROM ledger_postings p JOIN ledger_lines l ON l.posting_id = p.id JOIN payment_intents i ON i.id = p.intent_id
        WHERE i.restaurant_id = ${restaurantId} AND p.created_at >= ${from.toISOString()} AND p.created_at < ${to.toISOString()}
        ORDER BY p.id, l.account`,
  );
}

export interface PayoutRow {
  id: string;
  source_intent_id: string;
  to_account_id: string;
  amount_paise: number;
  provider: PaymentProvider;
  provider_ref: string | null;
  status: PayoutStatus;
  idempotency_key: string;
  attempts: number;
  created_at: Date | string;
  updated_at: Date | string;
}

/** Records a PENDING payout of an intent's capture; nothing when the intent (or the key) has one already. */
export async function insertPayoutOnce(
  db: Db,
  payout: { sourceIntentId: string; toAccountId: string; amountPaise: number; provider: PaymentProvider; idempotencyKey: string; now: Date },
): Promise<void> {
  const now = payout.now.toISOString();
  await db.execute(
    sql`INSERT INTO payouts (source_intent_id, to_account_id, amount_paise, provider, status, idempotency_key, attempts, created_at, updated_at)
        VALUES (${payout.sourceIntentId}, ${payout.toAccountId}, ${payout.amountPaise}, ${payout.provider}, 'PENDING', ${payout.idempotencyKey}, 0, ${now}, ${now})
        ON CONFLICT DO NOTHING`,
  );
}

export async function findPayoutOfIntent(db: Db, intentId: string): Promise<PayoutRow | undefined> {
  const [row] = await queryRows<PayoutRow>(db, sql`SELECT * FROM payouts WHERE source_intent_id = ${intentId}`);
  return row;
}

export async function lockPayout(db: Db, id: string): Promise<PayoutRow | undefined> {
  const [row] = await queryRows<PayoutRow>(db, sql`SELECT * FROM payouts WHERE id = ${id} FOR UPDATE`);
  return row;
}

/** Locks the payout a provider event names: by our id (its reference) when given, else by the provider's payout id. */
export async function lockPayoutForEvent(db: Db, provider: PaymentProvider, payoutId: string | null, providerRef: string): Promise<PayoutRow | undefined> {
  const match = payoutId ? sql`(id = ${payoutId}::uuid OR provider_ref = ${providerRef})` : sql`provider_ref = ${providerRef}`;
  const [row] = await queryRows<PayoutRow>(db, sql`SELECT * FROM payouts WHERE provider = ${provider} AND ${match} ORDER BY id LIMIT 1 FOR UPDATE`);
  return row;
}

export async function setPayoutStatus(db: Db, id: string, status: PayoutStatus, providerRef: string | null, now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE payouts SET status = ${status}, provider_ref = coalesce(provider_ref, ${providerRef}::text), updated_at = ${now.toISOString()} WHERE id = ${id}`,
  );
}

/** Counts one send of a payout (answered or not) and keeps the provider's payout id when it gave one. */
export async function recordPayoutAttempt(db: Db, id: string, providerRef: string | null, now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE payouts SET attempts = attempts + 1, provider_ref = coalesce(provider_ref, ${providerRef}::text), updated_at = ${now.toISOString()}
        WHERE id = ${id}`,
  );
}

/**
 * PENDING payouts whose capture is confirmed and whose last attempt (or creation) is before
 * `triedBefore`, claimed by moving their updated_at to `now`: another sweeper running at the same
 * time skips the locked rows and, afterwards, finds them tried just now.
 */
export function claimDuePayouts(db: Db, triedBefore: Date, now: Date, limit: number): Promise<PayoutRow[]> {
  return queryRows<PayoutRow>(
    db,
    sql`UPDATE payouts SET updated_at = ${now.toISOString()}
        WHERE id IN (
          SELECT o.id FROM payouts o JOIN payment_intents p ON p.id = o.source_intent_id
          WHERE o.status = 'PENDING' AND o.updated_at <= ${triedBefore.toISOString()} AND p.status = 'CAPTURED' AND p.capture_purpose = 'pay_member'
          ORDER BY o.updated_at LIMIT ${limit} FOR UPDATE OF o SKIP LOCKED)
        RETURNING *`,
  );
}

export interface StatementRow extends IntentRow {
  booking_id: string | null;
  starts_at: Date | string | null;
  guest_name: string | null;
}

/**
 * Each paid (or once paid) intent of a restaurant whose booking starts in [from, to), with the
 * booking it paid for and its guest's name: a read-only look at reservations and users (and a
 * date's plan), which the restaurant's statement needs (decision 224). In booking order.
 */
export async function listStatementRows(db: Db, restaurantId: string, from: Date, to: Date): Promise<StatementRow[]> {
  return queryRows<StatementRow>(
    db,
    sql`SELECT p.*, rest.name AS restaurant_name, b.id AS booking_id, b.starts_at, u.name AS guest_name
        FROM payment_intents p JOIN restaurants rest ON rest.id = p.restaurant_id
        LEFT JOIN dating_plans dp ON dp.id = p.dating_plan_id
        JOIN reservations b ON b.id = COALESCE(p.reservation_id, dp.reservation_id)
        LEFT JOIN users u ON u.id = b.user_id
        WHERE p.restaurant_id = ${restaurantId} AND p.authorised_paise > 0
          AND b.starts_at >= ${from.toISOString()} AND b.starts_at < ${to.toISOString()}
        ORDER BY b.starts_at, p.created_at`,
  );
}
