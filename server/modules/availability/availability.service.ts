import type { AvailabilityCalendar, AvailabilityEntry, AvailableTodayQuery, AvailableTodayResponse, RestaurantDetail } from '#common/contract/restaurants.ts';
import { AVAILABILITY_HORIZON_DAYS, MAX_PARTY_SIZE, probedPartySizes } from '#common/domain/restaurants.ts';
import type { SlotDeposit } from '#common/contract/deposits.ts';
import { chargeForBooking, type DepositPolicy, type DropDepositRequirement } from '#common/domain/deposit-policy.ts';
import { addDays, minutesOfDay } from '#common/domain/time.ts';
import type { Occupancy } from '#common/domain/floor.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { anonymous, type Principal } from '#server/modules/accounts/principal.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import type { FloorService } from '#server/modules/floor/floor.service.ts';
import { keptUntilChange } from './kept-until-change.ts';
import { createAvailabilityTexts } from './availability-texts.ts';
import {
  createAvailabilityCache,
  currentDerived,
  derivedAnswer,
  floorSeatsAmong,
  floorSeatsAt,
  freeCoversAt,
  isSlotOpenAt,
  occupanciesNear,
  toCachedSlot,
  type AvailabilityCache,
  type AvailabilityCacheOptions,
  type CachedRestaurant,
  type CachedSlot,
  type DerivedAnswers,
} from './availability-cache.ts';
import { listOpenSlotsBetween, listSlotAvailability, listSlotsForCache, type OpenSlotRow } from './availability.repository.ts';

/**
 * A held date's slots as JSON text around each slot's `available`, and the free covers that decide
 * it (-1: closed); on a restaurant with a floor, `seats(n)` says for each slot whether a party of n
 * has a table (false where its covers already say no).
 */
type DayPieces = {
  slots: { head: string; tail: string; free: number }[];
  seats: ((partySize: number) => readonly boolean[]) | null;
};

/**
 * Whether the floor seats a party at each of a date's slots, worked out for a size the first time it
 * is asked and kept with the day's pieces. A city's answers are mostly first reads of their date
 * (performance.md §10): the date's occupancies are gathered once per size, not per slot, and a slot
 * whose covers already refuse the party is not seated at all (decision 241). `nowMs` is the pieces'
 * own, so a size asked later gets the answer it would have had then.
 */
function seatsBySize(
  cachedFloor: NonNullable<CachedRestaurant['floor']>,
  date: string,
  slots: readonly CachedSlot[],
  free: readonly number[],
  nowMs: number,
): (partySize: number) => readonly boolean[] {
  const known: (readonly boolean[] | undefined)[] = [];
  return (partySize) => {
    let seats = known[partySize];
    if (!seats) {
      const near = occupanciesNear(cachedFloor, date, nowMs);
      seats = slots.map((slot, index) => free[index] >= partySize && floorSeatsAmong(cachedFloor, near, slot.startsAtMs, partySize));
      known[partySize] = seats;
    }
    return seats;
  };
}

/** The "today" strip and Explore Tonight promise the next 24 hours. */
const TODAY_WINDOW_HOURS = 24;
/** The today list moves with the clock, so a kept one is rebuilt at least this often (as its HTTP answer, decision 075). */
export const TODAY_ANSWER_SECONDS = 15;

/** `{ deposit }` when a slot asks per guest before the diner reserves (decision 120); nothing otherwise, keeping the spec's shape. */
function slotDepositOf(policy: DepositPolicy, startsAt: Date, dropDeposit: DropDepositRequirement | null): { deposit?: SlotDeposit } {
  const charge = chargeForBooking(policy, startsAt, dropDeposit);
  return charge.kind === 'none' ? {} : { deposit: { kind: charge.kind, perCoverPaise: charge.perCoverPaise } };
}

