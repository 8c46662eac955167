import type { AvailabilityCalendar } from '../contract/restaurants.ts';
import { probedPartySizes } from './restaurants.ts';
import { isClockTime, isIsoDate } from './time.ts';

/**
 * The restaurant page's picker rules (spec section 5), kept pure so they are tested
 * without a browser: which dates and party sizes to offer, and what a link such as
 * /r/{slug}?date=2026-11-28&time=19:30&party=4 preselects.
 */

export interface BookingRequest {
  date?: string;
  time?: string;
  party?: number;
  /** ?waitlist=19:00-22:00: the join form open with that window (back from signing in). */
  waitlist?: { start: string; end: string };
}

/** Reads ?date=YYYY-MM-DD&time=HH:MM&party=N(&waitlist=HH:MM-HH:MM), dropping anything malformed. */
export function readBookingParams(params: URLSearchParams): BookingRequest {
  const date = params.get('date') ?? '';
  const time = params.get('time') ?? '';
  const party = Number(params.get('party'));
  const request: BookingRequest = {
    date: isIsoDate(date) ? date : undefined,
    time: isClockTime(time) ? time : undefined,
    party: Number.isInteger(party) && party > 0 ? party : undefined,
  };
  const [start = '', end = ''] = (params.get('waitlist') ?? '').split('-');
  if (isClockTime(start) && isClockTime(end)) request.waitlist = { start, end };
  return request;
}

/** The query string that brings the diner back to the same choice (after signing in, say). */
export function writeBookingParams(choice: BookingRequest): string {
  const params = new URLSearchParams();
  if (choice.date) params.set('date', choice.date);
  if (choice.time) params.set('time', choice.time);
  if (choice.party) params.set('party', String(choice.party));
  if (choice.waitlist) params.set('waitlist', `${choice.waitlist.start}-${choice.waitlist.end}`);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Party sizes with a free time on that date (only these are offered). */
export function partySizesOn(calendar: AvailabilityCalendar, date: string): number[] {
  return calendar.days.find((day) => day.date === date)?.partySizes ?? [];
}

/** True when some party size can book on that date. */
export function isBookableDate(calendar: AvailabilityCalendar, date: string): boolean {
  return partySizesOn(calendar, date).length > 0;
}

/**
 * The party size to use on a date: the one asked for when it is offered, else the
 * smallest offered size that still seats that many, else the smallest offered.
 */
export function partySizeFor(sizes: readonly number[], wanted?: number): number | null {
  if (sizes.length === 0) return null;
  const sorted = [...sizes].sort((a, b) => a - b);
  if (wanted === undefined) return sorted[0];
  if (sorted.includes(wanted)) return wanted;
  return sorted.find((size) => size >= wanted) ?? sorted[0];
}

/**
 * The sizes the picker offers: those with a free time that day (spec section 5), or, on a day
 * with nothing free, every probed size, for the waitlist (decision 090).
 */
export function pickerPartySizes(calendar: AvailabilityCalendar, date: string): number[] {
  const free = partySizesOn(calendar, date);
  return free.length > 0 ? free : [...probedPartySizes];
}

/**
 * The first choice on opening the page: the linked date when it can be booked, else
 * the first date with availability; the linked party size when offered that day,
 * else the smallest size. Null when nothing is free within the 30 days.
 * A waitlist link (back from signing in to join) keeps its date and size even when full.
 */
export function initialChoice(calendar: AvailabilityCalendar, request: BookingRequest): { date: string; partySize: number } | null {
  if (request.waitlist && request.date && calendar.days.some((day) => day.date === request.date)) {
    return { date: request.date, partySize: partySizeFor(pickerPartySizes(calendar, request.date), request.party)! };
  }
  const date = request.date && isBookableDate(calendar, request.date) ? request.date : calendar.firstAvailableDate;
  if (!date) return null;
  const partySize = partySizeFor(partySizesOn(calendar, date), request.party);
  return partySize === null ? null : { date, partySize };
}

/**
 * What the restaurant page opens on, whatever the calendar says: the initial choice, else the
 * first day shown, for two. The server uses it too, to put that day's times into the page's
 * HTML (decision 078).
 */
export function openingChoice(calendar: AvailabilityCalendar, request: BookingRequest): { date: string; partySize: number } {
  const first = initialChoice(calendar, request);
  return { date: first?.date ?? calendar.firstAvailableDate ?? calendar.days[0]?.date ?? '', partySize: first?.partySize ?? 2 };
}
