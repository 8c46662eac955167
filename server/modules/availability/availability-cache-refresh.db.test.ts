import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildRestaurant, buildSlot, buildStaff, type BuiltRestaurant } from '#server/test/factories.ts';
import {
  createAvailabilityCache,
  derivedAnswer,
  drawRefreshShare,
  REFRESH_SHARE_OF_MAX_AGE,
  type AvailabilityCache,
  type CachedRestaurant,
  type RefreshOutcome,
} from './availability-cache.ts';
import { readRestaurantForCache } from './availability.service.ts';

/**
 * Refresh ahead (decision 239): an entry read past 3/4 of maxAgeMs is read again in the background,
 * renewed with its derived answers when the restaurant is the same, replaced when it is not, and
 * never kept when a change overtook the reload. The cache reads the real database through the
 * app's own loader; its monotonic clock is moved by hand.
 */
let t: TestApp;
const NOW = new Date(TEST_NOW);
const DATE = '2026-11-24';
const MAX_AGE_MS = 300_000;
/** The share these tests fix (the app draws one per entry from REFRESH_SHARE_OF_MAX_AGE). */
const REFRESH_SHARE = 0.75;
const REFRESH_AT_MS = MAX_AGE_MS * REFRESH_SHARE;

beforeAll(async () => {
  t = await createTestApp();
  await vi.waitFor(() => expect(t.database.availabilityChanges.deliveryEpoch()).not.toBeNull(), { timeout: 5_000 });
});
afterAll(() => t.close());

/** A restaurant with a floor and one slot on DATE, so the comparison covers slots, profile, policy and floor. */
async function floorRestaurant(): Promise<{ restaurant: BuiltRestaurant; slotId: string }> {
  const restaurant = await buildRestaurant(t.database.db);
  const slotId = (await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '19:00', capacity: 6 })).id;
  const staff = await buildStaff(t.database.db, restaurant.id);
  const saved = await t.app.inject({
    method: 'PUT',
    url: '/api/admin/floor/tables',
    headers: { authorization: `Bearer ${staff.token}` },
    payload: { tables: [{ name: 'T4', minCovers: 2, maxCovers: 4, section: 'indoor', onlineBookable: true }], combinations: [] },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { restaurant, slotId };
}

/** A write the change feed never hears of (triggers off for its transaction), as an operator's bulk load. */
async function writeUnannounced(slotId: string, capacity: number): Promise<void> {
  await t.database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    await tx.execute(sql`UPDATE slots SET capacity = ${capacity} WHERE id = ${slotId}`);
  });
}

const capacityOf = (restaurant: CachedRestaurant) => restaurant.slotsByDate.get(DATE)![0].capacity;

/** A promise and its resolve, for a step the test lets happen. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

let cache: AvailabilityCache | undefined;
afterEach(() => cache?.close());

/**
 * The cache under test, on the app's database and change feed, with its monotonic clock at `clock.ms`.
 * Each load reads the database, then, while `gate` is set, waits for it (so a change can come after
 * the read and before the load returns); with `failing`, it rejects after its read.
 */
function cacheUnderTest() {
  const clock = { ms: 0 };
  const read = readRestaurantForCache(t.database.db, t.app.services.restaurants, t.app.services.floor);
  const state = {
    loads: 0,
    lookups: [] as ('hit' | 'miss')[],
    outcomes: [] as RefreshOutcome[],
    failing: false,
    gate: null as null | { reached: ReturnType<typeof deferred>; open: ReturnType<typeof deferred> },
  };
  cache = createAvailabilityCache({
    changes: t.database.availabilityChanges,
    maxAgeMs: MAX_AGE_MS,
    maxRestaurants: 100,
    monotonicNow: () => clock.ms,
    refreshShare: () => REFRESH_SHARE,
    onLookup: (result) => state.lookups.push(result),
    onRefresh: (outcome) => state.outcomes.push(outcome),
    async load(key, from, to, now) {
      state.loads += 1;
      const restaurant = await read(key, from, to, now);
      if (state.gate) {
        state.gate.reached.resolve();
        await state.gate.open.promise;
      }
      if (state.failing) throw new Error('the database went away');
      return restaurant;
    },
  });
  const closeGate = () => (state.gate = { reached: deferred(), open: deferred() });
  const settled = () => vi.waitFor(() => expect(state.outcomes).toHaveLength(1), { timeout: 5_000, interval: 5 });
  return { cache, clock, state, closeGate, settled };
}

