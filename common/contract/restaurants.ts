import { z } from 'zod';
import { isoDate } from './common.ts';
import { slotDeposit } from './deposits.ts';
import { MAX_PARTY_SIZE, preferredHoods } from '../domain/restaurants.ts';

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
});
export type PublicRestaurant = z.infer<typeof publicRestaurant>;

export const restaurantList = z.array(publicRestaurant);

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
  restaurant: publicRestaurant,
  calendar: availabilityCalendar,
  /** The times of the day and party size the page opens on (openingChoice), as GET …/availability answers them. */
  availability: z.object({ date: z.string(), partySize: z.number(), entries: availabilityResponse }).nullable(),
});
export type RestaurantPageData = z.infer<typeof restaurantPageData>;

/** The home page's first screen, put into its HTML by the server (decision 079): the strip's first dozen, for everyone. */
export const homePageData = z.object({ availableToday: availableTodayResponse });
export type HomePageData = z.infer<typeof homePageData>;
