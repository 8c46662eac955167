import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { AdminDropEntry } from '#common/contract/drops.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { ApiError, errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { EmptyState, Skeleton } from '#web/components/ui/Feedback.tsx';
import { fetchDrawAudit, useAdminDrop, type TimedDropDetail } from './drops-api.ts';
import {
  dropPhaseLabels,
  entryResultView,
  formatDateRange,
  formatInstant,
  formatPhone,
  formatTimes,
  groupDropSlots,
  nextMilestone,
} from './drops-format.ts';
import { formatWait, secondsBetween, useServerNow } from '#web/features/drops/clock.ts';

function Countdown({ drop, onReached }: { drop: TimedDropDetail; onReached: () => void }) {
  const now = useServerNow(drop.clockOffsetMs);
  const milestone = nextMilestone(drop);
  const remaining = milestone ? secondsBetween(now, milestone.at) : null;
  const reached = remaining === 0;
  const onReachedRef = useRef(onReached);
  onReachedRef.current = onReached;
  // At the milestone the phase changes on the server: read it again (the draw runs on the first read after the release).
  useEffect(() => {
    if (!reached) return;
    const timer = window.setTimeout(() => onReachedRef.current(), 600);
    return () => window.clearTimeout(timer);
  }, [reached, milestone?.at]);

  if (!milestone) {
    return (
      <div className="drop-countdown drop-countdown--done">
        <span className="drop-countdown__label">{drop.drawnAt ? 'Drawn' : 'Released'}</span>
        <span className="drop-countdown__when">{formatInstant(drop.drawnAt ?? drop.releaseAt)}</span>
      </div>
    );
  }
  return (
    <div className="drop-countdown">
      <span className="drop-countdown__label">{milestone.label}</span>
      <span className="drop-countdown__value" role="timer" aria-label={`${milestone.label} ${formatWait(remaining ?? 0)}`} data-testid="drop-countdown">
        {reached ? 'now' : formatWait(remaining ?? 0)}
      </span>
      <span className="drop-countdown__when">{formatInstant(milestone.at)}</span>
    </div>
  );
}

function EntryRow({ entry }: { entry: AdminDropEntry }) {
  const result = entryResultView(entry.result);
  return (
    <li className="drop-entry" data-testid="drop-entry" data-entry-id={entry.id} data-state={entry.result.state}>
      <span className="drop-entry__position">
        <span className="visually-hidden">Position </span>
        {entry.position === null ? (
          <>
            <span aria-hidden="true">—</span>
            <span className="visually-hidden">not drawn yet</span>
          </>
        ) : (
          `#${entry.position}`
        )}
      </span>
      <div className="drop-entry__who">
        <span className="drop-entry__name">{entry.diner.name}</span>
        <span className="drop-entry__contact">
          <span>@{entry.diner.username}</span>
          <a href={`tel:${entry.diner.phone}`}>{formatPhone(entry.diner.phone)}</a>
        </span>
      </div>
      <span className="drop-entry__party">
        {entry.partySize} {entry.partySize === 1 ? 'guest' : 'guests'}
      </span>
      <span className="drop-entry__at">
        <span className="drop-entry__at-key">Entered </span>
        {formatInstant(entry.enteredAt)}
      </span>
      <span className="drop-entry__result">
        <span className={`portal-drop-result portal-drop-result--${result.tone}`}>{result.label}</span>
        <span className="drop-entry__detail">{result.detail}</span>
      </span>
    </li>
  );
}

function EntriesPanel({ drop }: { drop: TimedDropDetail }) {
  const drawn = drop.drawnAt !== null;
  return (
    <section className="admin-panel drop-entries" aria-labelledby="drop-entries-title">
      <div className="admin-panel__head">
        <h3 id="drop-entries-title" className="admin-panel__title">
          Entries <span className="bookings__day-count">{drop.entryCount}</span>
        </h3>
        <p className="admin-panel__note">{drawn ? 'In drawn order' : 'In the order they entered; the draw decides the line'}</p>
      </div>
      {drop.entries.length === 0 ? (
        <p className="bookings__empty drop-entries__empty">
          {drop.phase === 'upcoming'
            ? `No entries yet. Diners can enter from ${formatInstant(drop.entryOpensAt)}.`
            : drop.phase === 'open'
              ? 'No entries yet. Diners enter from the drop’s public page; new entries appear here within seconds.'
              : 'Nobody entered this drop.'}
        </p>
      ) : (
        <>
          <div className="drop-entry drop-entry--head" aria-hidden="true">
            <span>#</span>
            <span>Diner</span>
            <span>Party</span>
            <span>Entered</span>
            <span>Result</span>
          </div>
          <ol className="drop-entries__list">
            {drop.entries.map((entry) => <EntryRow key={entry.id} entry={entry} />)}
          </ol>
        </>
      )}
    </section>
  );
}

