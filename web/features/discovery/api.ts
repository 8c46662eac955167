import { useQuery } from '@tanstack/react-query';
import type { AvailableTodayResponse, PublicRestaurant } from '#common/contract/restaurants.ts';
import { apiRequest } from '#web/api/client.ts';
import { discoveryKeys } from './keys.ts';

export { discoveryKeys };

/** GET /api/restaurants. The spec: an empty or non-array answer gives an empty map. */
export function useRestaurants() {
  return useQuery({
    queryKey: discoveryKeys.restaurants,
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const body = await apiRequest<unknown>('/api/restaurants', { signal });
      return Array.isArray(body) ? (body as PublicRestaurant[]) : [];
    },
  });
}

/** GET /api/discover/available-today: restaurants with a free time in the next 24 hours. */
export function useAvailableToday() {
  return useQuery({
    queryKey: discoveryKeys.availableToday,
    // Tables go fast in the evening: re-read every minute while the screen is open.
    staleTime: 30_000,
    refetchInterval: 60_000,
    queryFn: async ({ signal }) => {
      const body = await apiRequest<AvailableTodayResponse>('/api/discover/available-today', { signal });
      return Array.isArray(body?.restaurants) ? body.restaurants : [];
    },
  });
}
