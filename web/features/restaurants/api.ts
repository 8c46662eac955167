import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  AvailabilityCalendar,
  AvailabilityEntry,
  AvailableTodayEntry,
  AvailableTodayQuery,
  AvailableTodayResponse,
  HomePageData,
  RestaurantDetail,
  RestaurantPageData,
} from '#common/contract/restaurants.ts';
import { HOME_STRIP_CARDS } from '#common/domain/restaurants.ts';
import { apiRequest } from '#web/api/client.ts';
import { PAGE_DATA_TIME, readPageData } from '#web/api/page-data.ts';
import { restaurantKeys } from './keys.ts';

export { restaurantKeys };

/** The restaurant page's first screen when the server put it into this document for that restaurant (decision 078). */
function firstScreenOf(key: string): RestaurantPageData | undefined {
  const data = readPageData() as RestaurantPageData | undefined;
  const restaurant = data?.restaurant;
  return restaurant && (restaurant.slug === key.toLowerCase() || restaurant.id === key.toLowerCase()) ? data : undefined;
}

/** GET /api/restaurants/{slug or id}. A 404 is an answer, not a reason to retry. */
export function useRestaurant(key: string) {
  return useQuery({
    queryKey: restaurantKeys.one(key),
    staleTime: 60_000,
    initialData: () => firstScreenOf(key)?.restaurant,
    initialDataUpdatedAt: PAGE_DATA_TIME,
    retry: (count, error) => (error as { status?: number }).status !== 404 && count < 1,
    queryFn: ({ signal }) => apiRequest<RestaurantDetail>(`/api/restaurants/${encodeURIComponent(key)}`, { signal }),
  });
}

/** GET /api/restaurants/{slug}/calendar: one call says which dates and party sizes have a free time. */
export function useAvailabilityCalendar(key: string, enabled = true) {
  return useQuery({
    queryKey: restaurantKeys.calendar(key),
    enabled,
    staleTime: 30_000,
    initialData: () => firstScreenOf(key)?.calendar,
    initialDataUpdatedAt: PAGE_DATA_TIME,
    queryFn: ({ signal }) => apiRequest<AvailabilityCalendar>(`/api/restaurants/${encodeURIComponent(key)}/calendar`, { signal }),
  });
}

/** GET /api/restaurants/{slug}/availability?date&partySize: the day's times, each free or not. */
export function useAvailability(key: string, date: string | null, partySize: number | null) {
  return useQuery({
    queryKey: restaurantKeys.availability(key, date ?? '', partySize ?? 0),
    enabled: Boolean(date && partySize),
    staleTime: 15_000,
    initialData: () => {
      const opening = firstScreenOf(key)?.availability;
      return opening && opening.date === date && opening.partySize === partySize ? opening.entries : undefined;
    },
    initialDataUpdatedAt: PAGE_DATA_TIME,
    // Tables go while the diner hesitates: keep the times fresh while the page is open.
    refetchInterval: 60_000,
    queryFn: ({ signal }) =>
      apiRequest<AvailabilityEntry[]>(
        `/api/restaurants/${encodeURIComponent(key)}/availability?${new URLSearchParams({ date: date!, partySize: String(partySize) })}`,
        { signal },
      ),
  });
}

/** The home page's strip as the server put it into the document (decision 079): the first dozen, in the server's order. */
function homeFirstScreen(options: AvailableTodayQuery): AvailableTodayEntry[] | undefined {
  if (options.hood !== undefined || options.limit !== HOME_STRIP_CARDS) return undefined;
  const data = readPageData() as HomePageData | undefined;
  return Array.isArray(data?.availableToday?.restaurants) ? data.availableToday.restaurants : undefined;
}

/**
 * GET /api/discover/available-today?hood&limit. A failure is only logged (spec section 8): the
 * strip then shows no times. While another neighbourhood's answer loads, the last one stays.
 */
export function useAvailableToday(options: AvailableTodayQuery = {}) {
  return useQuery({
    queryKey: restaurantKeys.today(options.hood ?? null, options.limit ?? null),
    staleTime: 30_000,
    refetchInterval: 60_000,
    placeholderData: keepPreviousData,
    initialData: () => homeFirstScreen(options),
    initialDataUpdatedAt: PAGE_DATA_TIME,
    meta: { errorLog: 'Could not load today’s availability' },
    queryFn: async ({ signal }): Promise<AvailableTodayEntry[]> => {
      const query = new URLSearchParams();
      if (options.hood) query.set('hood', options.hood);
      if (options.limit) query.set('limit', String(options.limit));
      const search = query.toString();
      const body = await apiRequest<AvailableTodayResponse>(`/api/discover/available-today${search ? `?${search}` : ''}`, { signal });
      return Array.isArray(body?.restaurants) ? body.restaurants : [];
    },
  });
}
