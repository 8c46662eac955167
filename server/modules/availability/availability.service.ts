import type { AvailabilityCalendar, AvailabilityEntry, AvailableTodayResponse } from '#common/contract/restaurants.ts';
import { AVAILABILITY_HORIZON_DAYS, probedPartySizes } from '#common/domain/restaurants.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import type { AppDeps } from '#server/deps.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import { listMaxFreeCoversByDate, listOpenSlotsBetween, listSlotAvailability } from './availability.repository.ts';

/** The "today" strip and Explore Tonight promise the next 24 hours. */
const TODAY_WINDOW_HOURS = 24;

/** Availability is public: anyone may read it, so these take a principal only to keep the rule uniform. */
export function createAvailabilityService({ db, clock, config }: AppDeps, restaurants: RestaurantsService) {
  return {
    /** The slots of a date, each available or not for a party of `partySize`. */
    async getAvailability(principal: Principal, slugOrId: string, date: string, partySize: number): Promise<AvailabilityEntry[]> {
      const restaurant = await restaurants.getRestaurant(principal, slugOrId);
      const rows = await listSlotAvailability(db, restaurant.id, date, clock.now(), config.bookingCutoffMinutes);
      return rows.map((row) => ({ id: row.id, time: row.time, available: row.is_open && row.free_covers >= partySize }));
    },

    /** For each of the next 30 days, the probed party sizes (2/4/6/8) that fit some open time. */
    async getCalendar(principal: Principal, slugOrId: string): Promise<AvailabilityCalendar> {
      const restaurant = await restaurants.getRestaurant(principal, slugOrId);
      const now = clock.now();
      const from = todayInKolkata(now);
      const to = addDays(from, AVAILABILITY_HORIZON_DAYS - 1);
      const rows = await listMaxFreeCoversByDate(db, restaurant.id, from, to, now, config.bookingCutoffMinutes);
      const maxFreeByDate = new Map(rows.map((row) => [row.date, row.max_free]));
      const days = Array.from({ length: AVAILABILITY_HORIZON_DAYS }, (_, index) => {
        const date = addDays(from, index);
        const maxFree = maxFreeByDate.get(date) ?? 0;
        return { date, partySizes: probedPartySizes.filter((size) => size <= maxFree) };
      });
      return { from, days, firstAvailableDate: days.find((day) => day.partySizes.length > 0)?.date ?? null };
    },

    /** Every restaurant with a time a party of two can still book in the next 24 hours, with those times. */
    async listAvailableToday(_principal: Principal): Promise<AvailableTodayResponse> {
      const now = clock.now();
      const until = new Date(now.getTime() + TODAY_WINDOW_HOURS * 3_600_000);
      const rows = await listOpenSlotsBetween(db, now, until, config.bookingCutoffMinutes, probedPartySizes[0]);
      const byRestaurant = new Map<string, AvailableTodayResponse['restaurants'][number]>();
      for (const row of rows) {
        let entry = byRestaurant.get(row.restaurant_id);
        if (!entry) {
          entry = {
            restaurant: {
              id: row.restaurant_id,
              slug: row.slug,
              name: row.name,
              emoji: row.emoji,
              neighborhood: row.neighborhood,
              category: row.category,
              cuisineTags: row.cuisine_tags,
              hot: row.hot,
            },
            slots: [],
          };
          byRestaurant.set(row.restaurant_id, entry);
        }
        entry.slots.push({ slot_id: row.slot_id, date: row.date, time: row.time, freeCovers: row.free_covers });
      }
      return { restaurants: [...byRestaurant.values()] };
    },
  };
}

export type AvailabilityService = ReturnType<typeof createAvailabilityService>;
