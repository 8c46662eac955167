import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { DropDetail, MyDropEntry } from '#common/contract/drops.ts';
import { formatDateShort, formatInstantKolkata as formatInstant, formatTime12h } from '#common/domain/time.ts';
import { ApiError, errorMessage } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { Alert, EmptyState, Skeleton } from '#web/components/ui/Feedback.tsx';
import { SelectField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { loginPath } from '#web/features/accounts/return-path.ts';
import { useCustomerToken } from '#web/features/accounts/session.ts';
import { dropKeys, useDrawAudit, useDrop, useEnterDrop, useWithdrawFromDrop } from '#web/features/drops/api.ts';
import { formatWait, secondsBetween, useServerNow } from '#web/features/drops/clock.ts';
import { PhoneVerification } from '#web/features/drops/PhoneVerification.tsx';
import { dropWhen, nextMilestone, phaseLabel, resultDetail, resultHeadline } from '#web/features/drops/rules.ts';
import { useDinerEvents } from '#web/features/live/diner-events.ts';
import { useConfirmHold } from '#web/features/reservations/api.ts';
import '#web/features/drops/drops.css';

const FALLBACKS = { server: 'That did not work. Please try again.', network: 'We could not reach Tablefair. Check your connection and try again.' };

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
          <p>{isMissing ? 'It may have been removed, or the link is wrong.' : errorMessage(drop.error, FALLBACKS)}</p>
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
        <section className="drop__window card card--padded" aria-labelledby="window-title">
          <h2 id="window-title" className="drop__section-title">
            The window
          </h2>
          {milestone ? (
            <div className="drop__countdown" role="timer" aria-label={`${milestone.label} ${formatWait(secondsToMilestone)}`}>
              <span className="drop__countdown-label">{milestone.label}</span>
              <span className="drop__countdown-time tabular" data-testid="drop-countdown">
                {formatWait(secondsToMilestone)}
              </span>
            </div>
          ) : (
            <p className="drop__drawn">Drawn {drop.drawnAt ? formatInstant(drop.drawnAt) : ''} · {drop.entryCount.toLocaleString('en-IN')} entries</p>
          )}
          <dl className="drop__facts">
            <div>
              <dt>Entries open</dt>
              <dd>{formatInstant(drop.entryOpensAt)}</dd>
            </div>
            <div>
              <dt>Entries close</dt>
              <dd>{formatInstant(drop.entryClosesAt)}</dd>
            </div>
            <div>
              <dt>Draw and release</dt>
              <dd>{formatInstant(drop.releaseAt)}</dd>
            </div>
            <div>
              <dt>Tables</dt>
              <dd>
                {dropWhen(drop)} · up to {drop.capacity} guests
              </dd>
            </div>
          </dl>
          <details className="drop__slots">
            <summary>
              {drop.slotCount} {drop.slotCount === 1 ? 'time' : 'times'} in this drop
            </summary>
            <ul className="drop__slot-list">
              {drop.slots.map((slot) => (
                <li key={`${slot.date} ${slot.time}`} className="chip">
                  {formatDateShort(slot.date)} · {formatTime12h(slot.time)}
                </li>
              ))}
            </ul>
          </details>
          {drop.drawnAt ? <DrawAudit dropId={drop.id} myEntryId={drop.myEntry?.id ?? null} /> : null}
        </section>

        <section className="drop__entry card card--padded" aria-labelledby="entry-title" aria-live="polite">
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
            <EntryResult drop={drop} entry={drop.myEntry} now={now} />
          ) : (
            <EnterForm drop={drop} />
          )}
        </section>
      </div>
    </div>
  );
}

function EnterForm({ drop }: { drop: DropDetail }) {
  const enter = useEnterDrop(drop.id);
  const [partySize, setPartySize] = useState(Math.min(2, drop.capacity));
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();

  if (drop.phase === 'upcoming') return <p className="drop__note">Entries open {formatInstant(drop.entryOpensAt)}. Come back then — entering early or late in the window makes no difference.</p>;
  if (drop.phase !== 'open') return <p className="drop__note">Entries are closed for this drop.</p>;
  if (drop.phoneVerified === false) {
    return <PhoneVerification intro="Drops are for people, not scripts: verify your phone once to enter. One phone enters once per drop." />;
  }

  async function onEnter() {
    setError(null);
    try {
      await enter.mutateAsync(partySize);
      toast('You are in the draw. We will tell you the result here and by email.', 'success');
    } catch (caught) {
      setError(errorMessage(caught, FALLBACKS));
    }
  }

  const sizes = Array.from({ length: Math.min(drop.capacity, 20) }, (_, index) => index + 1);
  return (
    <div className="drop__enter">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <SelectField label="Party size" value={partySize} onChange={(event) => setPartySize(Number(event.target.value))}>
        {sizes.map((size) => (
          <option key={size} value={size}>
            {size} {size === 1 ? 'guest' : 'guests'}
          </option>
        ))}
      </SelectField>
      <Button block onClick={() => void onEnter()} disabled={enter.isPending}>
        {enter.isPending ? 'Entering…' : 'Enter the drop'}
      </Button>
      <p className="drop__fine">One entry per account and per phone. The draw is random and recorded; you can check it afterwards.</p>
    </div>
  );
}

