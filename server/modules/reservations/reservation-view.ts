import type { BookingRequest, DinerReservation } from '#common/contract/reservations.ts';
import { isEmptyRequest } from '#common/domain/guests.ts';
import { effectiveStatus } from '#common/domain/reservation-status.ts';
import { bookingClosesAt, formatTime12h, toKolkata } from '#common/domain/time.ts';
import { asDate, iso, isoOrNull } from '#server/db/client.ts';
import { toRestaurantRef } from '#server/modules/restaurants/restaurant-sql.ts';
import type { AdminBookingRow, ReservationRow } from './reservations.repository.ts';

/** How a reservation reads to its diner and to staff, and the sentences its refusals say. */

export const NO_LONGER_AVAILABLE = 'That time is no longer available';
export const RESERVATION_NOT_FOUND = 'Reservation not found';
/** Staff asking for another restaurant's booking are told it is not found. */
export const BOOKING_NOT_FOUND = 'Booking not found';
/** A drop's slot before its line has had its turn (decision 082). */
export const HELD_FOR_DROP = 'That time is given out through a drop. Enter the drop for a fair chance at a table.';
/** Covers freed on a slot that someone waiting for it has not been offered yet (decision 099). */
export const OWED_TO_WAITLIST = 'That table has just come free and is being offered to the diners on its waitlist first. Please try another time.';
/** An expired hold reads as the CANCELLED it has become (the refusal names the status, like every other). */
export const HOLD_EXPIRED = 'This hold has expired (it is now CANCELLED), so it can no longer be confirmed';
/** A reminder link for a start the reservation no longer has (a link is bound to the start it was sent for). */
export const LINK_FOR_ANOTHER_TIME = 'This link was sent for another time of this reservation, so it no longer works.';

/** MAX_UPCOMING_RESERVATIONS reached (decision 086). */
export const upcomingLimitMessage = (limit: number) => `You already have ${limit} upcoming reservations. Cancel one before booking another.`;

/** MAX_HOLDS_PER_RESTAURANT_PER_HOUR reached (decision 098): when a place in the budget comes back, in Kolkata time. */
export const holdStartsLimitMessage = (limit: number, retryAt: Date) =>
  `You have started ${limit} holds at this restaurant in the last hour. Please try again after ${formatTime12h(toKolkata(retryAt).time)}.`;

/** What the diner told the restaurant, as the answers carry it, or null when nothing (decision 260). */
export function toBookingRequest(row: Pick<ReservationRow, 'occasion' | 'request_picks' | 'special_request'>): BookingRequest | null {
  const request = { occasion: row.occasion, picks: row.request_picks ?? [], note: row.special_request ?? '' };
  return isEmptyRequest(request) ? null : request;
}

/**
 * A reservation as its diner sees it. With `cutoffMinutes`, the answer also says until when the
 * request may be changed (the booking's cut-off).
 */
export function toDinerReservation(row: ReservationRow, now: Date, cutoffMinutes?: number): DinerReservation {
  const status = effectiveStatus(row.status, row.hold_expires_at, now);
  return {
    id: row.id,
    status,
    partySize: row.party_size,
    restaurant: toRestaurantRef(row),
    slot: { date: row.slot_date, time: row.slot_time },
    holdExpiresAt: status === 'HELD' ? isoOrNull(row.hold_expires_at) : null,
    // A hold that ran out reads "Expired", not "Cancelled" (decision 221): swept, or past its expiry and not swept yet.
    ...(status === 'CANCELLED' && (row.cancel_reason === 'HOLD_EXPIRED' || row.status === 'HELD') ? { expired: true } : {}),
    startsAt: iso(row.starts_at),
    createdAt: iso(row.created_at),
    request: toBookingRequest(row),
    ...(cutoffMinutes === undefined ? {} : { requestEditableUntil: bookingClosesAt(asDate(row.starts_at), cutoffMinutes).toISOString() }),
  };
}

/** A booking as staff read it, in their bookings list and their search: its state, time, party and guest. */
export function toStaffBooking(row: AdminBookingRow, now: Date) {
  return {
    id: row.id,
    status: effectiveStatus(row.status, row.hold_expires_at, now),
    partySize: row.party_size,
    createdAt: iso(row.created_at),
    startsAt: iso(row.starts_at),
    // Reservations are in the diner's name; an account without one shows its username.
    user: { name: row.user_name || row.username, email: row.user_email, phone: row.user_phone },
    slot: { date: row.slot_date, time: row.slot_time },
  };
}
