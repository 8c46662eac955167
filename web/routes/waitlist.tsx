import { useEffect } from 'react';
import { errorMessage } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { Alert, EmptyState, Skeleton } from '#web/components/ui/Feedback.tsx';
import { loginPath, signupPath } from '#web/features/accounts/return-path.ts';
import { useCustomerToken } from '#web/features/accounts/session.ts';
import { useDinerEvents } from '#web/features/live/diner-events.ts';
import { useMyWaitlist, type TimedWaitlist } from '#web/features/waitlist/api.ts';
import { isLive } from '#web/features/waitlist/rules.ts';
import { EntryCard, OfferCard } from '#web/features/waitlist/WaitlistCards.tsx';
import '#web/features/waitlist/waitlist.css';

/** /waitlist: tables held for the diner first (confirm or let go), then every entry and where it stands. */
export default function WaitlistScreen() {
  const isSignedIn = Boolean(useCustomerToken());
  const waitlist = useMyWaitlist(isSignedIn);
  // An offer made while the page is open shows up at once (the list also re-reads on its own).
  useDinerEvents();

  useEffect(() => {
    document.title = 'Waitlist · Tablefair';
  }, []);

  return (
    <div className="waitlist container page">
      <header className="waitlist__head">
        <p className="waitlist__eyebrow">Waitlist</p>
        <h1 className="waitlist__title">Your waitlist</h1>
        <p className="waitlist__lede">
          When a table frees up, the person who has waited longest gets it held in their name for a few minutes — no race to tap first. Confirm it here before
          the timer runs out.
        </p>
      </header>
      {!isSignedIn ? (
        <div className="waitlist__empty">
          <EmptyState icon="🔔" title={<h2>Sign in to see your waitlist</h2>}>
            <p>Your place in line, and any table held for you, live here.</p>
            <p className="waitlist__empty-actions">
              <ButtonLink to={loginPath('/waitlist')}>Sign in</ButtonLink>
              <ButtonLink to={signupPath('/waitlist')} variant="secondary">
                Create an account
              </ButtonLink>
            </p>
          </EmptyState>
        </div>
      ) : waitlist.isPending ? (
        <WaitlistSkeleton />
      ) : waitlist.isError ? (
        <Alert tone="error" title="Your waitlist could not load">
          <p>{errorMessage(waitlist.error, { server: 'Something went wrong on our side.', network: 'Check your connection and try again.' })}</p>
          <Button variant="secondary" size="sm" onClick={() => void waitlist.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <WaitlistBody data={waitlist.data} isRefreshing={waitlist.isFetching} onRefresh={() => void waitlist.refetch()} />
      )}
    </div>
  );
}

function WaitlistBody({ data, isRefreshing, onRefresh }: { data: TimedWaitlist; isRefreshing: boolean; onRefresh: () => void }) {
  const waiting = data.entries.filter((entry) => entry.state === 'waiting');
  const earlier = data.entries.filter((entry) => !isLive(entry));

  if (data.entries.length === 0) {
    return (
      <div className="waitlist__empty">
        <EmptyState icon="🔔" title={<h2>You’re not on any waitlist</h2>}>
          <p>
            When a restaurant is full on the evening you want, open its page, pick the date and party size, and choose <strong>Join the waitlist</strong>. If a
            table frees up in your window, we hold it for you.
          </p>
          <p className="waitlist__empty-actions">
            <ButtonLink to="/">Find a restaurant</ButtonLink>
            <ButtonLink to="/drops" variant="secondary">
              See the drops
            </ButtonLink>
          </p>
        </EmptyState>
      </div>
    );
  }

  return (
    <>
      <p className="waitlist__refresh">
        <span aria-live="polite">{isRefreshing ? 'Checking…' : 'Updates on its own when a table is held for you.'}</span>
        <Button variant="secondary" size="sm" onClick={onRefresh} disabled={isRefreshing}>
          Refresh
        </Button>
      </p>
      {data.offers.length > 0 ? (
        <section className="waitlist__group" aria-labelledby="offers-title">
          <h2 id="offers-title" className="waitlist__group-title">
            Held for you <span className="waitlist__count">{data.offers.length}</span>
          </h2>
          <div className="waitlist__offers">
            {data.offers.map((entry) => (
              <OfferCard key={`${entry.id} ${entry.offer?.reservationId}`} entry={entry} clockOffsetMs={data.clockOffsetMs} />
            ))}
          </div>
        </section>
      ) : null}
      {waiting.length === 0 && data.offers.length > 0 ? null : (
        <section className="waitlist__group" aria-labelledby="waiting-title">
          <h2 id="waiting-title" className="waitlist__group-title">
            In line <span className="waitlist__count">{waiting.length}</span>
          </h2>
          {waiting.length === 0 ? (
            <p className="waitlist__none">Nothing waiting right now. Join a waitlist from a restaurant’s page when it’s full.</p>
          ) : (
            <ul className="waitlist__list">
              {waiting.map((entry) => (
                <EntryCard key={entry.id} entry={entry} />
              ))}
            </ul>
          )}
        </section>
      )}
      {earlier.length > 0 ? (
        <section className="waitlist__group" aria-labelledby="earlier-title">
          <h2 id="earlier-title" className="waitlist__group-title">
            Earlier <span className="waitlist__count">{earlier.length}</span>
          </h2>
          <ul className="waitlist__list">
            {earlier.map((entry) => (
              <EntryCard key={entry.id} entry={entry} />
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

function WaitlistSkeleton() {
  return (
    <div className="waitlist__list" aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading your waitlist…
      </p>
      {[0, 1, 2].map((key) => (
        <Skeleton key={key} height={96} radius="var(--radius-lg)" />
      ))}
    </div>
  );
}
