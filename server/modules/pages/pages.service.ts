import type { HomePageData, RestaurantPageData } from '#common/contract/restaurants.ts';
import { openingChoice, readBookingParams } from '#common/domain/booking-choice.ts';
import { HOME_STRIP_CARDS } from '#common/domain/restaurants.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import type { AvailabilityService } from '#server/modules/availability/availability.service.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import { AppError } from '#server/errors.ts';

/** What a page's HTML announces in its head so a phone can draw the first screen without waiting on the API. */
export interface FirstScreen<Data> {
  /** The document title, when the page has its own. */
  title?: string;
  /** An image the first screen shows, to fetch alongside the scripts. */
  image?: string;
  /** Exactly what the page's first API calls would answer now. */
  data: Data;
}

/**
 * The first screens of the pages people most often open cold (decisions 078, 079): the home page
 * and a restaurant's page, the link people share. Public, like the API calls they stand for.
 */
export function createPagesService(restaurants: RestaurantsService, availability: AvailabilityService) {
  return {
    /** The home page: the "Today Near You" strip's first dozen, in the order everyone sees before signing in. */
    async home(principal: Principal): Promise<FirstScreen<HomePageData>> {
      return { data: { availableToday: await availability.listAvailableToday(principal, { limit: HOME_STRIP_CARDS }) } };
    },

    /**
     * A restaurant's page: the restaurant, its calendar and the times of the day the page opens on
     * (which the link's ?date=&party= may choose); null when no restaurant has that slug or id.
     */
    async restaurant(principal: Principal, key: string, search: URLSearchParams): Promise<FirstScreen<RestaurantPageData> | null> {
      try {
        const restaurant = await restaurants.getRestaurant(principal, key);
        const calendar = await availability.getCalendar(principal, restaurant.slug);
        const { date, partySize } = openingChoice(calendar, readBookingParams(search));
        const entries = date ? await availability.getAvailability(principal, restaurant.slug, date, partySize) : null;
        return {
          title: `${restaurant.name} · Tablefair`,
          image: restaurant.heroImageUrl,
          data: { restaurant, calendar, availability: entries ? { date, partySize, entries } : null },
        };
      } catch (error) {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
        throw error;
      }
    },
  };
}

export type PagesService = ReturnType<typeof createPagesService>;