/** Up to `count` available times of `entries` other than `time`, nearest to it first (decision 240). */
function nearestFreeTimes(entries: AvailabilityEntry[], date: string, time: string, count = 3): { date: string; time: string }[] {
  const wanted = minutesOfDay(time);
  return entries
    .filter((entry) => entry.available && entry.time !== time)
    .sort((a, b) => Math.abs(minutesOfDay(a.time) - wanted) - Math.abs(minutesOfDay(b.time) - wanted) || a.time.localeCompare(b.time))
    .slice(0, count)
    .map((entry) => ({ date, time: entry.time }));
}

/** Closed, past its cut-off or without room for the party, as of `now`; false for a slot not (yet) public. */
function isFullIn(cached: CachedRestaurant, date: string, time: string, partySize: number, now: Date, cutoffMinutes: number): boolean {
  const slot = cached.slotsByDate.get(date)?.find((candidate) => candidate.time === time);
  if (!slot) return false;
  const nowMs = now.getTime();
  if (slot.publicFromMs > nowMs) return false;
  return !isSlotOpenAt(slot, nowMs, cutoffMinutes) || freeCoversAt(slot, nowMs) < partySize || !floorSeatsAt(cached.floor, slot, partySize, nowMs);
}

/**
 * Whether a party of `partySize` may book the slot at `nowMs`: open, enough covers free, and on a
 * restaurant with a floor, a table or combination free for the whole turn within pacing (decision 240).
 */
function isOfferedIn(cached: CachedRestaurant, slot: CachedSlot, partySize: number, nowMs: number, cutoffMinutes: number): boolean {
  return isSlotOpenAt(slot, nowMs, cutoffMinutes) && freeCoversAt(slot, nowMs) >= partySize && floorSeatsAt(cached.floor, slot, partySize, nowMs);
}

/** isOfferedIn with the date's occupancies already gathered (occupanciesNear; ignored without a floor). */
function isOfferedAmong(
  cached: CachedRestaurant,
  near: readonly Occupancy[],
  slot: CachedSlot,
  partySize: number,
  nowMs: number,
  cutoffMinutes: number,
): boolean {
  return (
    isSlotOpenAt(slot, nowMs, cutoffMinutes) &&
    freeCoversAt(slot, nowMs) >= partySize &&
    (cached.floor === null || floorSeatsAmong(cached.floor, near, slot.startsAtMs, partySize))
  );
}

/**
 * What the today list says of a slot as of `nowMs`: the largest party it seats — its free covers,
 * and on a restaurant with a floor, the largest N such that every party from two to N has a free
 * table or combination for its whole turn, so a filter by party size (Explore Tonight) never shows
 * a time that cannot be seated — or null when it does not seat a party of two and is left out.
 */
function largestPartySeated(
  cachedFloor: CachedRestaurant['floor'],
  row: { date: string; starts_at: Date | string; free_covers: number },
  nowMs: number,
): number | null {
  if (!cachedFloor) return row.free_covers;
  const slot = { date: row.date, startsAtMs: asDate(row.starts_at).getTime() };
  const most = Math.min(row.free_covers, MAX_PARTY_SIZE);
  let size = probedPartySizes[0] - 1;
  while (size < most && floorSeatsAt(cachedFloor, slot, size + 1, nowMs)) size += 1;
  return size >= probedPartySizes[0] ? size : null;
}

/**
 * The restaurant held in memory with its derived answers' current span (decision 238), from memory
 * only and synchronously, so a route sends a kept answer in the same turn; undefined otherwise, and
 * the route works the answer out. A write announced for the restaurant drops its entry and its
 * answers at once (decision 073), so a kept answer is never served past one.
 */
function heldWithCurrentAnswers(cache: AvailabilityCache, slugOrId: string, now: Date): { cached: CachedRestaurant; derived: DerivedAnswers } | undefined {
  // Outside any transaction (the route's first look), so an aging entry may start its reload here:
  // a restaurant read only through kept answers never calls getRestaurant (decision 239).
  const cached = cache.peekRestaurant(slugOrId, now, { refreshAhead: true });
  const derived = cached?.derived;
  const nowMs = now.getTime();
  if (!cached || !derived || nowMs < derived.fromMs || nowMs >= derived.untilMs) return undefined;
  return { cached, derived };
}

