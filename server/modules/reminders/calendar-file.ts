/**
 * A reservation as an RFC 5545 calendar file (decision 151). Times are written in UTC (the
 * "Z" form), which every calendar shows in its own zone, so no VTIMEZONE is needed; the UID is
 * the reservation's, so a later file with a higher SEQUENCE updates the same entry, and
 * METHOD:CANCEL removes it.
 */
export interface CalendarReservation {
  reservationId: string;
  restaurantName: string;
  /** The restaurant's address as diners should read it (its neighbourhood when that is all we have). */
  address: string;
  startsAt: Date;
  durationMinutes: number;
  partySize: number;
  /** Where the diner sees the reservation. */
  url: string;
  /** Raised on every change, so calendars take the newest file. */
  sequence: number;
  cancelled: boolean;
  /** When this file was made (DTSTAMP). */
  now: Date;
}

const PRODUCT_ID = '-//Tablefair//Reservations//EN';
const UID_DOMAIN = 'tablefair.in';

function utc(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The control characters TEXT may not hold (RFC 5545 §3.3.11: CONTROL, every one but HTAB), line breaks aside. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon and comma escaped; every line break, a
 * lone CR included, written as `\n`; other control characters dropped. Nothing a restaurant's
 * name holds can end the content line and start another property (an ATTACH, an ORGANIZER).
 */
function text(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(CONTROL_CHARACTERS, '');
}

/** Folds a content line at 75 octets (§3.1), never inside a UTF-8 character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    const limit = parts.length === 0 ? 75 : 74; // continuation lines start with a space
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function reservationCalendarFile(reservation: CalendarReservation): string {
  const end = new Date(reservation.startsAt.getTime() + reservation.durationMinutes * 60_000);
  const guests = reservation.partySize === 1 ? '1 guest' : `${reservation.partySize} guests`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODUCT_ID}`,
    'CALSCALE:GREGORIAN',
    `METHOD:${reservation.cancelled ? 'CANCEL' : 'PUBLISH'}`,
    'BEGIN:VEVENT',
    `UID:reservation-${reservation.reservationId}@${UID_DOMAIN}`,
    `SEQUENCE:${reservation.sequence}`,
    `DTSTAMP:${utc(reservation.now)}`,
    `DTSTART:${utc(reservation.startsAt)}`,
    `DTEND:${utc(end)}`,
    `SUMMARY:${text(`Table at ${reservation.restaurantName}`)}`,
    `LOCATION:${text(`${reservation.restaurantName}, ${reservation.address}`)}`,
    `DESCRIPTION:${text(`Your table for ${guests} at ${reservation.restaurantName}. See or change it: ${reservation.url}`)}`,
    `URL:${reservation.url}`,
    `STATUS:${reservation.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
