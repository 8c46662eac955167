import { z } from 'zod';
import { adminBooking } from './portal.ts';

/** Staff find a booking by guest name, phone or booking code, any date (decision 236). */
export const bookingSearchQuery = z.object({
  q: z
    .string({ message: 'q: Type a name, a phone number or a booking code' })
    .trim()
    .min(2, { message: 'q: Type at least 2 characters' })
    .max(100, { message: 'q: At most 100 characters' }),
});
export type BookingSearchQuery = z.infer<typeof bookingSearchQuery>;

export const bookingSearchHit = adminBooking.pick({ id: true, status: true, partySize: true, createdAt: true, startsAt: true, user: true, slot: true }).extend({
  /** The short code the diner is shown (XXXX-XXXX). */
  code: z.string(),
});
export type BookingSearchHit = z.infer<typeof bookingSearchHit>;

/** The most bookings one search answers: upcoming first (soonest first), then past (latest first). */
export const BOOKING_SEARCH_LIMIT = 50;
export const bookingSearchResponse = z.object({ results: z.array(bookingSearchHit), truncated: z.boolean() });
export type BookingSearchResponse = z.infer<typeof bookingSearchResponse>;
