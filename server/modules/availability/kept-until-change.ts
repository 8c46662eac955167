import type { Clock } from '#server/clock.ts';
import type { ChangeFeed } from '#server/db/client.ts';

/**
 * One value built once and kept until the change feed announces any change, the feed's delivery
 * epoch moves (a gap in listening), or `maxAgeMs` of business time passes: the same promise as
 * the HTTP layer's shared answers (decision 075), for callers that need the value, not the bytes.
 * A value whose building a change overtook is returned but not kept; nothing is kept during a gap.
 */
export function keptUntilChange<T>(changes: ChangeFeed, clock: Clock, maxAgeMs: number) {
  let kept: { value: T; builtAtMs: number; epoch: number } | null = null;
  let changesAnnounced = 0;
  const unsubscribe = changes.subscribe(() => {
    changesAnnounced += 1;
    kept = null;
  });
  return {
    async get(build: () => Promise<T>): Promise<T> {
      const nowMs = clock.now().getTime();
      const epoch = changes.deliveryEpoch();
      if (kept && kept.epoch === epoch && Math.abs(nowMs - kept.builtAtMs) < maxAgeMs) return kept.value;
      const changesBefore = changesAnnounced;
      const value = await build();
      if (epoch !== null && changesBefore === changesAnnounced && changes.deliveryEpoch() === epoch) kept = { value, builtAtMs: nowMs, epoch };
      return value;
    },
    close(): void {
      unsubscribe();
      kept = null;
    },
  };
}
