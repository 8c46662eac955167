import type { FastifyRequest } from 'fastify';

/**
 * Answers kept in memory by a key, bounded by count and by size (decision 200): past either
 * bound the least recently used go first, so no sequence of requests can grow the memory beyond
 * them. A value larger than the whole size bound is not kept at all.
 */
export interface KeptAnswers<T> {
  /** The value kept under `key`, now the most recently used; undefined when none. */
  get(key: string): T | undefined;
  /** Keeps `value` under `key` (replacing any), counting `size` units towards the size bound. */
  set(key: string, value: T, size: number): void;
  /** Counts `extra` more units for the value under `key` (its compressed forms, made on demand). */
  grow(key: string, extra: number): void;
  delete(key: string): void;
  clear(): void;
  /** How many values are kept, and the units they count (for /metrics and tests). */
  entries(): number;
  size(): number;
}

export function createKeptAnswers<T>(bounds: { maxEntries: number; maxSize: number }): KeptAnswers<T> {
  /** A Map iterates in insertion order: re-inserting on every use keeps the least recently used first. */
  const kept = new Map<string, { value: T; size: number }>();
  let total = 0;

  function remove(key: string): void {
    const entry = kept.get(key);
    if (!entry) return;
    kept.delete(key);
    total -= entry.size;
  }

  function evictBeyondBounds(): void {
    for (const key of kept.keys()) {
      if (kept.size <= bounds.maxEntries && total <= bounds.maxSize) return;
      remove(key);
    }
  }

  return {
    get(key) {
      const entry = kept.get(key);
      if (!entry) return undefined;
      kept.delete(key);
      kept.set(key, entry);
      return entry.value;
    },
    set(key, value, size) {
      remove(key);
      if (size > bounds.maxSize) return;
      kept.set(key, { value, size });
      total += size;
      evictBeyondBounds();
    },
    grow(key, extra) {
      const entry = kept.get(key);
      if (!entry) return;
      entry.size += extra;
      total += extra;
      evictBeyondBounds();
    },
    delete: remove,
    clear() {
      kept.clear();
      total = 0;
    },
    entries: () => kept.size,
    size: () => total,
  };
}

/**
 * The key of a public answer kept for everyone: the route, and only the parameters its contract
 * declares, as the contract read them (decision 200). Unknown query parameters are ignored, as
 * Zod's objects ignore them on every route, and spellings of one value (`limit=01`, another
 * order) share a key, so a stranger's junk parameters cannot make the memory keep new answers.
 * Call it once the request has been validated (preHandler or later).
 */
export function normalisedAnswerKey(request: FastifyRequest): string {
  const schema = request.routeOptions.schema;
  const parts = [request.routeOptions.url ?? ''];
  if (schema?.params) parts.push(canonicalParameters(request.params));
  if (schema?.querystring) parts.push(canonicalParameters(request.query));
  return parts.join('?');
}

/** The parameters' values in name order, without those the contract left unset. */
function canonicalParameters(values: unknown): string {
  if (values === null || typeof values !== 'object') return '';
  const entries = Object.entries(values as Record<string, unknown>).filter(([, value]) => value !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}
