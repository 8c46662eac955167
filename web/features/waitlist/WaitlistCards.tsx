import { useQueryClient } from '@tanstack/react-query';
import { endSentence } from '#common/domain/sentences.ts';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link, useNavigate } from 'react-router';
import type { WaitlistEntry } from '#common/contract/waitlist.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { FactList } from '#web/components/ui/FactList.tsx';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useCancelReservation, useConfirmHold } from '#web/features/reservations/api.ts';
import { CONFIRM_FALLBACKS } from '#web/features/reservations/rules.ts';
import { useServerNow } from '#web/features/drops/clock.ts';
import { useLeaveWaitlist, waitlistKeys } from './api.ts';
import { countdownAnnouncement, formatOfferCountdown, isLive, offerSecondsLeft, partyText, stateBadge, stateText, windowLabel } from './rules.ts';

const FALLBACKS = { server: 'That did not work. Please try again.', network: 'We could not reach Tablefair. Check your connection and try again.' };

/**
 * One dialog at a time is mounted (ConfirmDialog's title id is fixed), so a list of cards has no
 * duplicate ids; dismissing it puts focus back on the card's last action.
 */
function closeDialog(actions: RefObject<HTMLDivElement | null>, setAsking: (value: boolean) => void) {
  setAsking(false);
  window.setTimeout(() => actions.current?.querySelector<HTMLButtonElement>('button:last-of-type')?.focus(), 0);
}

/**
 * A table held for the diner: what, when, a live m:ss on the server's clock, Confirm (the hold
 * becomes a PENDING booking, in place) and Let it go (the hold is cancelled, so the next in line gets it).
 */
export function OfferCard({ entry, clockOffsetMs }: { entry: WaitlistEntry; clockOffsetMs: number }) {
  const offer = entry.offer!;
  const serverNow = useServerNow(clockOffsetMs);
  const secondsLeft = offerSecondsLeft(offer.holdExpiresAt, serverNow);
  const expired = secondsLeft <= 0;
  const confirm = useConfirmHold();
  const navigate = useNavigate();
  const letGo = useCancelReservation(true);
  const queryClient = useQueryClient();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const actions = useRef<HTMLDivElement>(null);
  const titleId = `offer-${entry.id}`;
  const when = `${formatDateShort(offer.slot.date)} · ${formatTime12h(offer.slot.time)}`;

  // When the time runs out, ask the server what became of it (the next in line has it now).
  const askedAtExpiry = useRef(false);
  useEffect(() => {
    if (expired && !askedAtExpiry.current) {
      askedAtExpiry.current = true;
      void queryClient.invalidateQueries({ queryKey: waitlistKeys.all });
    }
  }, [expired, queryClient]);

  // Screen readers hear the countdown in steps, not every second.
  const announcement = countdownAnnouncement(secondsLeft);

  async function onConfirm() {
    setError(null);
    try {
      const { payment } = await confirm.mutateAsync(offer.reservationId);
      if (payment?.approvalUrl) {
        // The slot asks a deposit: the gateway's page, then back to the hold with its answer (decision 133).
        navigate(`${payment.approvalUrl}?returnTo=${encodeURIComponent(`/hold/${offer.reservationId}`)}`);
        return;
      }
      toast(`Booked! ${entry.restaurant.name} · ${when} · ${partyText(offer.partySize)}. The restaurant will accept it shortly.`, 'success');
    } catch (caught) {
      setError(errorMessage(caught, CONFIRM_FALLBACKS));
    } finally {
      void queryClient.invalidateQueries({ queryKey: waitlistKeys.all });
    }
  }

  async function onLetGo() {
    setError(null);
    try {
      await letGo.mutateAsync(offer.reservationId);
      toast(`You let the table at ${entry.restaurant.name} go. The next person waiting gets it.`, 'info');
    } catch (caught) {
      setError(errorMessage(caught, FALLBACKS));
    } finally {
      setAsking(false);
      void queryClient.invalidateQueries({ queryKey: waitlistKeys.all });
    }
  }

  return (
    <article className={`wl-offer card${expired ? ' wl-offer--expired' : ''}`} aria-labelledby={titleId} data-testid="waitlist-offer">
      <div className="wl-offer__top">
        <span className="wl-offer__emoji emoji" aria-hidden="true">
          {entry.restaurant.emoji}
        </span>
        <div>
          <p className="wl-offer__eyebrow">A table is held for you</p>
          <h3 className="wl-offer__name" id={titleId}>
            <Link to={`/r/${encodeURIComponent(entry.restaurant.slug)}`}>{entry.restaurant.name}</Link>
          </h3>
          <p className="wl-offer__where">{entry.restaurant.neighborhood}</p>
        </div>
      </div>
      <FactList
        className="wl-offer__facts"
        facts={[
          ['Date', formatDateShort(offer.slot.date)],
          ['Time', formatTime12h(offer.slot.time)],
          ['Party', partyText(offer.partySize)],
        ]}
      />
      <div className="wl-offer__timer">
        <span className="wl-offer__timer-label">{expired ? 'The hold has run out' : 'Left to confirm'}</span>
        <span className="wl-offer__timer-time" role="timer" aria-label={`${formatOfferCountdown(secondsLeft)} left to confirm`} data-testid="offer-countdown">
          {formatOfferCountdown(secondsLeft)}
        </span>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="wl-offer__actions" ref={actions}>
        <Button onClick={() => void onConfirm()} disabled={expired || confirm.isPending || letGo.isPending}>
          {confirm.isPending ? 'Confirming…' : 'Confirm booking'}
        </Button>
        <Button variant="secondary" onClick={() => setAsking(true)} disabled={expired || confirm.isPending || letGo.isPending}>
          Let it go
        </Button>
      </div>
      <p className="wl-offer__fine">
        It’s yours alone until the timer runs out; then it goes to the next person waiting. Where the restaurant asks a deposit, Confirm takes you to pay it.{' '}
        <Link to={`/hold/${encodeURIComponent(offer.reservationId)}`}>See the hold’s terms</Link>
      </p>
      {asking ? (
        <ConfirmDialog
          open
          title="Let this table go?"
          confirmLabel="Let it go"
          cancelLabel="Keep it"
          tone="danger"
          busy={letGo.isPending}
          onConfirm={() => void onLetGo()}
          onCancel={() => closeDialog(actions, setAsking)}
        >
          <p>
            The table at {entry.restaurant.name} on {when} goes to the next person waiting, and this waitlist entry ends.
          </p>
        </ConfirmDialog>
      ) : null}
    </article>
  );
}

