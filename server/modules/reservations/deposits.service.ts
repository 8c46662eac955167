import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { PaymentsService } from '#server/modules/payments/payments.service.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import type { DisputeUpheld } from '#server/modules/strikes/strikes.service.ts';
import { createConfirmHold } from './confirm-hold.ts';
import { createDepositMoney } from './deposit-money.ts';
import { createDepositPayments } from './deposit-payments.ts';
import { createDepositReports } from './deposit-reports.ts';
import { createDepositRequirement } from './deposit-requirement.ts';
import { listUndoneMoves, listUnbookedDeposits } from './deposits.repository.ts';
import { findReservation } from './reservations.repository.ts';
import type { ReservationsService } from './reservations.service.ts';
import { BOOKING_NOT_FOUND } from './reservation-view.ts';

const SWEEP_BATCH = 100;
/** How far back the sweep looks for an authorisation whose listener never ran (holds last minutes). */
const UNBOOKED_LOOKBACK_MS = 24 * 3_600_000;

/**
 * Deposits end to end (docs/payments.md), the money side of reservations: Confirm on a slot that
 * asks a deposit starts an authorisation for the amount the server computes (confirm-hold.ts);
 * payments' authorisation books the hold and every settled money event is emailed
 * (deposit-payments.ts); each reservation move decides its money move in the deposits' own move
 * step, and one executor in payments takes it after commit (deposit-money.ts). The handlers other
 * code calls back are wired in server/composition.ts.
 */
export function createDepositsService(
  deps: AppDeps,
  reservations: ReservationsService,
  payments: PaymentsService,
  notifications: NotificationsService,
  restaurants: RestaurantsService,
) {
  const { db, clock, log } = deps;
  const money = createDepositMoney(deps, payments);
  const { onPaymentChange } = createDepositPayments(deps, reservations, payments, notifications);

  return {
    confirmHold: createConfirmHold(deps, reservations, payments, createDepositRequirement(deps, restaurants)),
    ...createDepositReports(deps, payments),

    /** Listener of payments' status changes of reservation deposits and prepayments. */
    onPaymentChange,
    /** Move step of every reservation move: its money move (decision 130). */
    moneyMoveStep: money.moneyMoveStep,
    releaseFeeNow: money.releaseFeeNow,

    /** Listener of upheld strike disputes: the no-show fee is refunded (`depositMoves`' `disputeUpheld`). */
    onDisputeUpheld(upheld: DisputeUpheld): void {
      money.recordMoneyEvent(upheld.reservationId, 'disputeUpheld', 'staff').catch((error: unknown) => {
        log.warn({ err: error, reservationId: upheld.reservationId }, 'dispute refund not recorded');
      });
    },

    /** Staff waive the fee of their own restaurant's late cancel or no-show. */
    async waiveFee(principal: Principal, id: string): Promise<void> {
      requireStaff(principal);
      const row = await findReservation(db, id);
      if (!row || row.restaurant_id !== principal.restaurantId) throw notFound(BOOKING_NOT_FOUND);
      if (!(await money.recordMoneyEvent(id, 'staffWaiver', 'staff'))) throw conflict('This booking has no fee to waive');
    },

    /**
     * The sweep: money moves decided but not taken (a crash after commit, a busy provider), and
     * authorisations whose listener never ran (a process dying after payments committed them).
     */
    async sweep(): Promise<number> {
      let done = 0;
      for (const reservationId of await listUndoneMoves(db, SWEEP_BATCH)) {
        await money.settleMoneyMove(reservationId);
        done += 1;
      }
      for (const deposit of await listUnbookedDeposits(db, new Date(clock.now().getTime() - UNBOOKED_LOOKBACK_MS), SWEEP_BATCH)) {
        if (await payments.redeliverAuthorisation(deposit.intent_id, 'authorised for a hold that is gone')) done += 1;
      }
      return done;
    },
  };
}

export type DepositsService = ReturnType<typeof createDepositsService>;
