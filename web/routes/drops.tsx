import { useEffect } from 'react';
import { Link } from 'react-router';
import type { DropSummary } from '#common/contract/drops.ts';
import { formatDateShort, formatTime12h, toKolkata } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Alert, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useDropList } from '#web/features/drops/api.ts';
import { formatWait, secondsBetween, useServerNow } from '#web/features/drops/clock.ts';
import { dropWhen, nextMilestone, phaseLabel } from '#web/features/drops/rules.ts';
import '#web/features/drops/drops.css';

/** /drops: every drop in the city, open ones first, each with a live countdown on the server's clock. */
export default function DropsScreen() {
  const list = useDropList();
  const now = useServerNow(list.data?.clockOffsetMs ?? 0);

  useEffect(() => {
    document.title = 'Drops · Tablefair';
  }, []);

  return (
    <div className="drops container page">
      <header className="drops__head">
        <p className="drops__eyebrow">Drops</p>
        <h1 className="drops__title">The city’s hardest tables, drawn fairly</h1>
        <p className="drops__lede">
          Enter during the window with a verified phone. When entries close, a recorded random draw sets the order — the fastest script and the first tap get no
          advantage. Winners get the table held for them; if they let it go, the next in line gets it.
        </p>
      </header>

      {list.isPending ? (
        <div className="drops__grid" aria-busy="true" aria-label="Loading drops">
          {[0, 1, 2].map((key) => (
            <Skeleton key={key} height={176} radius="var(--radius-lg)" />
          ))}
        </div>
      ) : list.isError ? (
        <Alert tone="error" title="Drops could not load">
          <p>{errorMessage(list.error, { server: 'Something went wrong on our side.', network: 'Check your connection and try again.' })}</p>
          <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <>
          <DropGroup title="Open now" drops={list.data.open} now={now} empty="No drop is taking entries right now." />
          <DropGroup title="Coming up" drops={list.data.upcoming} now={now} empty="No drop is announced yet. Restaurants announce drops a day or more ahead." />
          <DropGroup title="Past drops" drops={list.data.past} now={now} empty="No drop has been drawn yet." muted />
        </>
      )}
    </div>
  );
}

function DropGroup({ title, drops, now, empty, muted }: { title: string; drops: DropSummary[]; now: number; empty: string; muted?: boolean }) {
  const id = `drops-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="drops__group" aria-labelledby={id}>
      <h2 id={id} className="drops__group-title">
        {title} <span className="drops__count">{drops.length}</span>
      </h2>
      {drops.length === 0 ? (
        <p className="drops__empty">{empty}</p>
      ) : (
        <ul className="drops__grid">
          {drops.map((drop) => (
            <li key={drop.id}>
              <DropCard drop={drop} now={now} muted={muted} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** 'Entries close Sat, 28 Nov at 7:30 PM': a milestone as a time that does not change every second. */
function milestoneAt(milestone: { label: string; at: string }): string {
  const { date, time } = toKolkata(new Date(milestone.at));
  return `${milestone.label.replace(/ in$/, '')} ${formatDateShort(date)} at ${formatTime12h(time)}`;
}

function DropCard({ drop, now, muted }: { drop: DropSummary; now: number; muted?: boolean }) {
  const milestone = nextMilestone(drop);
  return (
    <Link to={`/drops/${drop.id}`} className={`drop-card card${muted ? ' drop-card--muted' : ''}`}>
      <div className="drop-card__top">
        <span className="drop-card__emoji emoji" aria-hidden="true">
          {drop.restaurant.emoji}
        </span>
        <span className={`drop-phase drop-phase--${drop.phase}`}>{phaseLabel[drop.phase]}</span>
      </div>
      <h3 className="drop-card__title">{drop.title}</h3>
      <p className="drop-card__where">
        {drop.restaurant.name} · {drop.restaurant.neighborhood}
      </p>
      <p className="drop-card__when">{dropWhen(drop)}</p>
      <div className="drop-card__foot">
        {milestone ? (
          <>
            {/* The ticking countdown stays out of the link's accessible name; a screen reader hears the fixed time. */}
            <span className="drop-card__countdown" aria-hidden="true">
              {milestone.label} <strong className="tabular">{formatWait(secondsBetween(now, milestone.at))}</strong>
            </span>
            <span className="visually-hidden">{milestoneAt(milestone)}</span>
          </>
        ) : (
          <span className="drop-card__countdown">{drop.entryCount.toLocaleString('en-IN')} entered</span>
        )}
        <span className="drop-card__meta">Up to {drop.capacity} guests</span>
      </div>
    </Link>
  );
}
