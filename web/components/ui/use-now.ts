import { useEffect, useState } from 'react';

/** A clock that ticks every `everyMs`, so what depends on the time (a countdown, a button that appears) changes on its own. */
export function useNow(everyMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