/** One waitlist entry: where the diner stands (or what became of it), and Leave while waiting. */
export function EntryCard({ entry }: { entry: WaitlistEntry }) {
  const leave = useLeaveWaitlist();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const actions = useRef<HTMLDivElement>(null);
  const live = isLive(entry);
  const titleId = `entry-${entry.id}`;

  async function onLeave() {
    setError(null);
    try {
      await leave.mutateAsync(entry.id);
      toast(endSentence(`You left the waitlist for ${entry.restaurant.name}`), 'info');
    } catch (caught) {
      setError(errorMessage(caught, FALLBACKS));
    } finally {
      setAsking(false);
    }
  }

  return (
    <li className={`wl-entry card${live ? '' : ' wl-entry--past'}`} aria-labelledby={titleId} data-testid="waitlist-entry">
      <span className="wl-entry__emoji emoji" aria-hidden="true">
        {entry.restaurant.emoji}
      </span>
      <div className="wl-entry__body">
        <h3 className="wl-entry__name" id={titleId}>
          <Link to={`/r/${encodeURIComponent(entry.restaurant.slug)}`}>{entry.restaurant.name}</Link>
          <span className={`wl-badge wl-badge--${entry.state}`}>{stateBadge[entry.state]}</span>
        </h3>
        <p className="wl-entry__when">
          {formatDateShort(entry.date)} · {windowLabel({ start: entry.windowStart, end: entry.windowEnd })} · {partyText(entry.partySize)}
        </p>
        <p className="wl-entry__state" data-testid="waitlist-entry-state">
          {stateText(entry)}
        </p>
      </div>
      {entry.state === 'waiting' ? (
        <div className="wl-entry__actions" ref={actions}>
          <Button variant="secondary" size="sm" onClick={() => setAsking(true)} disabled={leave.isPending} aria-describedby={titleId}>
            Leave
          </Button>
        </div>
      ) : entry.state === 'booked' ? (
        <div className="wl-entry__actions">
          <ButtonLink to="/me" variant="ghost" size="sm">
            My reservations
          </ButtonLink>
        </div>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {asking ? (
        <ConfirmDialog
          open
          title="Leave this waitlist?"
          confirmLabel="Leave"
          cancelLabel="Stay in line"
          tone="danger"
          busy={leave.isPending}
          onConfirm={() => void onLeave()}
          onCancel={() => closeDialog(actions, setAsking)}
        >
          <p>
            You will lose your place in line for {entry.restaurant.name} on {formatDateShort(entry.date)}. You can join again later, at the back of the line.
          </p>
        </ConfirmDialog>
      ) : null}
    </li>
  );
}
