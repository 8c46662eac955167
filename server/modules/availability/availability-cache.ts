import { isDeepStrictEqual } from 'node:util';
import { addDays, bookingClosesAt, isPastBookingCutoff, todayInKolkata } from '#common/domain/time.ts';
import { AVAILABILITY_HORIZON_DAYS } from '#common/domain/restaurants.ts';
import type { RestaurantDetail } from '#common/contract/restaurants.ts';
import type { DepositPolicy, DropDepositRequirement } from '#common/domain/deposit-policy.ts';
import type { Floor, Occupancy } from '#common/domain/floor.ts';
import { canPlaceParty } from '#common/domain/floor-repack.ts';
import { asDate, type ChangeFeed } from '#server/db/client.ts';
import type { CachedSlotRow } from './availability.repository.ts';

/**
 * One slot, kept so that whether it is open and how many covers are free can be answered for
 * any instant without the database: the cut-off, a hold's expiry and a drop's opening are
 * instants, compared at read time.
 */
export interface CachedSlot {
  id: string;
  date: string;
  time: string;
  capacity: number;
  isAvailableStatus: boolean;
  startsAtMs: number;
  /** Never for an ordinary slot; for a drop's slot, the instant its leftovers opened to all (Infinity: not yet). */
  publicFromMs: number;
  lastingCovers: number;
  holds: [expiresAtMs: number, covers: number][];
  /** The drop's own deposit ask, for a drop's slot that has one. */
  dropDeposit: DropDepositRequirement | null;
}

/** A restaurant's next AVAILABILITY_HORIZON_DAYS days of slots, by date, as of one read. */
export interface CachedRestaurant {
  restaurantId: string;
  /** The public profile as of the same read (a write to the restaurants row notifies like slots', migration 0006), and its JSON. */
  restaurant: RestaurantDetail;
  restaurantJson: string;
  /** The first date held (today in Kolkata when it was read). */
  from: string;
  to: string;
  slotsByDate: Map<string, CachedSlot[]>;
  /** The restaurant's deposit policy as of the same read (its writes notify like slots', migration 0009). */
  depositPolicy: DepositPolicy;
  /** The floor and what takes its tables, as of the same read (its writes notify too, migration 0022); null: covers alone decide. */
  floor: CachedFloor | null;
  /**
   * Answers derived from the slots, all kept while `now` stays in [fromMs, untilMs): no slot's
   * open-ness or free covers changes in that span (see nextChangeWithoutWrite).
   */
  derived?: DerivedAnswers;
}

/** A restaurant's floor as the cache keeps it: occupancies by the Kolkata date they start on, each with the instant it stops counting. */
export interface CachedFloor {
  floor: Floor;
  occupanciesByDate: Map<string, (Occupancy & { expiresAtMs: number })[]>;
}

/** A restaurant's derived answers for one span [fromMs, untilMs); `span` names it among all spans of all restaurants. */
export interface DerivedAnswers {
  span: number;
  fromMs: number;
  untilMs: number;
  values: Map<string, unknown>;
}

/** The last span number given out: every span of every restaurant gets its own. */
let lastSpan = 0;

/**
 * The first instant after `nowMs` at which some slot's open-ness or free covers change with no
 * write: a cut-off passing, a hold expiring, a drop's tables opening to all.
 */
export function nextChangeWithoutWrite(restaurant: CachedRestaurant, nowMs: number, cutoffMinutes: number): number {
  let next = Number.POSITIVE_INFINITY;
  const consider = (instant: number) => {
    if (instant > nowMs && instant < next) next = instant;
  };
  for (const slots of restaurant.slotsByDate.values()) {
    for (const slot of slots) {
      consider(bookingClosesAt(slot.startsAtMs, cutoffMinutes).getTime());
      consider(slot.publicFromMs);
      for (const [expiresAtMs] of slot.holds) consider(expiresAtMs);
    }
  }
  for (const occupancies of restaurant.floor?.occupanciesByDate.values() ?? []) {
    for (const occupancy of occupancies) consider(occupancy.expiresAtMs);
  }
  return next;
}

