import { useEffect, useState } from 'react';
import { secondsUntil } from '#common/domain/time.ts';

/** Whole seconds until `instant`, re-read every second (on the second boundary), never negative. */
export function useSecondsLeft(instant: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!instant) return;
    let timer: number;
    const tick = () => {
      setNow(Date.now());
      const left = Date.parse(instant) - Date.now();
      if (left <= 0) return;
      // Wake just after the next whole second left, so the display never skips or lingers.
      timer = window.setTimeout(tick, (left % 1000) + 20);
    };
    tick();
    return () => window.clearTimeout(timer);
  }, [instant]);
  return instant ? secondsUntil(instant, new Date(now)) : 0;
}