function EntryResult({ drop, entry, now }: { drop: DropDetail; entry: MyDropEntry; now: number }) {
  const { result } = entry;
  const withdraw = useWithdrawFromDrop(drop.id);
  const confirm = useConfirmHold();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const canWithdraw = result.state === 'entered' || result.state === 'waiting';

  async function onComplete(reservationId: string) {
    setError(null);
    try {
      await confirm.mutateAsync(reservationId);
      await queryClient.invalidateQueries({ queryKey: dropKeys.all });
      toast('Booked! The restaurant will accept it shortly.', 'success');
    } catch (caught) {
      setError(errorMessage(caught, { server: 'Confirmation failed', network: 'Failed to confirm reservation' }));
    }
  }

  async function onWithdraw() {
    setError(null);
    try {
      await withdraw.mutateAsync();
      setAsking(false);
      toast('You left this drop.', 'info');
    } catch (caught) {
      setAsking(false);
      setError(errorMessage(caught, FALLBACKS));
    }
  }

  return (
    <div className={`drop-result drop-result--${result.state}`}>
      <p className="drop-result__headline" data-testid="drop-result">
        {resultHeadline(result, now)}
      </p>
      <p className="drop-result__detail">{resultDetail(result)}</p>
      <p className="drop-result__party">
        Party of {entry.partySize}
        {entry.position ? ` · drawn number ${entry.position.toLocaleString('en-IN')} of ${drop.entryCount.toLocaleString('en-IN')}` : ''}
      </p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {result.state === 'won' ? (
        <div className="drop-result__actions">
          <Button block onClick={() => void onComplete(result.reservationId)} disabled={confirm.isPending}>
            {confirm.isPending ? 'Booking…' : 'Complete booking'}
          </Button>
          <ButtonLink to={`/hold/${result.reservationId}`} variant="ghost" block>
            Open the hold
          </ButtonLink>
        </div>
      ) : null}
      {result.state === 'booked' ? (
        <ButtonLink to="/me" variant="secondary" block>
          See my reservations
        </ButtonLink>
      ) : null}
      {canWithdraw ? (
        <Button variant="ghost" block onClick={() => setAsking(true)} disabled={withdraw.isPending}>
          Withdraw my entry
        </Button>
      ) : null}
      <ConfirmDialog
        open={asking}
        title="Withdraw from this drop?"
        confirmLabel="Withdraw"
        cancelLabel="Stay in"
        tone="danger"
        busy={withdraw.isPending}
        onConfirm={() => void onWithdraw()}
        onCancel={() => setAsking(false)}
      >
        <p>{result.state === 'waiting' ? 'You will leave the line, and the tables go to those after you.' : 'Your entry is removed. You can enter again while entries are open.'}</p>
      </ConfirmDialog>
    </div>
  );
}

function DrawAudit({ dropId, myEntryId }: { dropId: string; myEntryId: string | null }) {
  const [open, setOpen] = useState(false);
  const audit = useDrawAudit(dropId, open);
  return (
    <details className="drop__audit" onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
      <summary>Check the draw</summary>
      {audit.isPending ? (
        <Skeleton height={60} />
      ) : audit.isError ? (
        <Alert tone="error">{errorMessage(audit.error, FALLBACKS)}</Alert>
      ) : (
        <div className="drop__audit-body">
          <p>
            The order was drawn with <code>{audit.data.algorithm}</code> from this seed, recorded before anyone knew the result. Anyone can recompute it
            with <code>drawOrder(seed, entryIds)</code> and compare.
          </p>
          <p className="drop__seed">
            Seed <code>{audit.data.seed}</code>
          </p>
          <p>
            {audit.data.order.length.toLocaleString('en-IN')} entries drawn {formatInstant(audit.data.drawnAt)}.
            {myEntryId && audit.data.order.includes(myEntryId) ? ` Your entry is number ${audit.data.order.indexOf(myEntryId) + 1}.` : ''}
          </p>
          <a href={`/api/drops/${encodeURIComponent(dropId)}/draw`} target="_blank" rel="noreferrer">
            The full order (JSON)
          </a>
        </div>
      )}
    </details>
  );
}
