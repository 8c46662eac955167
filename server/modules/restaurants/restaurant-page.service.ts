import type { RestaurantPageData } from '#common/contract/restaurants.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import type { AvailabilityService } from '#server/modules/availability/availability.service.ts';
import { AppError } from '#server/errors.ts';
import type { RestaurantsService } from './restaurants.service.ts';

/**
 * What the restaurant page shows first, for its HTML (decision 078): a phone then renders the
 * page from the document instead of waiting for two API calls behind the scripts.
 * Public, like the two calls it stands for.
 */
export function createRestaurantPageService(restaurants: RestaurantsService, availability: AvailabilityService) {
  return {
    /** The restaurant and its calendar as the API would answer now; null when no restaurant has that slug or id. */
    async firstScreen(principal: Principal, key: string): Promise<RestaurantPageData | null> {
      try {
        const restaurant = await restaurants.getRestaurant(principal, key);
        const calendar = await availability.getCalendar(principal, restaurant.slug);
        return { restaurant, calendar };
      } catch (error) {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
        throw error;
      }
    },
  };
}

export type RestaurantPageService = ReturnType<typeof createRestaurantPageService>;
