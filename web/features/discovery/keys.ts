import { restaurantKeys } from '#web/features/restaurants/keys.ts';

/** Query keys of the map and "Explore tonight"; the map's list is the restaurants' own. */
export const discoveryKeys = {
  restaurants: restaurantKeys.list,
  availableToday: ['discover', 'available-today'] as const,
};
