import { BOOKING_SEARCH_LIMIT, type BookingSearchResponse } from '#common/contract/booking-search.ts';
import { bookingCode, readBookingCode } from '#common/domain/booking-code.ts';
import type { AppDeps } from '#server/deps.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import { searchRestaurantBookings } from './booking-search.repository.ts';
import { toStaffBooking } from './reservation-view.ts';

/** Staff find a booking by guest name, phone or booking code, any date, in their own restaurant only (decision 236). */
export function createBookingSearch({ db, clock }: AppDeps) {
  return {
    /** GET /api/admin/bookings/search?q=: upcoming first, then past; at most BOOKING_SEARCH_LIMIT. */
    async searchBookings(principal: Principal, query: string): Promise<BookingSearchResponse> {
      requireStaff(principal);
      const now = clock.now();
      const digits = query.replace(/\D/g, '');
      const rows = await searchRestaurantBookings(
        db,
        principal.restaurantId,
        // Four digits at least before a phone is searched: fewer would match most numbers.
        { name: query, digits: digits.length >= 4 && /^[\d\s+()-]+$/.test(query) ? digits : null, codeHex: readBookingCode(query) },
        now,
        BOOKING_SEARCH_LIMIT + 1,
      );
      return {
        truncated: rows.length > BOOKING_SEARCH_LIMIT,
        results: rows.slice(0, BOOKING_SEARCH_LIMIT).map((row) => ({ ...toStaffBooking(row, now), code: bookingCode(row.id) })),
      };
    },
  };
}

export type BookingSearch = ReturnType<typeof createBookingSearch>;
