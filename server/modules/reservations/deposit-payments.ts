import { formatRupees } from '#common/domain/deposit-policy.ts';
import { formatDateShort, formatTime12h, toKolkata } from '#common/domain/time.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { PaymentStatusChange, PaymentsService } from '#server/modules/payments/payments.service.ts';
import { findDepositByIntent, markAuthorised, type ReservationDepositRow } from './deposits.repository.ts';
import type { ReservationsService } from './reservations.service.ts';

/**
 * What payments tells the deposits code (its listener, wired in server/composition.ts): an
 * authorisation books the hold it pays for (HELD → PENDING, the diner's Confirm completed), or is
 * rejected when the hold is gone; every settled money event is told to the diner by email.
 */
export function createDepositPayments(
  { db, clock, log }: Pick<AppDeps, 'db' | 'clock' | 'log'>,
  reservations: ReservationsService,
  payments: PaymentsService,
  notifications: NotificationsService,
) {
  async function email(deposit: ReservationDepositRow, subject: string, sentence: string): Promise<void> {
    const { date, time } = toKolkata(asDate(deposit.starts_at));
    const body = `${sentence}\n\nYour table for ${deposit.party_size} at ${deposit.restaurant_name} on ${formatDateShort(date)} at ${formatTime12h(time)}.\n\n${deposit.plain_words}`;
    await notifications.queueEmailToUser(db, deposit.user_id, { subject, body }).catch((error: unknown) => {
      log.warn({ err: error, reservationId: deposit.reservation_id }, 'deposit email not queued');
    });
  }

  /**
   * The deposit is authorised: the hold becomes PENDING through the same move, lock and rules as
   * Confirm, so a hold that expired or was cancelled meanwhile is refused ('reject': payments then
   * releases the money, it never becomes a booking).
   */
  async function bookPaidHold(deposit: ReservationDepositRow): Promise<void | 'reject'> {
    try {
      await reservations.moveReservation({
        id: deposit.reservation_id,
        to: 'PENDING',
        cause: { kind: 'depositAuthorised' },
        authorise: () => {},
        alsoInTransaction: (tx, moved) => markAuthorised(tx, moved.id, clock.now()),
      });
    } catch {
      return 'reject';
    }
    await email(
      deposit,
      `${formatRupees(deposit.amount_paise)} blocked: your booking request is sent`,
      `We blocked ${formatRupees(deposit.amount_paise)} as your deposit and sent your request to ${deposit.restaurant_name}.`,
    );
  }

  return {
    /** Payments tells of an authorisation or a settled move of a reservation's deposit (committed); 'reject' releases a late authorisation. */
    async onPaymentChange(change: PaymentStatusChange): Promise<void | 'reject'> {
      const deposit = await findDepositByIntent(db, change.intentId);
      // Not a Confirm's payment (the diner never saw an approval link without its deposit row written).
      if (!deposit) return;
      if (change.to === 'AUTHORISED') return bookPaidHold(deposit);
      const intent = await payments.readIntent(change.intentId);
      if (change.to === 'RELEASED') {
        await email(
          deposit,
          `${formatRupees(deposit.amount_paise)} released`,
          `The ${formatRupees(deposit.amount_paise)} we blocked is released in full; nothing was taken.`,
        );
      } else if (change.to === 'CAPTURED' && intent.capturePurpose === 'credit_at_table') {
        await email(
          deposit,
          `${formatRupees(intent.capturedPaise)} credited on your bill`,
          `Your deposit of ${formatRupees(intent.capturedPaise)} is credit on your bill at ${deposit.restaurant_name}.`,
        );
      } else if (change.to === 'CAPTURED') {
        const rest = intent.authorisedPaise - intent.capturedPaise;
        await email(
          deposit,
          `${formatRupees(intent.capturedPaise)} kept as a fee`,
          `${deposit.restaurant_name} kept ${formatRupees(intent.capturedPaise)} as its fee${rest > 0 ? `; the other ${formatRupees(rest)} is released` : ''}.`,
        );
      } else if (change.to === 'REFUNDED') {
        await email(
          deposit,
          `${formatRupees(intent.refundedPaise)} refunded`,
          `The fee of ${formatRupees(intent.refundedPaise)} is waived and refunded to you.`,
        );
      }
    },
  };
}