/** The key of a restaurant's calendar JSON among its derived answers. */
const CALENDAR_JSON = 'calendar json';

/** The restaurant as the today strip names it, from one of its open slots' rows. */
function todayRestaurantOf(row: OpenSlotRow): AvailableTodayResponse['restaurants'][number]['restaurant'] {
  return {
    id: row.restaurant_id,
    slug: row.slug,
    name: row.name,
    emoji: row.emoji,
    neighborhood: row.neighborhood,
    category: row.category,
    cuisineTags: row.cuisine_tags,
    hot: row.hot,
  };
}

/** How the cache reads a restaurant: its profile, next days of slots, deposit policy and floor, as of `now`. */
export function readRestaurantForCache(db: AppDeps['db'], restaurants: RestaurantsService, floor: FloorService): AvailabilityCacheOptions['load'] {
  return async (key, from, to, now) => {
    // The restaurants service owns the lookup (and its 404); public, so no principal is needed.
    const restaurant = await restaurants.getRestaurant(anonymous, key);
    const slotsByDate = new Map<string, CachedSlot[]>();
    for (const row of await listSlotsForCache(db, restaurant.id, from, to, now)) {
      const slot = toCachedSlot(row);
      const ofDate = slotsByDate.get(slot.date);
      if (ofDate) ofDate.push(slot);
      else slotsByDate.set(slot.date, [slot]);
    }
    const depositPolicy = await restaurants.getDepositPolicy(anonymous, restaurant.id);
    const cachedFloor = await floor.readFloorForAvailability(restaurant.id, from, to, now);
    return { restaurantId: restaurant.id, restaurant, restaurantJson: JSON.stringify(restaurant), from, to, slotsByDate, depositPolicy, floor: cachedFloor };
  };
}

