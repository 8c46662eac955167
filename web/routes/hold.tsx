import { useEffect, useEffectEvent, useState } from 'react';
import { endSentence } from '#common/domain/sentences.ts';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { DepositRequirementView } from '#common/contract/deposits.ts';
import type { DinerReservation } from '#common/contract/reservations.ts';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import { ApiError, errorMessage } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { Alert, EmptyState, LoadingScreen, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useDismissToast, useToast } from '#web/components/ui/Toast.tsx';
import { writeBookingParams } from '#common/domain/booking-choice.ts';
import { reservationKeys, useCancelReservation, useConfirmHold, useReservation } from '#web/features/reservations/api.ts';
import { HoldCountdown } from '#web/features/reservations/HoldCountdown.tsx';
import { ReservationSummary } from '#web/features/reservations/ReservationSummary.tsx';
import { CANCEL_HOLD_QUESTION, CONFIRM_FALLBACKS, statusLabel } from '#web/features/reservations/rules.ts';
import { useSecondsLeft } from '#web/features/reservations/useSecondsLeft.ts';
import { restaurantKeys } from '#web/features/restaurants/keys.ts';
import '#web/features/reservations/reservations.css';

/** How long the "hold ended" state shows before the diner is taken back to the restaurant. */
const EXPIRED_REDIRECT_MS = 2500;

/** /r/{slug}/hold/{reservationId} and /hold/{id}: confirm the held table before the countdown ends. */
export default function HoldScreen() {
  const params = useParams();
  const id = params.reservationId ?? params.id ?? '';
  // Back from the payment page: `payment=approved` or `declined` (decision 133).
  const [search] = useSearchParams();
  const paymentAnswer = search.get('payment');
  const reservation = useReservation(id, { pollMs: paymentAnswer === 'approved' ? 1000 : undefined });
  // While confirming or cancelling, the screen stays as it is until we navigate away.
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    document.title = 'Confirm your table · Tablefair';
  }, []);

  if (reservation.isPending) return <HoldSkeleton />;
  if (reservation.isError) {
    const missing = reservation.error instanceof ApiError && reservation.error.status >= 400 && reservation.error.status < 500;
    return (
      <div className="container page">
        <div className="hold-empty">
          {missing ? (
            <EmptyState icon="🧾" title={<h1>Reservation not found – This reservation may have expired or been cancelled.</h1>}>
              <p className="hold-empty__actions">
                <ButtonLink to="/explore-tonight">Find a table today</ButtonLink>
                <ButtonLink to="/me" variant="secondary">
                  My reservations
                </ButtonLink>
              </p>
            </EmptyState>
          ) : (
            <EmptyState icon="⚠️" title={<h1>This hold could not load</h1>}>
              <p>Check your connection and try again. Your hold keeps running meanwhile.</p>
              <p className="hold-empty__actions">
                <Button onClick={() => void reservation.refetch()}>Try again</Button>
              </p>
            </EmptyState>
          )}
        </div>
      </div>
    );
  }
  if (reservation.data.status !== 'HELD' && !leaving) return <HoldSettled reservation={reservation.data} />;
  return <HoldLive reservation={reservation.data} onLeaving={setLeaving} paymentAnswer={paymentAnswer} />;
}

function restaurantPath(reservation: DinerReservation, withChoice = false): string {
  const base = `/r/${encodeURIComponent(reservation.restaurant.slug)}`;
  return withChoice ? `${base}${writeBookingParams({ date: reservation.slot.date, party: reservation.partySize })}` : base;
}

