import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import type { ReminderLinkView } from '#common/contract/reminders.ts';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import { ApiError, errorMessage } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { Alert, EmptyState, LoadingScreen, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useAnswerReminderLink, useReminderLink } from '#web/features/reminders/api.ts';
import { ReservationSummary } from '#web/features/reservations/ReservationSummary.tsx';
import '#web/features/reminders/reminders.css';

/** The page's heading for each link and state (the server's sentence explains it below). */
function titleOf(view: ReminderLinkView): string {
  const name = view.reservation.restaurant.name;
  switch (view.state) {
    case 'ready':
      return view.action === 'coming' ? `Coming to ${name}?` : `Release your table at ${name}?`;
    case 'done':
      return view.action === 'coming' ? `See you at ${name}!` : 'Your table is released';
    case 'cancelled':
      return 'This reservation is cancelled';
    case 'closed':
      return 'This reservation is closed';
    case 'expired':
      return 'This link has expired';
  }
}

/**
 * /reminder/{token}: the page a reminder's "I'm coming" or "Release my table" link opens
 * (decision 152). Opening it changes nothing: it says what will happen and asks once more, so a
 * mail scanner following the link does no harm. No sign-in: the signed link is the access.
 */
export default function ReminderLinkScreen() {
  const token = useParams().token ?? '';
  const link = useReminderLink(token);
  const answer = useAnswerReminderLink(token);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const state = link.data?.state;

  useEffect(() => {
    document.title = link.data ? `${titleOf(link.data)} · Tablefair` : 'Your reservation · Tablefair';
  }, [link.data]);

  // Once answered, the heading says what happened: the focus goes there, so it is read out.
  useEffect(() => {
    if (answer.isSuccess) titleRef.current?.focus();
  }, [answer.isSuccess, state]);

  if (link.isPending) {
    return (
      <LoadingScreen className="reminder container page" label="Loading your reservation…">
        <div className="hold__card" aria-hidden="true">
          <Skeleton width="40%" height={14} />
          <Skeleton width="80%" height={34} />
          <Skeleton height={120} radius="var(--radius-lg)" />
          <Skeleton height={52} radius="var(--radius-pill)" />
        </div>
      </LoadingScreen>
    );
  }

  if (link.isError) {
    const refused = link.error instanceof ApiError && link.error.status >= 400 && link.error.status < 500;
    return (
      <div className="reminder container page">
        <div className="hold-empty">
          <EmptyState icon={refused ? '🔗' : '⚠️'} title={<h1>{refused ? 'This link does not work' : 'This page could not load'}</h1>}>
            <p>
              {errorMessage(link.error, {
                server: 'Something went wrong on our side. Please try again in a moment.',
                network: 'Check your connection and try again. Nothing was changed.',
              })}
            </p>
            <p className="hold-empty__actions">
              {refused ? null : <Button onClick={() => void link.refetch()}>Try again</Button>}
              <ButtonLink to="/me" variant={refused ? 'primary' : 'secondary'}>
                My reservations
              </ButtonLink>
            </p>
          </EmptyState>
        </div>
      </div>
    );
  }

  const view = link.data;
  const releasing = view.action === 'release';
  const live = view.reservation.status === 'PENDING' || view.reservation.status === 'CONFIRMED';
  return (
    <div className="reminder container page">
      <div className="hold__card">
        <header className="hold__header">
          <p className="hold__eyebrow">{releasing ? 'Release my table' : 'I’m coming'}</p>
          <h1 className="hold__title" ref={titleRef} tabIndex={-1} data-testid="reminder-title">
            {titleOf(view)}
          </h1>
          <p className="hold__lede" data-testid="reminder-message">
            {view.message}
          </p>
        </header>
        <ReservationSummary reservation={view.reservation} />
        {view.state === 'ready' && releasing ? (
          <p className={`reminder__fee${view.releaseFeePaise > 0 ? ' reminder__fee--kept' : ''}`}>
            {view.releaseFeePaise > 0
              ? `Releasing now keeps ${formatRupees(view.releaseFeePaise)} of your deposit, as the restaurant’s cancellation terms say. The rest goes back to you.`
              : 'Releasing costs you nothing.'}
          </p>
        ) : null}
        {answer.isError ? (
          <Alert tone="error" title="That did not go through">
            <p>
              {errorMessage(answer.error, {
                server: 'Something went wrong on our side. Nothing was changed; please try again.',
                network: 'Check your connection and try again. Nothing was changed.',
              })}
            </p>
          </Alert>
        ) : null}
        <div className="hold__actions">
          {view.state === 'ready' ? (
            <Button block variant={releasing ? 'danger' : 'primary'} disabled={answer.isPending} onClick={() => answer.mutate()}>
              {answer.isPending ? (releasing ? 'Releasing…' : 'Telling the restaurant…') : releasing ? 'Release my table' : 'Yes, I’m coming'}
            </Button>
          ) : null}
          {live && !(releasing && view.state === 'ready') ? (
            <a className="btn btn--secondary btn--block" href={view.calendarPath} download>
              Add to calendar
            </a>
          ) : null}
          {live ? (
            // Changing needs the diner's sign-in: /me opens the change of this booking (decision 280).
            <ButtonLink to={`/me?change=${encodeURIComponent(view.reservation.id)}`} variant="secondary" block>
              Change time or guests
            </ButtonLink>
          ) : null}
          <ButtonLink to="/me" variant="secondary" block>
            My reservations
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}
