import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { FactList } from '#web/components/ui/FactList.tsx';
import { EmptyState, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useAdminDrop, type TimedDropDetail } from './drops-api.ts';
import { dropPhaseLabels, formatDateRange, formatInstant, formatTimes } from './drops-format.ts';
import { DropCountdown } from './DropCountdown.tsx';
import { DropDrawPanel } from './DropDrawPanel.tsx';
import { DropEntriesPanel } from './DropEntriesPanel.tsx';
import { DropSlotsSummary } from './DropSlotsSummary.tsx';

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
          <DropCountdown drop={data} onReached={() => void drop.refetch()} />
        </div>
        <p className="visually-hidden" role="status">
          {dropPhaseLabels[data.phase]}
        </p>
        <DropFacts drop={data} />
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
          <DropEntriesPanel drop={data} />
        </div>
        <div className="drop-detail__side">
          <DropDrawPanel drop={data} />
          <DropSlotsSummary drop={data} />
        </div>
      </div>
    </div>
  );
}

/** When the drop runs: dates, times, capacity and its three instants. */
function DropFacts({ drop }: { drop: TimedDropDetail }) {
  return (
    <FactList
      className="drop-facts"
      facts={[
        ['Dates', formatDateRange(drop.dateFrom, drop.dateTo)],
        ['Times', formatTimes(drop.times)],
        ['Capacity', `${drop.capacity} ${drop.capacity === 1 ? 'cover' : 'covers'} per slot`],
        ['Entries open', formatInstant(drop.entryOpensAt)],
        ['Entries close', formatInstant(drop.entryClosesAt)],
        ['Release', formatInstant(drop.releaseAt)],
      ]}
    />
  );
}