function HoldLive({
  reservation,
  onLeaving,
  paymentAnswer,
}: {
  reservation: DinerReservation;
  onLeaving: (leaving: boolean) => void;
  paymentAnswer: string | null;
}) {
  const deposit = 'deposit' in reservation ? (reservation.deposit as DepositRequirementView) : undefined;
  const payLabel = deposit && deposit.kind !== 'none' ? `Pay ${formatRupees(deposit.amountPaise)} and confirm` : 'Confirm';
  const secondsLeft = useSecondsLeft(reservation.holdExpiresAt);
  const totalSeconds = reservation.holdExpiresAt ? Math.round((Date.parse(reservation.holdExpiresAt) - Date.parse(reservation.createdAt)) / 1000) : 0;
  // Confirmed or cancelled a moment ago (the answer is in the cache while we navigate away): not expired.
  const settled = reservation.status === 'HELD' ? null : reservation.status === 'CANCELLED' ? 'cancelled' : 'confirmed';
  const isExpired = !settled && secondsLeft <= 0;
  const confirm = useConfirmHold();
  const cancel = useCancelReservation(false);
  const [asking, setAsking] = useState(false);
  const toast = useToast();
  const dismissToast = useDismissToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // At zero: Confirm is disabled at once, and shortly after the diner goes back to the restaurant page.
  // Effect events: they read the latest props when called, and only reaching zero runs the effect.
  const rereadAfterExpiry = useEffectEvent(() => {
    void queryClient.invalidateQueries({ queryKey: reservationKeys.mine });
    void queryClient.invalidateQueries({ queryKey: restaurantKeys.all });
  });
  const leaveExpiredHold = useEffectEvent(() => {
    onLeaving(true);
    toast('Your hold ended and the table was released. Pick a time to try again.', 'info', { key: 'hold' });
    navigate(restaurantPath(reservation, true), { replace: true, state: { holdExpired: true } });
  });
  useEffect(() => {
    if (!isExpired) return;
    rereadAfterExpiry();
    const timer = window.setTimeout(() => leaveExpiredHold(), EXPIRED_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [isExpired]);

  async function onConfirm() {
    onLeaving(true);
    try {
      const { payment } = await confirm.mutateAsync(reservation.id);
      if (payment?.approvalUrl) {
        // The "table held" note has done its work: it does not follow the diner onto the payment page.
        dismissToast('reserve');
        // The gateway's page (the sandbox's, here) brings the diner back to this hold with its answer.
        const back = `${window.location.pathname}`;
        navigate(`${payment.approvalUrl}?returnTo=${encodeURIComponent(back)}`);
        return;
      }
      toast('Requested: the restaurant confirms soon.', 'success', { key: 'hold' });
      navigate('/me');
    } catch (error) {
      onLeaving(false);
      toast(errorMessage(error, CONFIRM_FALLBACKS), 'error', { key: 'hold' });
    }
  }

  async function onCancelHold() {
    onLeaving(true);
    try {
      await cancel.mutateAsync(reservation.id);
      setAsking(false);
      toast('Your hold was cancelled and the table released.', 'info', { key: 'hold' });
      // Back on the day and party size the diner was booking, to pick another time there.
      navigate(restaurantPath(reservation, true), { replace: true });
    } catch (error) {
      // A failed cancel is only logged (spec section 8); the screen re-reads the hold to show where it stands.
      console.error('Could not cancel the hold', error);
      setAsking(false);
      onLeaving(false);
    }
  }

  const busy = confirm.isPending || cancel.isPending;
  return (
    <div className="hold container">
      <div className="hold__card">
        <header className="hold__header">
          <p className="hold__eyebrow">{isExpired ? 'Hold ended' : 'Table held for you'}</p>
          <h1 className="hold__title">{isExpired ? 'This hold has run out' : 'Confirm your table'}</h1>
          <p className="hold__lede">
            {isExpired
              ? 'The table has gone back to others. Taking you back to pick another time…'
              : `We’re keeping this table for you while you confirm. Once confirmed, ${reservation.restaurant.name} gets your booking.`}
          </p>
        </header>
        {/* First under the title, so a phone shows the payment's answer without scrolling. */}
        {!isExpired && paymentAnswer === 'declined' && (
          <Alert tone="warning" title="Your payment was declined">
            Nothing was blocked. Your table is still held until the timer runs out, so you can try again.
          </Alert>
        )}
        {!isExpired && paymentAnswer === 'approved' && (
          <Alert tone="info" title="Payment approved">
            {endSentence(`We are confirming your booking with ${reservation.restaurant.name}`)} This takes a moment.
          </Alert>
        )}
        <HoldCountdown secondsLeft={secondsLeft} totalSeconds={totalSeconds} settled={settled} />
        <ReservationSummary reservation={reservation} />
        <HoldPayment deposit={deposit} />
        <div className="hold__actions">
          <Button block className="hold__confirm" onClick={onConfirm} disabled={isExpired || busy || paymentAnswer === 'approved'}>
            {confirm.isPending ? 'Confirming…' : payLabel}
          </Button>
          <Button block variant="secondary" onClick={() => setAsking(true)} disabled={isExpired || busy}>
            Cancel Hold
          </Button>
        </div>
        <HoldTerms />
      </div>
      <ConfirmDialog
        open={asking}
        title="Cancel Hold"
        confirmLabel={cancel.isPending ? 'Cancelling…' : 'Yes, cancel hold'}
        cancelLabel="Keep my table"
        busy={cancel.isPending}
        onConfirm={onCancelHold}
        onCancel={() => setAsking(false)}
      >
        <p>{CANCEL_HOLD_QUESTION}</p>
      </ConfirmDialog>
    </div>
  );
}

/**
 * What the hold costs: the spec's exact "No deposit required" where none applies, otherwise the
 * amount and the policy in plain words (paying it goes through the sandbox or the provider's page).
 */
function HoldPayment({ deposit }: { deposit: DepositRequirementView | undefined }) {
  if (!deposit || deposit.kind === 'none') {
    return (
      <div className="hold__payment">
        <span className="hold__payment-icon emoji" aria-hidden="true">
          💳
        </span>
        <div>
          <strong>No deposit required</strong>
          <span>Nothing to pay now. You pay at the restaurant.</span>
        </div>
      </div>
    );
  }
  return (
    <div className="hold__payment hold__payment--deposit" data-testid="hold-deposit">
      <span className="hold__payment-icon emoji" aria-hidden="true">
        💳
      </span>
      <div>
        <strong>
          {deposit.kind === 'deposit' ? 'Deposit' : 'Prepayment'} {formatRupees(deposit.amountPaise)}
        </strong>
        <span>{deposit.plainWords}</span>
      </div>
    </div>
  );
}

function HoldTerms() {
  return (
    <section className="hold__terms" aria-labelledby="terms-title">
      <h2 id="terms-title" className="hold__terms-title">
        Reservation terms
      </h2>
      <ul>
        <li>Please arrive within 15 minutes of your booking time, or the table may be given to someone else.</li>
        <li>If your plans change, cancel at least 2 hours ahead.</li>
        <li>No-show fees may apply.</li>
      </ul>
    </section>
  );
}

/** A hold that is no longer HELD: where it stands, calmly, and where to go next. */
function HoldSettled({ reservation }: { reservation: DinerReservation }) {
  const ended = reservation.status === 'CANCELLED' || reservation.status === 'NO_SHOW';
  const booked = reservation.status === 'PENDING' || reservation.status === 'CONFIRMED';
  const deposit = 'deposit' in reservation ? (reservation.deposit as DepositRequirementView) : undefined;
  const paid = booked && deposit && deposit.kind !== 'none' ? deposit : null;
  const title = reservation.expired
    ? 'This hold has expired'
    : ended
      ? 'This hold has ended'
      : booked
        ? 'Your booking is made'
        : `This booking is ${statusLabel(reservation).toLowerCase()}`;
  const text = reservation.expired
    ? 'Its time ran out before it was confirmed, and the table went back to others. Pick another time on the same day, or see your reservations.'
    : ended
      ? 'It was cancelled or its time ran out, and the table went back to others. Pick another time, or see your reservations.'
      : reservation.status === 'PENDING'
        ? `Requested: ${reservation.restaurant.name} confirms soon, and we email you when they do. You can follow it in My Profile.`
        : booked
          ? `${reservation.restaurant.name} has accepted your booking. You can follow it in My Profile.`
          : 'You can follow it in My Profile.';
  // The way forward, then the way back.
  const [next, other] = ended
    ? [
        { to: restaurantPath(reservation, true), label: 'Pick another time' },
        { to: '/me', label: 'My reservations' },
      ]
    : [
        { to: '/me', label: 'See my reservations' },
        { to: '/', label: 'Back to home' },
      ];
  return (
    <div className="hold container">
      <div className="hold__card">
        <header className="hold__header">
          <p className="hold__eyebrow">
            Status: <span className={`badge badge--${reservation.status}`}>{statusLabel(reservation)}</span>
          </p>
          <h1 className="hold__title">{title}</h1>
          <p className="hold__lede">{text}</p>
        </header>
        {paid ? (
          <div className="hold__payment hold__payment--deposit" data-testid="hold-paid">
            <span className="hold__payment-icon emoji" aria-hidden="true">
              💳
            </span>
            <div>
              <strong>{formatRupees(paid.amountPaise)} blocked, not taken</strong>
              <span>
                {paid.kind === 'deposit' ? 'Your deposit' : 'Your prepayment'} stays blocked on your card or UPI until your visit.{' '}
                <Link to={`/me#receipt-${encodeURIComponent(reservation.id)}`}>See your receipt</Link>
              </span>
            </div>
          </div>
        ) : null}
        <ReservationSummary reservation={reservation} />
        <div className="hold__actions">
          <ButtonLink to={next.to} block>
            {next.label}
          </ButtonLink>
          <ButtonLink to={other.to} variant="secondary" block>
            {other.label}
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}

function HoldSkeleton() {
  return (
    <LoadingScreen className="hold container" label="Loading your hold…">
      <div className="hold__card" aria-hidden="true">
        <Skeleton width="40%" height={14} />
        <Skeleton width="75%" height={34} />
        <Skeleton width="90%" height={16} />
        <Skeleton width={168} height={168} radius="50%" className="hold__skeleton-ring" />
        <Skeleton height={120} radius="var(--radius-lg)" />
        <Skeleton height={52} radius="var(--radius-pill)" />
      </div>
    </LoadingScreen>
  );
}
