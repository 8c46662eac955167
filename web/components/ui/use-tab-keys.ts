import { useRef, type KeyboardEvent } from 'react';

/** The tab a key moves to from tab `index` of `count`: ← and → wrap, Home and End go to the ends; null for any other key. */
export function tabAfterKey(key: string, index: number, count: number): number | null {
  if (key === 'ArrowRight') return (index + 1) % count;
  if (key === 'ArrowLeft') return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * The keys of a tablist whose tabs are selected as they are focused (WAI-ARIA tabs, automatic
 * activation; tabAfterKey). The tab moved to is selected and focused. Gives the refs to set on the
 * tabs, in order, and the tablist's onKeyDown.
 */
export function useTabKeys<Id>(ids: readonly Id[], selected: Id, select: (id: Id) => void) {
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    const next = tabAfterKey(event.key, ids.indexOf(selected), ids.length);
    if (next === null) return;
    event.preventDefault();
    select(ids[next]);
    tabRefs.current[next]?.focus();
  }

  return { tabRefs, onKeyDown };
}
