import { depositFigures, feeReasonOf, moneyEmail, type DepositFigures } from '#common/domain/money-sentences.ts';
import { formatDateShort, formatTime12h, toKolkata } from '#common/domain/time.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { PaymentStatusChange, PaymentsService } from '#server/modules/payments/payments.service.ts';
import type { DepositMoney } from './deposit-money.ts';
import { findDepositByIntent, listResoldCandidates, markAuthorised, type ReservationDepositRow } from './deposits.repository.ts';
import { findReservation } from './reservations.repository.ts';
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
  money: DepositMoney,
) {
  /** The deposit email for these figures (money-sentences.ts): what happened, and the agreed terms only while the money is blocked. */
  async function email(deposit: ReservationDepositRow, figures: DepositFigures): Promise<void> {
    const words = moneyEmail(figures, deposit.restaurant_name);
    if (!words) return;
    const { date, time } = toKolkata(asDate(deposit.starts_at));
    const table = `Your table for ${deposit.party_size} at ${deposit.restaurant_name} on ${formatDateShort(date)} at ${formatTime12h(time)}.`;
    const body = `${words.sentence}\n\n${table}${words.withTerms ? `\n\nWhat you agreed: ${deposit.plain_words}` : ''}`;
    await notifications.queueEmailToUser(db, deposit.user_id, { subject: words.subject, body }).catch((error: unknown) => {
      log.warn({ err: error, reservationId: deposit.reservation_id }, 'deposit email not queued');
    });
  }

  /** A late cancel's covers taken by a new booking on the slot before the start: its fee is waived (decision 131). */
  async function waiveResoldLateCancels(reservationId: string): Promise<void> {
    const booked = await findReservation(db, reservationId);
    if (!booked) return;
    let covers = booked.party_size;
    for (const candidate of await listResoldCandidates(db, booked.slot_id, clock.now())) {
      if (candidate.reservation_id === reservationId || candidate.party_size > covers) continue;
      covers -= candidate.party_size;
      await money.recordMoneyEvent(candidate.reservation_id, 'tableResold', 'system');
    }
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
    const intent = await payments.readIntent(deposit.intent_id);
    await email(deposit, depositFigures({ ...intent, amountPaise: deposit.amount_paise }));
    await waiveResoldLateCancels(deposit.reservation_id);
  }

  return {
    /** Payments tells of an authorisation or a settled move of a reservation's deposit (committed); 'reject' releases a late authorisation. */
    async onPaymentChange(change: PaymentStatusChange): Promise<void | 'reject'> {
      const deposit = await findDepositByIntent(db, change.intentId);
      // Not a Confirm's payment (the diner never saw an approval link without its deposit row written).
      if (!deposit) return;
      if (change.to === 'AUTHORISED') return bookPaidHold(deposit);
      if (change.to !== 'RELEASED' && change.to !== 'CAPTURED' && change.to !== 'REFUNDED') return;
      const intent = await payments.readIntent(change.intentId);
      await email(
        deposit,
        depositFigures({ ...intent, amountPaise: deposit.amount_paise }, { feeReason: feeReasonOf(deposit.late_cancel, deposit.reservation_status) }),
      );
    },
  };
}
