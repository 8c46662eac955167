import { startAuthorisationInput, type StartAuthorisationInput, type StartAuthorisationResult } from '#common/contract/payments.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, badInput, conflict } from '#server/errors.ts';
import { parse } from './intent-transitions.ts';
import { ProviderRefused, ProviderTimeout, type PaymentProviderDriver } from './payment-provider.ts';
import { findIntent, findIntentByKey, insertIntent, insertProviderCall, recordCallOutcome, setProviderRef } from './payments.repository.ts';

/**
 * Starts an authorisation for money the calling service computed (never the client). The same
 * idempotency key returns the same intent (and finishes its provider call if that timed out).
 */
export function createStartAuthorisation({ db, clock }: Pick<AppDeps, 'db' | 'clock'>, driver: PaymentProviderDriver) {
  return async function startAuthorisation(input: StartAuthorisationInput): Promise<StartAuthorisationResult> {
    const request = parse(startAuthorisationInput, input);
    let row = await findIntentByKey(db, request.idempotencyKey);
    if (row && (row.account_id !== request.accountId || row.amount_paise !== request.amountPaise || row.purpose !== request.purpose)) {
      throw conflict('That idempotency key was used for another payment');
    }
    if (!row) {
      const id = await db
        .transaction(async (tx) => {
          const intentId = await insertIntent(tx, {
            accountId: request.accountId,
            restaurantId: request.restaurantId,
            purpose: request.purpose,
            reservationId: request.reservationId ?? null,
            datingPlanId: request.datingPlanId ?? null,
            amountPaise: request.amountPaise,
            provider: driver.name,
            idempotencyKey: request.idempotencyKey,
            approveBy: request.approveBy ?? null,
            now: clock.now(),
          });
          if (intentId) {
            await insertProviderCall(tx, {
              intentId,
              kind: 'authorise',
              idempotencyKey: request.idempotencyKey,
              amountPaise: request.amountPaise,
              reason: '',
              now: clock.now(),
            });
          }
          return intentId;
        })
        .catch((error: unknown) => {
          const code = ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string })).code;
          if (code === '23503') throw badInput('restaurantId: no such restaurant');
          throw error;
        });
      row = await (id ? findIntent(db, id) : findIntentByKey(db, request.idempotencyKey));
      if (!row) throw new Error('The payment intent vanished after it was written');
    }
    let approvalUrl: string | null = row.provider === 'sandbox' ? `/pay/sandbox/${row.id}` : null;
    if (!row.provider_ref) {
      try {
        const created = await driver.createAuthorisation({
          intentId: row.id,
          amountPaise: row.amount_paise,
          purpose: row.purpose,
          idempotencyKey: row.idempotency_key,
          approveBy: row.approve_by ? asDate(row.approve_by) : undefined,
        });
        await setProviderRef(db, row.id, created.providerRef, clock.now());
        await recordCallOutcome(db, row.idempotency_key, 'accepted', clock.now());
        row = { ...row, provider_ref: created.providerRef };
        approvalUrl = created.approvalUrl;
      } catch (error) {
        if (error instanceof ProviderTimeout) {
          await recordCallOutcome(db, row.idempotency_key, 'timed_out', clock.now());
          throw new AppError('UNAVAILABLE', 'The payment provider did not answer. Please try again.');
        }
        if (error instanceof ProviderRefused) {
          await recordCallOutcome(db, row.idempotency_key, 'refused', clock.now());
          throw new AppError('UNAVAILABLE', 'The payment provider could not start this payment. Please try again later.');
        }
        throw error;
      }
    }
    return { intentId: row.id, status: row.status, approvalUrl, providerRef: row.provider_ref };
  };
}
