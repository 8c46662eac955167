/**
 * A booking's short code (decision 236): the first 8 hex digits of its random id, as XXXX-XXXX.
 * Said over the phone and shown to the diner; it opens nothing by itself (the id stays the key),
 * and staff search their own restaurant's bookings by it.
 */
export function bookingCode(reservationId: string): string {
  const hex = reservationId.replace(/-/g, '').slice(0, 8).toUpperCase();
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

/** The code's 8 hex digits (lower case) when `text` is one, written with or without its dash or spaces; else null. */
export function readBookingCode(text: string): string | null {
  const compact = text.replace(/[\s-]/g, '');
  return /^[0-9a-fA-F]{8}$/.test(compact) ? compact.toLowerCase() : null;
}
