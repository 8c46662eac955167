import type { DropDetail } from '#common/contract/drops.ts';
import { formatDateShort, formatInstantKolkata as formatInstant, formatTime12h } from '#common/domain/time.ts';
import { FactList } from '#web/components/ui/FactList.tsx';
import { formatWait } from './clock.ts';
import { DrawAudit, DrawCommitment } from './DrawAudit.tsx';
import { dropWhen, nextMilestone } from './rules.ts';

/** The drop's window: the countdown to its next milestone (or when it was drawn), its instants, its times and the draw's audit. */
export function DropWindow({ drop, secondsToMilestone }: { drop: DropDetail; secondsToMilestone: number }) {
  const milestone = nextMilestone(drop);
  return (
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
        <p className="drop__drawn">
          Drawn {drop.drawnAt ? formatInstant(drop.drawnAt) : ''} · {drop.entryCount.toLocaleString('en-IN')} entries
        </p>
      )}
      <FactList
        className="drop__facts"
        facts={[
          ['Entries open', formatInstant(drop.entryOpensAt)],
          ['Entries close', formatInstant(drop.entryClosesAt)],
          ['Draw and release', formatInstant(drop.releaseAt)],
          ['Tables', `${dropWhen(drop)} · up to ${drop.capacity} guests`],
        ]}
      />
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
      {drop.drawnAt ? <DrawAudit dropId={drop.id} myEntryId={drop.myEntry?.id ?? null} /> : <DrawCommitment drop={drop} />}
    </section>
  );
}