describe('availability cache: refresh ahead of maxAge (decision 239)', () => {
  it('a read past the refresh point answers from memory and starts exactly one reload; a peek starts one only when allowed', async () => {
    const { restaurant } = await floorRestaurant();
    const { cache, clock, state, closeGate, settled } = cacheUnderTest();
    const first = await cache.getRestaurant(restaurant.slug, NOW);
    expect(state.loads).toBe(1);
    clock.ms = REFRESH_AT_MS - 1;
    expect(await cache.getRestaurant(restaurant.slug, NOW)).toBe(first);
    expect(state.loads).toBe(1);

    clock.ms = REFRESH_AT_MS;
    // A peek as a transaction makes it (no refreshAhead) never reads the database.
    expect(cache.peekRestaurant(restaurant.slug, NOW)).toBe(first);
    expect(state.loads).toBe(1);
    const gate = closeGate();
    expect(cache.peekRestaurant(restaurant.slug, NOW, { refreshAhead: true })).toBe(first);
    expect(state.loads).toBe(2);
    await gate.reached.promise;
    // While the reload waits: every read still answers from memory, as hits, and starts no other reload.
    expect(await cache.getRestaurant(restaurant.slug, NOW)).toBe(first);
    expect(await cache.getRestaurant(restaurant.slug, NOW)).toBe(first);
    expect(cache.peekRestaurant(restaurant.slug, NOW, { refreshAhead: true })).toBe(first);
    expect(state.loads).toBe(2);
    expect(state.lookups).toEqual(['miss', 'hit', 'hit', 'hit']);
    gate.open.resolve();
    await settled();
    expect(state.outcomes).toEqual(['renewed']);
    expect(state.lookups).toEqual(['miss', 'hit', 'hit', 'hit']);
  });

  it('after an unchanged reload the entry outlives the old maxAge with the same derived answers', async () => {
    const { restaurant } = await floorRestaurant();
    const { cache, clock, state, settled } = cacheUnderTest();
    const first = await cache.getRestaurant(restaurant.slug, NOW);
    const answer = derivedAnswer(first, 'the answer', NOW.getTime(), 30, () => ({ built: 'once' }));
    clock.ms = REFRESH_AT_MS + 1_000;
    await cache.getRestaurant(restaurant.slug, NOW);
    await settled();
    expect(state.outcomes).toEqual(['renewed']);

    clock.ms = MAX_AGE_MS + 60_000;
    const later = await cache.getRestaurant(restaurant.slug, NOW);
    expect(later).toBe(first);
    expect(
      derivedAnswer(later, 'the answer', NOW.getTime(), 30, () => {
        throw new Error('built again');
      }),
    ).toBe(answer);
    expect(state.loads).toBe(2);
    expect(state.lookups).toEqual(['miss', 'hit', 'hit']);
  });

  it('a reload that finds the restaurant changed replaces the entry, and its derived answers go', async () => {
    const { restaurant, slotId } = await floorRestaurant();
    const { cache, clock, state, settled } = cacheUnderTest();
    const first = await cache.getRestaurant(restaurant.slug, NOW);
    derivedAnswer(first, 'the answer', NOW.getTime(), 30, () => 'old');
    await writeUnannounced(slotId, 3);
    clock.ms = REFRESH_AT_MS;
    expect(capacityOf(await cache.getRestaurant(restaurant.slug, NOW))).toBe(6);
    await settled();
    expect(state.outcomes).toEqual(['replaced']);

    clock.ms = MAX_AGE_MS + 60_000;
    const replaced = await cache.getRestaurant(restaurant.slug, NOW);
    expect(replaced).not.toBe(first);
    expect(capacityOf(replaced)).toBe(3);
    expect(derivedAnswer(replaced, 'the answer', NOW.getTime(), 30, () => 'new')).toBe('new');
    expect(state.lookups).toEqual(['miss', 'hit', 'hit']);
  });

  it('a change announced while the reload runs discards it; the change drops the entry as before', async () => {
    const { restaurant, slotId } = await floorRestaurant();
    const { cache, clock, state, closeGate, settled } = cacheUnderTest();
    const first = await cache.getRestaurant(restaurant.slug, NOW);
    clock.ms = REFRESH_AT_MS;
    const gate = closeGate();
    await cache.getRestaurant(restaurant.slug, NOW);
    await gate.reached.promise; // the reload has read capacity 6
    await t.database.db.execute(sql`UPDATE slots SET capacity = 5 WHERE id = ${slotId}`);
    expect(cache.peekRestaurant(restaurant.slug, NOW)).toBeNull();
    gate.open.resolve();
    await settled();
    expect(state.outcomes).toEqual(['discarded']);
    expect(cache.size()).toBe(0);

    state.gate = null;
    const fresh = await cache.getRestaurant(restaurant.slug, NOW);
    expect(fresh).not.toBe(first);
    expect(capacityOf(fresh)).toBe(5);
    expect(state.lookups).toEqual(['miss', 'hit', 'miss']);
  });

  it('a failing reload is swallowed: the entry still answers until maxAge and goes then', async () => {
    const { restaurant } = await floorRestaurant();
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const { cache, clock, state, settled } = cacheUnderTest();
      const first = await cache.getRestaurant(restaurant.slug, NOW);
      state.failing = true;
      clock.ms = REFRESH_AT_MS;
      expect(await cache.getRestaurant(restaurant.slug, NOW)).toBe(first);
      await settled();
      expect(state.outcomes).toEqual(['failed']);
      // Let any unhandled rejection surface before looking.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(rejections).toEqual([]);

      state.failing = false;
      clock.ms = MAX_AGE_MS - 1;
      expect(cache.peekRestaurant(restaurant.slug, NOW)).toBe(first);
      clock.ms = MAX_AGE_MS;
      expect(cache.peekRestaurant(restaurant.slug, NOW)).toBeNull();
      const reread = await cache.getRestaurant(restaurant.slug, NOW);
      expect(reread).not.toBe(first);
      expect(state.lookups.at(-1)).toBe('miss');
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('an entry nobody reads after its renewal expires at maxAge from the renewal, with no reload of its own', async () => {
    const { restaurant } = await floorRestaurant();
    const { cache, clock, state, settled } = cacheUnderTest();
    const first = await cache.getRestaurant(restaurant.slug, NOW);
    const renewedAt = REFRESH_AT_MS + 10_000;
    clock.ms = renewedAt;
    await cache.getRestaurant(restaurant.slug, NOW);
    await settled();
    expect(state.outcomes).toEqual(['renewed']);

    // Unread from here: still held just before maxAge from the renewal, gone at it, and nothing read it again meanwhile.
    clock.ms = renewedAt + MAX_AGE_MS - 1;
    expect(cache.peekRestaurant(restaurant.slug, NOW)).toBe(first);
    clock.ms = renewedAt + MAX_AGE_MS;
    expect(cache.peekRestaurant(restaurant.slug, NOW)).toBeNull();
    expect(state.loads).toBe(2);
    await cache.getRestaurant(restaurant.slug, NOW);
    expect(state.loads).toBe(3);
    expect(state.lookups).toEqual(['miss', 'hit', 'miss']);
  });

  it('a reload that ends after midnight in Kolkata never serves the old day: the first read of the new day reads it', async () => {
    const { restaurant } = await floorRestaurant();
    const { cache, clock, state, closeGate, settled } = cacheUnderTest();
    const beforeMidnight = new Date('2026-11-23T18:29:59.000Z'); // 23:59:59 in Kolkata
    const afterMidnight = new Date('2026-11-23T18:30:01.000Z');
    const first = await cache.getRestaurant(restaurant.slug, beforeMidnight);
    expect(first.from).toBe('2026-11-23');
    clock.ms = REFRESH_AT_MS;
    const gate = closeGate();
    expect(await cache.getRestaurant(restaurant.slug, beforeMidnight)).toBe(first);
    await gate.reached.promise;
    expect(state.loads).toBe(2);
    gate.open.resolve();
    await settled();

    state.gate = null;
    const newDay = await cache.getRestaurant(restaurant.slug, afterMidnight);
    expect(newDay.from).toBe('2026-11-24');
    expect(state.loads).toBe(3);
    expect(state.lookups).toEqual(['miss', 'hit', 'miss']);
  });
});

describe('when entries are read again (decision 239)', () => {
  it('draws each entry its own share of the age, inside the range, so entries read together are not all read again together', () => {
    const shares = Array.from({ length: 1000 }, drawRefreshShare);
    for (const share of shares) {
      expect(share).toBeGreaterThanOrEqual(REFRESH_SHARE_OF_MAX_AGE.from);
      expect(share).toBeLessThan(REFRESH_SHARE_OF_MAX_AGE.to);
    }
    // Spread over the range: each tenth of it gets some of the 1,000 draws.
    const tenth = (REFRESH_SHARE_OF_MAX_AGE.to - REFRESH_SHARE_OF_MAX_AGE.from) / 10;
    const perTenth = Array.from(
      { length: 10 },
      (_, index) => shares.filter((share) => Math.floor((share - REFRESH_SHARE_OF_MAX_AGE.from) / tenth) === index).length,
    );
    expect(Math.min(...perTenth)).toBeGreaterThan(40);
  });
});
