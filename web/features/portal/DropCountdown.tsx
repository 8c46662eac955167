import { useEffect, useEffectEvent } from 'react';
import { formatWait, secondsBetween, useServerNow } from '#web/features/drops/clock.ts';
import type { TimedDropDetail } from './drops-api.ts';
import { formatInstant, nextMilestone } from './drops-format.ts';

/** The time to the drop's next milestone on the server's clock; at the milestone, `onReached` re-reads the drop. */
export function DropCountdown({ drop, onReached }: { drop: TimedDropDetail; onReached: () => void }) {
  const now = useServerNow(drop.clockOffsetMs);
  const milestone = nextMilestone(drop);
  const remaining = milestone ? secondsBetween(now, milestone.at) : null;
  const reached = remaining === 0;
  const readAgain = useEffectEvent(onReached);
  // At the milestone the phase changes on the server: read it again (the draw runs on the first read after the release).
  useEffect(() => {
    if (!reached) return;
    const timer = window.setTimeout(() => readAgain(), 600);
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
