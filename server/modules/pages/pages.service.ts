import type { HomePageData } from '#common/contract/restaurants.ts';
import { openingChoice, readBookingParams } from '#common/domain/booking-choice.ts';
import { HOME_STRIP_CARDS } from '#common/domain/restaurants.ts';
import { COVER_SIZES } from '#common/domain/restaurant-profile.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import type { AvailabilityService } from '#server/modules/availability/availability.service.ts';
import { AppError } from '#server/errors.ts';

/** What a page's HTML announces in its head so a phone can draw the first screen without waiting on the API. */
export interface FirstScreen {
  /**
   * What the screen shows, as a key: the pages kept with their compressed forms are kept by it
   * (decision 200), so addresses that differ only in parameters the page does not read, or in
   * choices that open on the same day and party, share one page.
   */
  key: string;
  /** The document title, when the page has its own. */
  title?: string;
  /** An image the first screen shows, to fetch alongside the scripts. */
  image?: string;
  /** The image's widths and the size it is drawn at, so the preload fetches the width the page will use (decision 234). */
  imageSrcSet?: string;
  imageSizes?: string;
  /**
   * Exactly what the page's first API calls would answer now, as JSON text in pieces to be joined
   * as they are: the home page's HomePageData, a restaurant page's RestaurantPageData
   * (common/contract/restaurants.ts). Pieces the caches keep are the same strings while nothing
   * changed, so a page already sent can be recognised without joining them (decision 186).
   */
  json: readonly string[];
}

/**
 * The first screens of the pages people most often open cold (decisions 078, 079): the home page
 * and a restaurant's page, the link people share. Public, like the API calls they stand for.
 */
export function createPagesService(availability: AvailabilityService) {
  return {
    /** The home page: the "Today Near You" strip's first dozen, in the order everyone sees before signing in. */
    async home(principal: Principal): Promise<FirstScreen> {
      const data: HomePageData = { availableToday: await availability.listAvailableToday(principal, { limit: HOME_STRIP_CARDS }) };
      return { key: 'home', json: [JSON.stringify(data)] };
    },

    /**
     * A restaurant's page: the restaurant, its calendar and the times of the day the page opens on
     * (which the link's ?date=&party= may choose); null when no restaurant has that slug or id.
     * Put together from the texts the availability cache keeps (decision 186), as the API sends
     * them, so a page costs what its three API calls cost from memory, not a read and a stringify.
     */
    async restaurant(principal: Principal, key: string, search: URLSearchParams): Promise<FirstScreen | null> {
      try {
        const { restaurant, json: restaurantJson } = await availability.getHeldRestaurant(principal, key);
        const calendar = await availability.getCalendar(principal, restaurant.slug);
        const { date, partySize } = openingChoice(calendar, readBookingParams(search));
        const calendarJson = await availability.getCalendarJson(restaurant.slug);
        const day = date
          ? [
              `{"date":${JSON.stringify(date)},"partySize":${partySize},"entries":`,
              await availability.getAvailabilityJson(restaurant.slug, date, partySize),
              '}',
            ]
          : ['null'];
        const cover = restaurant.photos[0];
        return {
          key: `restaurant ${restaurant.id} ${date} ${partySize}`,
          title: `${restaurant.name} · Tablefair`,
          image: cover?.src ?? restaurant.heroImageUrl,
          ...(cover ? { imageSrcSet: cover.srcSet, imageSizes: COVER_SIZES } : {}),
          json: ['{"restaurant":', restaurantJson, ',"calendar":', calendarJson, ',"availability":', ...day, '}'],
        };
      } catch (error) {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
        throw error;
      }
    },
  };
}

export type PagesService = ReturnType<typeof createPagesService>;
