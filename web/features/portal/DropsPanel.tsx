import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AdminDropSummary } from '#common/contract/drops.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { FactList } from '#web/components/ui/FactList.tsx';
import { EmptyState, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useAdminDrops } from './drops-api.ts';
import { CreateDropForm } from './drops-create-form.tsx';
import { DropDetailView } from './drops-detail.tsx';
import { dropPhaseLabels, formatDateRange, formatInstant, formatTimes, formatWindow, splitDrops } from './drops-format.ts';
import { AdminPanel } from './AdminPanel.tsx';

/** Where the Drops tab is: the list, the create form, or one drop (kept in the address so Back works). */
export const dropsSearch = {
  list: '?tab=drops',
  create: '?tab=drops&view=new',
  one: (id: string) => `?tab=drops&drop=${encodeURIComponent(id)}`,
};

/** The Drops tab: the restaurant's drops, creating one, and each drop's entries and draw (decision 045). */
export function DropsPanel() {
  const [searchParams, setSearchParams] = useSearchParams();
  const dropId = searchParams.get('drop');
  const creating = searchParams.get('view') === 'new';
  const open = useCallback(
    (id: string) => setSearchParams(new URLSearchParams(dropsSearch.one(id)), { replace: true, preventScrollReset: true }),
    [setSearchParams],
  );

  if (creating) return <CreateDropForm onCreated={open} />;
  if (dropId) return <DropDetailView key={dropId} id={dropId} />;
  return <DropList />;
}

function DropCounts({ drop }: { drop: AdminDropSummary }) {
  return (
    <FactList
      className="drop-row__counts"
      factClassName="drop-row__count"
      facts={[
        ['Entries', drop.entryCount],
        ['Offered', drop.offeredCount],
        ['Booked', drop.bookedCount],
      ]}
    />
  );
}

function DropRow({ drop }: { drop: AdminDropSummary }) {
  return (
    <li className={`drop-row drop-row--${drop.phase}`} data-testid="drop-row" data-drop-id={drop.id}>
      <div className="drop-row__main">
        <div className="drop-row__top">
          <span className={`portal-drop-phase portal-drop-phase--${drop.phase}`}>{dropPhaseLabels[drop.phase]}</span>
          <Link className="drop-row__title" to={dropsSearch.one(drop.id)}>
            {drop.title}
          </Link>
        </div>
        <p className="drop-row__meta">
          {formatDateRange(drop.dateFrom, drop.dateTo)} · {formatTimes(drop.times)} · {drop.capacity} {drop.capacity === 1 ? 'cover' : 'covers'} ·{' '}
          {drop.slotCount} {drop.slotCount === 1 ? 'slot' : 'slots'}
        </p>
        <p className="drop-row__meta drop-row__window">
          <span>
            <span className="drop-row__key">Entries</span> {formatWindow(drop.entryOpensAt, drop.entryClosesAt)}
          </span>
          <span>
            <span className="drop-row__key">Release</span> {formatInstant(drop.releaseAt)}
          </span>
        </p>
      </div>
      <DropCounts drop={drop} />
    </li>
  );
}

function DropsExplainer() {
  return (
    <ol className="drops-how" aria-label="How a drop works">
      <li>
        <strong>Hidden tables.</strong> The drop’s dates and times become slots that stay out of normal booking until the release.
      </li>
      <li>
        <strong>An entry window.</strong> Diners with a verified phone enter once, with their party size. Arriving early gives no advantage.
      </li>
      <li>
        <strong>A recorded draw.</strong> At the release a seeded random draw puts every entry in line; tables are held for winners in that order.
      </li>
    </ol>
  );
}

function DropList() {
  const drops = useAdminDrops();
  const { current, past } = splitDrops(drops.data ?? []);

  return (
    <AdminPanel
      className="portal-drops"
      title="Drops"
      aside={
        drops.data && drops.data.length > 0 ? (
          <ButtonLink to={dropsSearch.create} size="sm" className="portal-drops__new">
            <span aria-hidden="true">+</span> New drop
          </ButtonLink>
        ) : null
      }
    >
      {drops.isPending ? (
        <div className="portal-drops__loading" aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={92} radius="var(--radius-md)" />
          ))}
        </div>
      ) : drops.isError && !drops.data ? (
        <EmptyState icon="📡" title="Drops could not be loaded">
          <p>Check the connection; we will try again in a moment.</p>
          <Button variant="secondary" size="sm" onClick={() => drops.refetch()}>
            Try again
          </Button>
        </EmptyState>
      ) : drops.data.length === 0 ? (
        <div className="portal-drops__empty">
          <div className="portal-drops__empty-icon emoji" aria-hidden="true">
            🎟️
          </div>
          <h3 className="portal-drops__empty-title">No drops yet</h3>
          <p className="portal-drops__empty-lede">A drop gives out your most wanted tables fairly: no bots, no refresh races, no fastest-finger wins.</p>
          <DropsExplainer />
          <ButtonLink to={dropsSearch.create}>Create your first drop</ButtonLink>
        </div>
      ) : (
        <>
          {current.length > 0 ? (
            <ul className="portal-drops__list" aria-label="Current drops">
              {current.map((drop) => (
                <DropRow key={drop.id} drop={drop} />
              ))}
            </ul>
          ) : (
            <p className="bookings__empty">No drops running. Past ones are below.</p>
          )}
          {past.length > 0 ? (
            <>
              <h3 className="bookings__day-title portal-drops__past-title">
                Past drops <span className="bookings__day-count">{past.length}</span>
              </h3>
              <ul className="portal-drops__list" aria-label="Past drops">
                {past.map((drop) => (
                  <DropRow key={drop.id} drop={drop} />
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
    </AdminPanel>
  );
}