function SlotsSummary({ drop }: { drop: TimedDropDetail }) {
  const days = groupDropSlots(drop.slots);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element) setScrolls(element.scrollHeight > element.clientHeight + 1);
  }, [days.length, drop.slots.length]);
  const hidden = drop.phase === 'upcoming' || drop.phase === 'open' || drop.phase === 'closed';
  return (
    <section className="admin-panel drop-slots" aria-labelledby="drop-slots-title">
      <div className="admin-panel__head">
        <h3 id="drop-slots-title" className="admin-panel__title">
          Slots <span className="bookings__day-count">{drop.slotCount}</span>
        </h3>
        <p className="admin-panel__note">{hidden ? 'Hidden until the release' : 'Offered down the line'}</p>
      </div>
      {/* Long drops scroll inside the panel; then the region takes the focus so the keyboard can scroll it too. */}
      <div className="drop-slots__scroll" ref={scrollRef} tabIndex={scrolls ? 0 : undefined} role="region" aria-labelledby="drop-slots-title">
        <ul className="drop-slots__days">
          {days.map((day) => (
            <li key={day.date} className="drop-slots__day">
              <span className="drop-slots__date">{formatDateShort(day.date)}</span>
              <ul className="drop-slots__times">
                {day.slots.map((slot) => {
                  const share = Math.min(100, Math.round((slot.coversBooked / Math.max(1, slot.capacity)) * 100));
                  return (
                    <li key={slot.id} className="drop-slot" data-testid="drop-slot">
                      <span className="drop-slot__time">{formatTime12h(slot.time)}</span>
                      <span className="drop-slot__covers">
                        {slot.coversBooked}/{slot.capacity}
                        <span className="visually-hidden"> covers booked</span>
                      </span>
                      <span className="drop-slot__bar" aria-hidden="true">
                        <span className="drop-slot__fill" style={{ width: `${share}%` }} />
                      </span>
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

type AuditCheck = { state: 'idle' } | { state: 'checking' } | { state: 'done'; matches: boolean; count: number } | { state: 'failed'; message: string };

function DrawPanel({ drop }: { drop: TimedDropDetail }) {
  const [check, setCheck] = useState<AuditCheck>({ state: 'idle' });
  const [copied, setCopied] = useState(false);
  const auditPath = `/api/drops/${drop.id}/draw`;

  async function runCheck() {
    setCheck({ state: 'checking' });
    try {
      const [audit, { drawOrder }] = await Promise.all([fetchDrawAudit(drop.id), import('#common/domain/draw.ts')]);
      // The entry ids as the portal lists them, not the audit's own list: two sources, one order.
      const recomputed = drawOrder(audit.seed, drop.entries.map((entry) => entry.id));
      const byPosition = [...drop.entries].filter((entry) => entry.position !== null).sort((a, b) => a.position! - b.position!).map((entry) => entry.id);
      const matches = audit.seed === drop.seed && recomputed.join() === audit.order.join() && byPosition.join() === audit.order.join();
      setCheck({ state: 'done', matches, count: audit.order.length });
    } catch (error) {
      setCheck({ state: 'failed', message: errorMessage(error, { server: 'The draw could not be read.', network: 'No connection: the draw could not be read.' }) });
    }
  }

  async function copySeed() {
    if (!drop.seed) return;
    try {
      await navigator.clipboard.writeText(drop.seed);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }

  return (
    <section className="admin-panel drop-draw" aria-labelledby="drop-draw-title">
      <div className="admin-panel__head">
        <h3 id="drop-draw-title" className="admin-panel__title">
          The draw
        </h3>
        {drop.drawnAt ? <p className="admin-panel__note">{formatInstant(drop.drawnAt)}</p> : null}
      </div>
      {drop.seed ? (
        <>
          <p className="drop-draw__label" id="drop-seed-label">
            Seed
          </p>
          <div className="drop-draw__seed-row">
            <code className="drop-draw__seed" aria-labelledby="drop-seed-label" data-testid="drop-seed">
              {drop.seed}
            </code>
            <Button variant="secondary" size="sm" onClick={copySeed} className="drop-draw__copy">
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
          <p className="drop-draw__note">
            To audit, anyone can read <a href={auditPath} target="_blank" rel="noopener">GET {auditPath}</a>: the seed, the algorithm and every entry id in drawn order.
            Running <code>drawOrder(seed, entryIds)</code> (common/domain/draw.ts) on the same ids gives the same order.
          </p>
          <div className="drop-draw__check">
            <Button variant="secondary" size="sm" onClick={runCheck} disabled={check.state === 'checking'}>
              {check.state === 'checking' ? 'Checking…' : 'Check the draw in this browser'}
            </Button>
            <p className="drop-draw__result" role="status">
              {check.state === 'done'
                ? check.matches
                  ? `✓ Recomputed from the seed: the ${check.count} ${check.count === 1 ? 'entry is' : 'entries are'} in exactly the published order.`
                  : '✗ The recomputed order differs from the published one. Please report this to Tablefair.'
                : check.state === 'failed'
                  ? check.message
                  : ''}
            </p>
          </div>
        </>
      ) : (
        <p className="drop-draw__note">
          The draw runs at the release, {formatInstant(drop.releaseAt)}. Its seed is made at that moment, so nobody (staff included) can know the order
          beforehand. It will appear here, and at <code>GET {auditPath}</code> for anyone to check.
        </p>
      )}
    </section>
  );
}

/** One drop for its restaurant's staff: window and countdown, counts, entries in the diner's name, slots and the draw. */
export function DropDetailView({ id }: { id: string }) {
  const drop = useAdminDrop(id);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focused = useRef(false);

  useEffect(() => {
    if (drop.data && !focused.current) {
      focused.current = true;
      headingRef.current?.focus();
    }
  }, [drop.data]);

  const back = (
    <Link className="portal-drops__back" to="?tab=drops">
      <span aria-hidden="true">←</span> All drops
    </Link>
  );

  if (drop.isPending) {
    return (
      <section className="admin-panel" aria-busy="true" aria-label="Loading the drop">
        {back}
        <div className="portal-drops__loading" aria-hidden="true">
          <Skeleton height={32} width="60%" />
          <Skeleton height={96} radius="var(--radius-md)" />
          <Skeleton height={160} radius="var(--radius-md)" />
        </div>
      </section>
    );
  }
  if (drop.isError && !drop.data) {
    const missing = drop.error instanceof ApiError && drop.error.status === 404;
    return (
      <section className="admin-panel">
        {back}
        <EmptyState icon={missing ? '🔎' : '📡'} title={missing ? 'No such drop' : 'The drop could not be loaded'}>
          <p>{errorMessage(drop.error, { server: 'Please try again in a moment.', network: 'Check the connection and try again.' })}</p>
          {missing ? null : (
            <Button variant="secondary" size="sm" onClick={() => drop.refetch()}>
              Try again
            </Button>
          )}
        </EmptyState>
      </section>
    );
  }
  const data = drop.data;
  const stats: [string, number, string][] = [
    ['Entries', data.entryCount, 'entries'],
    ['Offered', data.offeredCount, 'offered'],
    ['Booked', data.bookedCount, 'booked'],
  ];

  return (
    <div className="drop-detail" data-testid="drop-detail" data-phase={data.phase}>
      <section className="admin-panel drop-detail__summary" aria-labelledby="drop-title">
        <div className="drop-detail__nav">
          {back}
          <a className="drop-detail__public" href={`/drops/${data.id}`} target="_blank" rel="noopener">
            Public page <span aria-hidden="true">↗</span>
          </a>
        </div>
        <div className="drop-detail__head">
          <div className="drop-detail__titles">
            <span className={`portal-drop-phase portal-drop-phase--${data.phase}`}>{dropPhaseLabels[data.phase]}</span>
            <h2 id="drop-title" className="drop-detail__title" tabIndex={-1} ref={headingRef}>
              {data.title}
            </h2>
            {data.description ? <p className="drop-detail__description">{data.description}</p> : null}
          </div>
          <Countdown drop={data} onReached={() => void drop.refetch()} />
        </div>
        <p className="visually-hidden" role="status">
          {dropPhaseLabels[data.phase]}
        </p>
        <dl className="drop-facts">
          <div>
            <dt>Dates</dt>
            <dd>{formatDateRange(data.dateFrom, data.dateTo)}</dd>
          </div>
          <div>
            <dt>Times</dt>
            <dd>{formatTimes(data.times)}</dd>
          </div>
          <div>
            <dt>Capacity</dt>
            <dd>
              {data.capacity} {data.capacity === 1 ? 'cover' : 'covers'} per slot
            </dd>
          </div>
          <div>
            <dt>Entries open</dt>
            <dd>{formatInstant(data.entryOpensAt)}</dd>
          </div>
          <div>
            <dt>Entries close</dt>
            <dd>{formatInstant(data.entryClosesAt)}</dd>
          </div>
          <div>
            <dt>Release</dt>
            <dd>{formatInstant(data.releaseAt)}</dd>
          </div>
        </dl>
        <dl className="drop-stats">
          {stats.map(([label, value, key]) => (
            <div key={key} className={`drop-stat drop-stat--${key}`}>
              <dt>{label}</dt>
              <dd data-testid={`drop-count-${key}`}>{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <div className="drop-detail__grid">
        <div className="drop-detail__main">
          <EntriesPanel drop={data} />
        </div>
        <div className="drop-detail__side">
          <DrawPanel drop={data} />
          <SlotsSummary drop={data} />
        </div>
      </div>
    </div>
  );
}