/**
 * An answer computed from a cached restaurant, kept on it until the next instant it could change
 * on its own (the entry itself goes when a write is announced). Every answer of a restaurant
 * shares that span: it depends on the slots only, so it is found once per span, not per answer.
 */
export function derivedAnswer<T>(restaurant: CachedRestaurant, key: string, nowMs: number, cutoffMinutes: number, compute: () => T): T {
  const derived = currentDerived(restaurant, nowMs, cutoffMinutes);
  if (derived.values.has(key)) return derived.values.get(key) as T;
  const value = compute();
  derived.values.set(key, value);
  return value;
}

/** The restaurant's derived answers for the span `nowMs` falls in, started afresh (empty, a new span number) when it left the last one. */
export function currentDerived(restaurant: CachedRestaurant, nowMs: number, cutoffMinutes: number): DerivedAnswers {
  let derived = restaurant.derived;
  if (!derived || nowMs < derived.fromMs || nowMs >= derived.untilMs) {
    derived = { span: ++lastSpan, fromMs: nowMs, untilMs: nextChangeWithoutWrite(restaurant, nowMs, cutoffMinutes), values: new Map() };
    restaurant.derived = derived;
  }
  return derived;
}

/** The holds of a slot without any (shared, read only). */
const NO_HOLDS: [number, number][] = [];

export function toCachedSlot(row: CachedSlotRow): CachedSlot {
  const openedToAll = row.drop_opened_to_all_at ? asDate(row.drop_opened_to_all_at).getTime() : Number.POSITIVE_INFINITY;
  return {
    id: row.id,
    date: row.date,
    time: row.time,
    capacity: row.capacity,
    isAvailableStatus: row.status === 'available',
    startsAtMs: asDate(row.starts_at).getTime(),
    publicFromMs: row.drop_id ? openedToAll : Number.NEGATIVE_INFINITY,
    lastingCovers: row.lasting_covers,
    // Most slots have no live hold: they share one empty list (never written to) rather than each keeping its own.
    holds: row.holds.length === 0 ? NO_HOLDS : row.holds.map(([expiresAt, covers]) => [Number(expiresAt), Number(covers)]),
    dropDeposit: row.drop_deposit_per_cover_paise ? { perCoverPaise: row.drop_deposit_per_cover_paise } : null,
  };
}

/** The same rules as slot-sql.ts (slotIsOpen) and reservation-sql.ts (coversTakenJoin), for one instant, in memory. */
export function isSlotOpenAt(slot: CachedSlot, nowMs: number, cutoffMinutes: number): boolean {
  return slot.isAvailableStatus && !isPastBookingCutoff(slot.startsAtMs, nowMs, cutoffMinutes) && slot.publicFromMs <= nowMs;
}

export function freeCoversAt(slot: CachedSlot, nowMs: number): number {
  let taken = slot.lastingCovers;
  for (const [expiresAtMs, covers] of slot.holds) if (expiresAtMs > nowMs) taken += covers;
  return slot.capacity - taken;
}

/**
 * Whether the floor seats a party of `partySize` at the slot's time, as of `nowMs` (decision 240):
 * some table bookable online, or an allowed combination, free for the whole turn (or freed by
 * moving bookings not yet seated, decision 217), and pacing allows it: placeParty, the rule a hold
 * takes its table by. True when the restaurant has no floor (covers alone decide).
 */
export function floorSeatsAt(cachedFloor: CachedFloor | null, slot: Pick<CachedSlot, 'date' | 'startsAtMs'>, partySize: number, nowMs: number): boolean {
  if (!cachedFloor) return true;
  return floorSeatsAmong(cachedFloor, occupanciesNear(cachedFloor, slot.date, nowMs), slot.startsAtMs, partySize);
}

/**
 * What may take a table at a start on `date`, as of `nowMs`: the occupancies starting the day
 * before, that day and the day after (a turn is shorter than a day) that have not expired. Gathered
 * once per date and party size by the callers that ask for many times (decision 241).
 */
