import type { ConfirmReservationResponse } from '#common/contract/reservations.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import type { PaymentsService } from '#server/modules/payments/payments.service.ts';
import type { CurrentRequirement } from './deposit-requirement.ts';
import { findDeposit, insertDepositOnce } from './deposits.repository.ts';
import type { ReservationsService } from './reservations.service.ts';
import { toDinerReservation } from './reservation-view.ts';

/**
 * The hold screen's Confirm (POST /api/reservations/{id}/confirm): where the slot asks nothing,
 * HELD → PENDING as before; otherwise an authorisation for the amount computed here (never by the
 * client), one per reservation, approved before the hold expires. The hold stays HELD until
 * payments says authorised (deposit-payments.ts books it then).
 */
export function createConfirmHold(
  { db, clock }: Pick<AppDeps, 'db' | 'clock'>,
  reservations: ReservationsService,
  payments: PaymentsService,
  currentRequirement: CurrentRequirement,
) {
  return async function confirmHold(principal: Principal, id: string): Promise<ConfirmReservationResponse> {
    const row = await reservations.readHoldForConfirm(principal, id);
    const requirement = await currentRequirement(principal, row, clock.now());
    if (requirement.kind === 'none') return { ...(await reservations.confirmReservation(principal, id)), payment: null };
    const now = clock.now();
    const view = toDinerReservation(row, now);
    if (view.status !== 'HELD') return { ...(await reservations.confirmReservation(principal, id)), payment: null };
    const existing = await findDeposit(db, id);
    // A second press pays what the first asked, whatever the policy says now.
    const amountPaise = existing?.amount_paise ?? requirement.amountPaise;
    const started = await payments.startAuthorisation({
      accountId: row.user_id,
      reservationId: row.id,
      restaurantId: row.restaurant_id,
      amountPaise,
      purpose: (existing?.kind ?? requirement.kind) === 'prepayment' ? 'reservation_prepayment' : 'reservation_deposit',
      idempotencyKey: `reservation-deposit:${row.id}`,
      approveBy: row.hold_expires_at ? asDate(row.hold_expires_at) : undefined,
    });
    await insertDepositOnce(db, { reservationId: row.id, intentId: started.intentId, requirement, now });
    return { ...view, payment: { intentId: started.intentId, amountPaise, approvalUrl: started.approvalUrl } };
  };
}