/** Availability is public: anyone may read it, so these take a principal only to keep the rule uniform. */
export function createAvailabilityService(
  { db, clock, config, availabilityChanges, metrics }: AppDeps,
  restaurants: RestaurantsService,
  floor: FloorService,
  textCharacters = config.availabilityCache.textMegabytes * 1024 * 1024,
) {
  const cutoffMinutes = config.bookingCutoffMinutes;
  /** Finished answers per restaurant, date and party size; a write drops the restaurant's at once. */
  const texts = createAvailabilityTexts(textCharacters);
  const stopDroppingTexts = availabilityChanges.subscribe((restaurantId) => texts.forgetRestaurant(restaurantId));
  const cache = createAvailabilityCache({
    changes: availabilityChanges,
    maxAgeMs: config.availabilityCache.maxAgeSeconds * 1000,
    maxRestaurants: config.availabilityCache.maxRestaurants,
    onLookup: metrics ? (result) => metrics.availabilityLookedUp(result) : undefined,
    onRefresh: metrics ? (outcome) => metrics.availabilityRefreshed(outcome) : undefined,
    load: readRestaurantForCache(db, restaurants, floor),
  });

  /**
   * One held date's answer for every party size, as JSON pieces (decision 186): each slot's text
   * up to `"available":` and after it, and its free covers (-1 when closed). Kept with the other
   * derived answers until a slot could change on its own, and dropped with the entry on a write.
   */
  function dayPieces(cached: CachedRestaurant, date: string, nowMs: number): DayPieces {
    return derivedAnswer(cached, `day ${date}`, nowMs, cutoffMinutes, (): DayPieces => {
      const slots = cached.slotsByDate.get(date) ?? [];
      const pieces = slots.map((slot) => {
        const { deposit } = slotDepositOf(cached.depositPolicy, new Date(slot.startsAtMs), slot.dropDeposit);
        return {
          head: `{"id":${JSON.stringify(slot.id)},"time":${JSON.stringify(slot.time)},"available":`,
          tail: deposit ? `,"deposit":${JSON.stringify({ kind: deposit.kind, perCoverPaise: deposit.perCoverPaise })}}` : '}',
          free: isSlotOpenAt(slot, nowMs, cutoffMinutes) ? freeCoversAt(slot, nowMs) : -1,
        };
      });
      const free = pieces.map((piece) => piece.free);
      return { slots: pieces, seats: cached.floor ? seatsBySize(cached.floor, date, slots, free, nowMs) : null };
    });
  }

  /** For each of the next 30 days, the probed party sizes that fit some open time, kept until a slot could change. */
  function calendarOf(cached: CachedRestaurant, nowMs: number): AvailabilityCalendar {
    return derivedAnswer(cached, 'calendar', nowMs, cutoffMinutes, (): AvailabilityCalendar => {
      const days = Array.from({ length: AVAILABILITY_HORIZON_DAYS }, (_, index) => {
        const date = addDays(cached.from, index);
        const slots = cached.slotsByDate.get(date) ?? [];
        // The date's occupancies gathered once for its times and sizes (decision 241).
        const near = cached.floor && slots.length > 0 ? occupanciesNear(cached.floor, date, nowMs) : [];
        return { date, partySizes: probedPartySizes.filter((size) => slots.some((slot) => isOfferedAmong(cached, near, slot, size, nowMs, cutoffMinutes))) };
      });
      return { from: cached.from, days, firstAvailableDate: days.find((day) => day.partySizes.length > 0)?.date ?? null };
    });
  }

  const everyAvailableToday = keptUntilChange<AvailableTodayResponse>(availabilityChanges, clock, TODAY_ANSWER_SECONDS * 1000);

  /** Every restaurant with a time a party of two can still book in the next 24 hours, in the server's order (hot first). */
  async function readEveryAvailableToday(): Promise<AvailableTodayResponse> {
    const now = clock.now();
    const until = new Date(now.getTime() + TODAY_WINDOW_HOURS * 3_600_000);
    const rows = await listOpenSlotsBetween(db, now, until, config.bookingCutoffMinutes, probedPartySizes[0]);
    const byRestaurant = new Map<string, AvailableTodayResponse['restaurants'][number]>();
    // Each time says its deposit, as the restaurant page's times do (decision 220).
    const policies = new Map<string, DepositPolicy>();
    for (const id of new Set(rows.map((row) => row.restaurant_id))) policies.set(id, await restaurants.getDepositPolicy(anonymous, id));
    // On a restaurant with a floor, a time is listed only when a table seats a party of two, and
    // says the largest party a table or combination seats then (decision 240).
    const floors = new Map<string, CachedRestaurant['floor']>();
    for (const id of new Set(rows.map((row) => row.restaurant_id))) floors.set(id, (await cache.getRestaurant(id, now)).floor);
    for (const row of rows) {
      const largestParty = largestPartySeated(floors.get(row.restaurant_id) ?? null, row, now.getTime());
      if (largestParty === null) continue;
      let entry = byRestaurant.get(row.restaurant_id);
      if (!entry) byRestaurant.set(row.restaurant_id, (entry = { restaurant: todayRestaurantOf(row), slots: [] }));
      const dropDeposit = row.drop_deposit_per_cover_paise ? { perCoverPaise: row.drop_deposit_per_cover_paise } : null;
      entry.slots.push({
        slot_id: row.slot_id,
        date: row.date,
        time: row.time,
        freeCovers: largestParty,
        ...slotDepositOf(policies.get(row.restaurant_id)!, asDate(row.starts_at), dropDeposit),
      });
    }
    return { restaurants: [...byRestaurant.values()] };
  }

  return {
    /**
     * getAvailability's answer as the JSON the route sends (decision 186): a held date's text is
     * put together from pieces kept per date, with no per-request objects or checks; other dates
     * are read as getAvailability reads them. The same text as the contract's serialiser writes.
     */
    async getAvailabilityJson(slugOrId: string, date: string, partySize: number): Promise<string> {
      const now = clock.now();
      const cached = await cache.getRestaurant(slugOrId, now);
      if (date < cached.from || date > cached.to) return JSON.stringify(await this.getAvailability(anonymous, slugOrId, date, partySize));
      const nowMs = now.getTime();
      const { span } = currentDerived(cached, nowMs, cutoffMinutes);
      const kept = texts.get(cached.restaurantId, span, date, partySize);
      if (kept !== undefined) return kept;
      const { slots: pieces, seats } = dayPieces(cached, date, nowMs);
      const seated = seats === null ? null : seats(partySize);
      let json = '[';
      for (let index = 0; index < pieces.length; index++) {
        const piece = pieces[index];
        const isOffered = seated === null ? piece.free >= partySize : seated[index];
        json += `${index === 0 ? '' : ','}${piece.head}${isOffered}${piece.tail}`;
      }
      json += ']';
      texts.keep(cached.restaurantId, span, date, partySize, json);
      return json;
    },

    /**
     * getAvailabilityJson's answer when it is already kept, else undefined: from memory only, with
     * no promise. A hit is counted as getRestaurant counts one; a miss by getAvailabilityJson's own lookup.
     */
    keptAvailabilityJson(slugOrId: string, date: string, partySize: number): string | undefined {
      const held = heldWithCurrentAnswers(cache, slugOrId, clock.now());
      const kept = held && texts.get(held.cached.restaurantId, held.derived.span, date, partySize);
      if (kept !== undefined) metrics?.availabilityLookedUp('hit');
      return kept;
    },

    /** getCalendarJson's answer when it is already kept, else undefined (as keptAvailabilityJson). */
    keptCalendarJson(slugOrId: string): string | undefined {
      const kept = heldWithCurrentAnswers(cache, slugOrId, clock.now())?.derived.values.get(CALENDAR_JSON) as string | undefined;
      if (kept !== undefined) metrics?.availabilityLookedUp('hit');
      return kept;
    },

    /**
     * A restaurant's public profile as the cache holds it, with its JSON (404 when there is no such
     * restaurant): for the restaurant page's first screen, which would otherwise read the row per request.
     */
    async getHeldRestaurant(_principal: Principal, slugOrId: string): Promise<{ restaurant: RestaurantDetail; json: string }> {
      const cached = await cache.getRestaurant(slugOrId, clock.now());
      return { restaurant: cached.restaurant, json: cached.restaurantJson };
    },

    /** What the finished availability texts hold now (for tests and diagnostics). */
    heldAvailabilityTexts: () => texts.held(),

    /** getCalendar's answer as the JSON the route sends, written once per kept calendar (decision 186). */
    async getCalendarJson(slugOrId: string): Promise<string> {
      const now = clock.now();
      const nowMs = now.getTime();
      const cached = await cache.getRestaurant(slugOrId, now);
      return derivedAnswer(cached, CALENDAR_JSON, nowMs, cutoffMinutes, () => JSON.stringify(calendarOf(cached, nowMs)));
    },

    /** The slots of a date, each available or not for a party of `partySize`. */
    async getAvailability(principal: Principal, slugOrId: string, date: string, partySize: number): Promise<AvailabilityEntry[]> {
      const now = clock.now();
      const cached = await cache.getRestaurant(slugOrId, now);
      if (date >= cached.from && date <= cached.to) {
        const nowMs = now.getTime();
        return (cached.slotsByDate.get(date) ?? []).map((slot) => ({
          id: slot.id,
          time: slot.time,
          available: isOfferedIn(cached, slot, partySize, nowMs, cutoffMinutes),
          ...slotDepositOf(cached.depositPolicy, new Date(slot.startsAtMs), slot.dropDeposit),
        }));
      }
      // Past dates and dates beyond the 30 days are rare: read them directly.
      const restaurant = await restaurants.getRestaurant(principal, slugOrId);
      const rows = await listSlotAvailability(db, restaurant.id, date, now, cutoffMinutes);
      const policy = await restaurants.getDepositPolicy(principal, restaurant.id);
      const cachedFloor = await floor.readFloorForAvailability(restaurant.id, date, date, now);
      const nowMs = now.getTime();
      return rows.map((row) => ({
        id: row.id,
        time: row.time,
        available:
          row.is_open && row.free_covers >= partySize && floorSeatsAt(cachedFloor, { date, startsAtMs: asDate(row.starts_at).getTime() }, partySize, nowMs),
        ...slotDepositOf(policy, asDate(row.starts_at), row.drop_deposit_per_cover_paise ? { perCoverPaise: row.drop_deposit_per_cover_paise } : null),
      }));
    },

    /**
     * When the chosen time is gone (the hold's 409): up to `count` other times of that date a party
     * of `partySize` can book now, nearest to the chosen time first (decision 240).
     */
    async findNearestFreeTimes(slugOrId: string, date: string, time: string, partySize: number): Promise<{ date: string; time: string }[]> {
      return nearestFreeTimes(await this.getAvailability(anonymous, slugOrId, date, partySize), date, time);
    },

    /** For each of the next 30 days, the probed party sizes (2/4/6/8) that fit some open time. */
    async getCalendar(_principal: Principal, slugOrId: string): Promise<AvailabilityCalendar> {
      const now = clock.now();
      const nowMs = now.getTime();
      return calendarOf(await cache.getRestaurant(slugOrId, now), nowMs);
    },

    /**
     * For the hold's pre-check (decision 073): true when, as of the latest committed change this
     * instance has heard of, the slot exists, is open to anyone and has fewer than `partySize`
     * covers free, so a hold would be refused anyway. False when it might succeed or is
     * another case (unknown time, a drop's slot), which the locked path answers.
     */
    async isSlotClearlyFull(slugOrId: string, date: string, time: string, partySize: number): Promise<boolean> {
      const now = clock.now();
      return isFullIn(await cache.getRestaurant(slugOrId, now), date, time, partySize, now, cutoffMinutes);
    },

    /**
     * The same answer from memory only (false when the restaurant is not held): for a transaction
     * that has waited for its connection, so holds committed meanwhile have been heard.
     */
    isSlotKnownFull(slugOrId: string, date: string, time: string, partySize: number): boolean {
      const now = clock.now();
      const cached = cache.peekRestaurant(slugOrId, now);
      return cached !== null && isFullIn(cached, date, time, partySize, now, cutoffMinutes);
    },

    /** A restaurant's id from its slug or id, from memory when held (404 when there is no such restaurant). */
    async findRestaurantId(slugOrId: string): Promise<string> {
      return (await cache.getRestaurant(slugOrId, clock.now())).restaurantId;
    },

    /** Stops listening for changes (the app is closing). */
    close(): void {
      cache.close();
      stopDroppingTexts();
      texts.clear();
      everyAvailableToday.close();
    },

    /**
     * Every restaurant with a time a party of two can still book in the next 24 hours, with those
     * times, hot first; with `hood`, that neighbourhood's first; with `limit`, only the first N.
     */
    async listAvailableToday(_principal: Principal, options: AvailableTodayQuery = {}): Promise<AvailableTodayResponse> {
      // Built once for every neighbourhood and limit, until a change (the home page's HTML asks too).
      const { restaurants } = await everyAvailableToday.get(readEveryAvailableToday);
      const hood = options.hood?.toLowerCase();
      const near = hood ? restaurants.filter((entry) => entry.restaurant.neighborhood.toLowerCase() === hood) : [];
      const ordered = near.length > 0 ? [...near, ...restaurants.filter((entry) => !near.includes(entry))] : restaurants;
      return { restaurants: options.limit === undefined ? ordered : ordered.slice(0, options.limit) };
    },
  };
}

export type AvailabilityService = ReturnType<typeof createAvailabilityService>;