export function occupanciesNear(cachedFloor: CachedFloor, date: string, nowMs: number): Occupancy[] {
  const near: Occupancy[] = [];
  for (const day of [addDays(date, -1), date, addDays(date, 1)]) {
    for (const occupancy of cachedFloor.occupanciesByDate.get(day) ?? []) if (occupancy.expiresAtMs > nowMs) near.push(occupancy);
  }
  return near;
}

/** floorSeatsAt with the date's occupancies already gathered (occupanciesNear): whether placeParty would seat the party. */
export function floorSeatsAmong(cachedFloor: CachedFloor, near: readonly Occupancy[], startsAtMs: number, partySize: number): boolean {
  return canPlaceParty(cachedFloor.floor, near, startsAtMs, partySize, { onlineOnly: true });
}

/**
 * How far into maxAgeMs a read of an entry starts reading the restaurant again in the background
 * (decision 239), drawn per entry from this range each time it is loaded or renewed: late enough
 * that a busy restaurant is read not much more often than by age alone; early enough that the
 * rest of its age leaves a restaurant read now and then time to be read and the reload time to
 * finish before the entry expires; and drawn, so that restaurants first read together (an
 * instance's start) are read again spread over the range rather than all at once.
 */
export const REFRESH_SHARE_OF_MAX_AGE = { from: 0.6, to: 0.9 } as const;

/** A share of maxAgeMs at which an entry is read again: uniform in REFRESH_SHARE_OF_MAX_AGE. */
export function drawRefreshShare(): number {
  return REFRESH_SHARE_OF_MAX_AGE.from + Math.random() * (REFRESH_SHARE_OF_MAX_AGE.to - REFRESH_SHARE_OF_MAX_AGE.from);
}

/**
 * What became of a reload ahead of maxAgeMs: the same restaurant (the entry renewed, its answers
 * kept), a different one (the entry replaced), overtaken (a change, a gap in delivery or the entry
 * gone while it read: not kept), or failed (the entry expires at maxAgeMs as it would have).
 */
export type RefreshOutcome = 'renewed' | 'replaced' | 'discarded' | 'failed';

/** The same restaurant as a read found it: every field but the answers derived from it. */
export function isSameRestaurant(kept: CachedRestaurant, reloaded: CachedRestaurant): boolean {
  return isDeepStrictEqual({ ...kept, derived: undefined }, { ...reloaded, derived: undefined });
}

export interface AvailabilityCacheOptions {
  /** Told whether each getRestaurant was answered from memory (the hit rate in /metrics). */
  onLookup?: (result: 'hit' | 'miss') => void;
  /** Told how each reload ahead of maxAgeMs ended (a restaurant read, not counted as a miss). */
  onRefresh?: (outcome: RefreshOutcome) => void;
  changes: ChangeFeed;
  /** Reads a restaurant's id and slots from the database; rejects (404) when there is no such restaurant. */
  load(key: string, from: string, to: string, now: Date): Promise<CachedRestaurant>;
  /**
   * How long an entry may serve at most, whatever the notifications say (a safety net). A read
   * past its entry's drawn share of it (REFRESH_SHARE_OF_MAX_AGE) reads the restaurant again in the background and
   * renews the entry when nothing changed (decision 239); an entry nobody reads still goes at maxAgeMs.
   */
  maxAgeMs: number;
  /** How many restaurants are kept; the least recently loaded go first. */
  maxRestaurants: number;
  /** The share of maxAgeMs at which an entry is read again (drawRefreshShare; tests fix it). */
  refreshShare?: () => number;
  /** Real elapsed time for maxAgeMs (tests may move the business clock by days). */
  monotonicNow?: () => number;
}

interface Entry {
  restaurant: CachedRestaurant;
  loadedAtMs: number;
  /** How long after loadedAtMs a read starts the background reload (drawRefreshShare of maxAgeMs). */
  refreshAfterMs: number;
  /** The business instant it was read at: holds that had expired by then were left out. */
  readAtMs: number;
  epoch: number;
}

