import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import type { DropDetail } from '#common/contract/drops.ts';
import { ApiError, errorMessage } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { EmptyState, Skeleton } from '#web/components/ui/Feedback.tsx';
import { loginPath } from '#web/features/accounts/return-path.ts';
import { useCustomerToken } from '#web/features/accounts/session.ts';
import { useDrop } from '#web/features/drops/api.ts';
import { secondsBetween, useServerNow } from '#web/features/drops/clock.ts';
import { DropEnterForm } from '#web/features/drops/DropEnterForm.tsx';
import { DropEntryResult } from '#web/features/drops/DropEntryResult.tsx';
import { DropWindow } from '#web/features/drops/DropWindow.tsx';
import { DROP_FALLBACKS, nextMilestone, phaseLabel } from '#web/features/drops/rules.ts';
import { useDinerEvents } from '#web/features/live/diner-events.ts';
import '#web/features/drops/drops.css';

/** /drops/{id}: the window and its countdown, entering, and after the draw the diner's result. */
export default function DropDetailScreen() {
  const { id = '' } = useParams();
  const isSignedIn = Boolean(useCustomerToken());
  const drop = useDrop(id, { signedIn: isSignedIn });
  useDinerEvents();

  useEffect(() => {
    document.title = drop.data ? `${drop.data.title} · Drops · Tablefair` : 'Drop · Tablefair';
  }, [drop.data]);

  if (drop.isPending) {
    return (
      <div className="drop container page" aria-busy="true">
        <Skeleton width={220} height={20} />
        <Skeleton width="70%" height={40} />
        <div className="drop__layout">
          <Skeleton height={240} radius="var(--radius-lg)" />
          <Skeleton height={240} radius="var(--radius-lg)" />
        </div>
      </div>
    );
  }
  if (drop.isError) {
    const isMissing = drop.error instanceof ApiError && (drop.error.status === 404 || drop.error.status === 400);
    return (
      <div className="drop container page">
        <EmptyState icon={isMissing ? '🎟️' : '⚠️'} title={<h1>{isMissing ? 'Drop not found' : 'This drop could not load'}</h1>}>
          <p>{isMissing ? 'It may have been removed, or the link is wrong.' : errorMessage(drop.error, DROP_FALLBACKS)}</p>
          <p className="drop__empty-actions">
            {isMissing ? null : <Button onClick={() => void drop.refetch()}>Try again</Button>}
            <ButtonLink to="/drops" variant="secondary">
              All drops
            </ButtonLink>
          </p>
        </EmptyState>
      </div>
    );
  }
  return <DropView drop={drop.data} isSignedIn={isSignedIn} />;
}

function DropView({ drop, isSignedIn }: { drop: DropDetail & { clockOffsetMs: number }; isSignedIn: boolean }) {
  const now = useServerNow(drop.clockOffsetMs);
  const milestone = nextMilestone(drop);
  const secondsToMilestone = milestone ? secondsBetween(now, milestone.at) : 0;
  return (
    <div className="drop container page">
      <p className="drop__back">
        <Link to="/drops">← All drops</Link>
      </p>
      <header className="drop__head">
        <p className="drop__restaurant">
          <span className="emoji" aria-hidden="true">
            {drop.restaurant.emoji}
          </span>{' '}
          <Link to={`/r/${encodeURIComponent(drop.restaurant.slug)}`}>{drop.restaurant.name}</Link> · {drop.restaurant.neighborhood}
        </p>
        <h1 className="drop__title">{drop.title}</h1>
        <span className={`drop-phase drop-phase--${drop.phase}`}>{phaseLabel[drop.phase]}</span>
        {drop.description ? <p className="drop__description">{drop.description}</p> : null}
      </header>

      <div className="drop__layout">
        <DropWindow drop={drop} secondsToMilestone={secondsToMilestone} />

        <section className="drop__entry card card--padded" aria-labelledby="entry-title">
          <h2 id="entry-title" className="drop__section-title">
            {drop.myEntry ? 'Your entry' : 'Enter the drop'}
          </h2>
          {!isSignedIn && drop.phase !== 'open' && drop.phase !== 'upcoming' ? (
            <p className="drop__note">Entries are closed for this drop.</p>
          ) : !isSignedIn ? (
            <div className="drop__signin">
              <p>Sign in to enter. Every account gets one entry, with a verified phone.</p>
              <ButtonLink to={loginPath(`/drops/${drop.id}`)} block>
                Sign in to enter
              </ButtonLink>
            </div>
          ) : drop.myEntry ? (
            <DropEntryResult drop={drop} entry={drop.myEntry} now={now} />
          ) : (
            <DropEnterForm drop={drop} />
          )}
        </section>
      </div>
    </div>
  );
}
