import { z } from 'zod';
import { isoDate } from './common.ts';
import { slotDeposit } from './deposits.ts';
import { MAX_PARTY_SIZE, preferredHoods } from '../domain/restaurants.ts';
import { childrenPolicies, dietTypes, smokingPolicies } from '../domain/restaurant-profile.ts';

export const restaurantPosition = z.object({ lat: z.number(), lng: z.number() });

/** A restaurant named beside something of its own: a booking, a drop, a waitlist entry. */
export const restaurantRef = z.object({ id: z.string(), slug: z.string(), name: z.string(), emoji: z.string(), neighborhood: z.string() });
export type RestaurantRef = z.infer<typeof restaurantRef>;

/** A restaurant as diners see it (spec section 3). */
export const publicRestaurant = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  emoji: z.string(),
  neighborhood: z.string(),
  hot: z.boolean(),
  cuisineTags: z.array(z.string()),
  category: z.string(),
  description: z.string().nullable(),
  website: z.string().nullable(),
  instagramUrl: z.string().nullable(),
  heroImageUrl: z.string(),
  position: restaurantPosition.nullable(),
  /** Veg, non-veg or pure veg (decision 233); null until staff say. The list and the map filter by it. */
  diet: z.enum(dietTypes).nullable(),
  /** What two people usually spend, in rupees; null until staff say. */
  costForTwo: z.number().int().nullable(),
});
export type PublicRestaurant = z.infer<typeof publicRestaurant>;

export const restaurantList = z.array(publicRestaurant);

/** A photo as a page shows it: WebP at phone and laptop widths (decision 234). */
export const restaurantPhoto = z.object({
  id: z.string(),
  /** The 960-pixel-wide variant. */
  src: z.string(),
  /** Every variant with its width, for <img srcset>. */
  srcSet: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  alt: z.string(),
});
export type RestaurantPhoto = z.infer<typeof restaurantPhoto>;

/** One weekday's opening hours (0 = Sunday): filled from the floor's service hours once they exist; null until then. */
export const openingDay = z.object({
  weekday: z.number().int().min(0).max(6),
  ranges: z.array(z.object({ opens: z.string(), closes: z.string() })),
});

/** The restaurant page's answer (GET /api/restaurants/{slug}): the list's entry and what a diner decides by. */
export const restaurantDetail = publicRestaurant.extend({
  address: z.string().nullable(),
  /** The restaurant's own directions link, else a maps link to its position or address. */
  directionsUrl: z.string().nullable(),
  /** Up to 8 photos of the room and the food, the first being the cover. */
  photos: z.array(restaurantPhoto),
  menu: z.object({ url: z.string().nullable(), photos: z.array(restaurantPhoto) }),
  houseRules: z.object({
    dressCode: z.string().nullable(),
    children: z.enum(childrenPolicies).nullable(),
    smoking: z.enum(smokingPolicies).nullable(),
  }),
  /** Per weekday, from the floor's service hours; null while the restaurant has none (the page says so). */
  openingHours: z.array(openingDay).nullable(),
});
export type RestaurantDetail = z.infer<typeof restaurantDetail>;

/** A slug or, for /restaurant/{id}, the restaurant's id. */
export const restaurantKeyParams = z.object({
  slug: z.string().min(1).max(120),
});

export const partySize = z.coerce
  .number({ message: 'partySize must be a number' })
  .int({ message: 'partySize must be a whole number' })
  .min(1, { message: `partySize must be between 1 and ${MAX_PARTY_SIZE}` })
  .max(MAX_PARTY_SIZE, { message: `partySize must be between 1 and ${MAX_PARTY_SIZE}` });

export const availabilityQuery = z.object({
  date: isoDate,
  partySize,
});
export type AvailabilityQuery = z.infer<typeof availabilityQuery>;

export const availabilityEntry = z.object({
  id: z.string(),
  time: z.string(),
  available: z.boolean(),
  /**
   * What the slot asks per guest before the diner reserves (decision 120). Present only when it asks
   * for money, so a slot without a deposit keeps the spec's exact {id, time, available}.
   */
  deposit: slotDeposit.optional(),
});
export type AvailabilityEntry = z.infer<typeof availabilityEntry>;
export const availabilityResponse = z.array(availabilityEntry);

/** Added call: which probed party sizes have a free time on each of the next 30 days. */
export const availabilityCalendar = z.object({
  from: z.string(),
  days: z.array(z.object({ date: z.string(), partySizes: z.array(z.number()) })),
  firstAvailableDate: z.string().nullable(),
});
export type AvailabilityCalendar = z.infer<typeof availabilityCalendar>;

export const availableTodayEntry = z.object({
  restaurant: z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    emoji: z.string(),
    neighborhood: z.string(),
    category: z.string(),
    cuisineTags: z.array(z.string()),
    hot: z.boolean(),
  }),
  slots: z.array(
    z.object({
      slot_id: z.string(),
      date: z.string(),
      time: z.string(),
      /** The largest party the slot can still seat. */
      freeCovers: z.number(),
      /** What the time asks per guest before the diner reserves, as the restaurant page's times say. */
      deposit: slotDeposit.optional(),
    }),
  ),
});
export type AvailableTodayEntry = z.infer<typeof availableTodayEntry>;
export const availableTodayResponse = z.object({ restaurants: z.array(availableTodayEntry) });
export type AvailableTodayResponse = z.infer<typeof availableTodayResponse>;

/** The most restaurants one `limit` may ask for: the home strip asks for a dozen (decision 079). */
export const AVAILABLE_TODAY_MAX_LIMIT = 50;
/**
 * Optional: `hood` puts that neighbourhood's restaurants first (then the usual order: hot first),
 * `limit` keeps only the first N. Without them: every restaurant, as the spec describes.
 */
export const availableTodayQuery = z.object({
  hood: z.enum(preferredHoods).optional(),
  limit: z.coerce.number().int().min(1).max(AVAILABLE_TODAY_MAX_LIMIT).optional(),
});
export type AvailableTodayQuery = z.infer<typeof availableTodayQuery>;

/**
 * The restaurant page's first screen, put into its HTML by the server (decision 078): the
 * answers of GET /api/restaurants/{slug}, …/calendar and …/availability for the opening day.
 */
export const restaurantPageData = z.object({
  restaurant: restaurantDetail,
  calendar: availabilityCalendar,
  /** The times of the day and party size the page opens on (openingChoice), as GET …/availability answers them. */
  availability: z.object({ date: z.string(), partySize: z.number(), entries: availabilityResponse }).nullable(),
});
export type RestaurantPageData = z.infer<typeof restaurantPageData>;

/** The home page's first screen, put into its HTML by the server (decision 079): the strip's first dozen, for everyone. */
export const homePageData = z.object({ availableToday: availableTodayResponse });
export type HomePageData = z.infer<typeof homePageData>;