/**
 * Per restaurant, its next 30 days of slots in memory, so the availability reads and the
 * pre-check of a hold cost no database round trip (decision 073). An entry is dropped when the
 * database says the restaurant changed (NOTIFY from a trigger, on this instance before the write
 * returns, on others within milliseconds), when delivery had a gap, when "today" moves on, or
 * after maxAgeMs. When delivery is not sure, nothing is cached and every read goes to the database.
 * An entry read late in its life is read again in the background and, when the restaurant is the
 * same, renewed with the answers derived from it (decision 239).
 */
export function createAvailabilityCache(options: AvailabilityCacheOptions) {
  const monotonicNow = options.monotonicNow ?? (() => performance.now());
  /** By the key a caller used (slug or id, lower-cased). */
  const entries = new Map<string, Entry>();
  const keysByRestaurant = new Map<string, Set<string>>();
  /** Loads in flight, shared by concurrent misses of the same key while no change is announced. */
  const loading = new Map<string, { promise: Promise<CachedRestaurant>; changesAtStart: number }>();
  /** Changes announced so far, and per restaurant the count at its latest one. */
  let changeCount = 0;
  const lastChangeOf = new Map<string, number>();
  const refreshShare = options.refreshShare ?? drawRefreshShare;
  /** Keys being read again ahead of maxAgeMs: one reload per key at a time. */
  const refreshing = new Set<string>();

  function forget(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    keysByRestaurant.get(entry.restaurant.restaurantId)?.delete(key);
  }

  const unsubscribe = options.changes.subscribe((restaurantId) => {
    changeCount += 1;
    lastChangeOf.set(restaurantId, changeCount);
    for (const key of keysByRestaurant.get(restaurantId) ?? []) entries.delete(key);
    keysByRestaurant.delete(restaurantId);
  });

  function keep(key: string, restaurant: CachedRestaurant, epoch: number, readAt: Date): void {
    if (entries.size >= options.maxRestaurants) {
      const oldest = entries.keys().next();
      if (!oldest.done) forget(oldest.value);
    }
    entries.set(key, { restaurant, loadedAtMs: monotonicNow(), refreshAfterMs: options.maxAgeMs * refreshShare(), readAtMs: readAt.getTime(), epoch });
    let keys = keysByRestaurant.get(restaurant.restaurantId);
    if (!keys) keysByRestaurant.set(restaurant.restaurantId, (keys = new Set()));
    keys.add(key);
  }

  /** The entry's restaurant when it can still be trusted at `now`, else null. */
  function currentRestaurant(entry: Entry, epoch: number | null, from: string, now: Date): CachedRestaurant | null {
    // A clock set back (tests do) before the read could need holds the read left out.
    const isCurrent =
      entry.epoch === epoch && entry.restaurant.from === from && now.getTime() >= entry.readAtMs && monotonicNow() - entry.loadedAtMs < options.maxAgeMs;
    return isCurrent ? entry.restaurant : null;
  }

  async function loadAndMaybeKeep(key: string, from: string, now: Date, epoch: number, changesAtStart: number): Promise<CachedRestaurant> {
    const restaurant = await options.load(key, from, addDays(from, AVAILABILITY_HORIZON_DAYS - 1), now);
    // Kept only if nothing about this restaurant was announced while it was read, and delivery
    // had no gap: otherwise it may already be out of date (this caller still gets a fresh read).
    const isUnchanged = (lastChangeOf.get(restaurant.restaurantId) ?? 0) <= changesAtStart;
    if (isUnchanged && options.changes.deliveryEpoch() === epoch) keep(key, restaurant, epoch, now);
    return restaurant;
  }

  /**
   * Starts one background reload of a current entry past the refresh point (decision 239). Its
   * `from` is the entry's (the read found it current, so today is the entry's day): a reload never
   * renews an entry for another day, and after midnight the read rule drops the entry whatever its age.
   */
  function refreshIfAging(key: string, entry: Entry, now: Date): void {
    const startedAtMs = monotonicNow();
    if (refreshing.has(key) || startedAtMs - entry.loadedAtMs < entry.refreshAfterMs) return;
    refreshing.add(key);
    const changesAtStart = changeCount;
    const from = entry.restaurant.from;
    void (async () => {
      let outcome: RefreshOutcome = 'failed';
      try {
        const reloaded = await options.load(key, from, addDays(from, AVAILABILITY_HORIZON_DAYS - 1), now);
        outcome = settleRefresh(key, entry, reloaded, changesAtStart, startedAtMs, now);
      } catch {
        // Swallowed, never an unhandled rejection: the entry serves until maxAgeMs as it would have,
        // and the read after that misses and reads (and reports a failure) itself.
      } finally {
        refreshing.delete(key);
      }
      options.onRefresh?.(outcome);
    })();
  }

  /** Keeps what a reload found, by the rule loadAndMaybeKeep keeps a load by, and keeps the old object when nothing changed. */
  function settleRefresh(key: string, entry: Entry, reloaded: CachedRestaurant, changesAtStart: number, startedAtMs: number, now: Date): RefreshOutcome {
    const isOvertaken = (lastChangeOf.get(reloaded.restaurantId) ?? 0) > changesAtStart || options.changes.deliveryEpoch() !== entry.epoch;
    if (isOvertaken || entries.get(key) !== entry) return 'discarded';
    if (isSameRestaurant(entry.restaurant, reloaded)) {
      // Loaded again, as far as age and eviction order go: the same object, so its derived answers stay.
      entry.loadedAtMs = startedAtMs;
      entry.refreshAfterMs = options.maxAgeMs * refreshShare();
      entries.delete(key);
      entries.set(key, entry);
      return 'renewed';
    }
    forget(key);
    keep(key, reloaded, entry.epoch, now);
    return 'replaced';
  }

  return {
    /**
     * The restaurant's slots from today (Kolkata, at `now`) for AVAILABILITY_HORIZON_DAYS days,
     * from memory when the entry is current, else read (and kept when delivery is sure).
     */
    async getRestaurant(slugOrId: string, now: Date): Promise<CachedRestaurant> {
      const key = slugOrId.toLowerCase();
      const from = todayInKolkata(now);
      const epoch = options.changes.deliveryEpoch();
      const entry = entries.get(key);
      if (entry) {
        const current = currentRestaurant(entry, epoch, from, now);
        if (current) {
          options.onLookup?.('hit');
          refreshIfAging(key, entry, now);
          return current;
        }
        forget(key);
      }
      options.onLookup?.('miss');
      if (epoch === null || options.maxAgeMs <= 0) return options.load(key, from, addDays(from, AVAILABILITY_HORIZON_DAYS - 1), now);
      // A load that began before some change was announced may miss it: join only a load as new as the latest change.
      const inFlightKey = `${key} ${from}`;
      const pending = loading.get(inFlightKey);
      if (pending && pending.changesAtStart === changeCount) return pending.promise;
      const changesAtStart = changeCount;
      const promise = loadAndMaybeKeep(key, from, now, epoch, changesAtStart).finally(() => {
        if (loading.get(inFlightKey)?.promise === promise) loading.delete(inFlightKey);
      });
      loading.set(inFlightKey, { promise, changesAtStart });
      return promise;
    },

    /**
     * The restaurant from memory when its entry is current, else null, never waiting on the database:
     * for callers inside a transaction, where a read on another connection could wait on the pool.
     * With `refreshAhead` (only for callers outside any transaction: the kept answers' hot path,
     * which may never call getRestaurant), an aging entry also starts its background reload.
     */
    peekRestaurant(slugOrId: string, now: Date, { refreshAhead = false } = {}): CachedRestaurant | null {
      const key = slugOrId.toLowerCase();
      const entry = entries.get(key);
      const current = entry ? currentRestaurant(entry, options.changes.deliveryEpoch(), todayInKolkata(now), now) : null;
      if (entry && current && refreshAhead) refreshIfAging(key, entry, now);
      return current;
    },

    /** How many restaurants are held now (for tests and diagnostics). */
    size: () => entries.size,

    close(): void {
      unsubscribe();
      entries.clear();
      keysByRestaurant.clear();
    },
  };
}

export type AvailabilityCache = ReturnType<typeof createAvailabilityCache>;
