/**
 * Bengaluru time. Every business date and time is wall-clock in Asia/Kolkata,
 * which is UTC+05:30 all year (no DST), so a fixed offset is exact and keeps this
 * independent of the machine's zone and of the browser's Intl data.
 */
export const KOLKATA_OFFSET_MINUTES = 330;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** How many distinct strings isIsoDate remembers before it starts over (the hot path asks about a few dozen). */
const ISO_DATE_MEMORY = 1024;
const isoDateAnswers = new Map<string, boolean>();

/** True for a real calendar date written YYYY-MM-DD. Remembered per string: the busiest read checks the same few dates. */
export function isIsoDate(value: string): boolean {
  const known = isoDateAnswers.get(value);
  if (known !== undefined) return known;
  const answer = computeIsIsoDate(value);
  // Only strings of a date's length are kept, so odd input cannot fill the memory with long keys.
  if (value.length === 10) {
    if (isoDateAnswers.size >= ISO_DATE_MEMORY) isoDateAnswers.clear();
    isoDateAnswers.set(value, answer);
  }
  return answer;
}

function computeIsIsoDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** True for a 24-hour HH:MM time. */
export function isClockTime(value: string): boolean {
  return TIME_PATTERN.test(value);
}

/** The Kolkata wall-clock date and time of an instant. */
export function toKolkata(instant: Date): { date: string; time: string } {
  const shifted = new Date(instant.getTime() + KOLKATA_OFFSET_MINUTES * MINUTE_MS).toISOString();
  return { date: shifted.slice(0, 10), time: shifted.slice(11, 16) };
}

/** The Kolkata day todayInKolkata answered last: its date and the instants it runs over, [startMs, endMs). */
let lastKolkataDay = { date: '', startMs: 0, endMs: 0 };

/** Today's date in Kolkata (the day's bounds are kept, so each call in the same day costs two comparisons). */
export function todayInKolkata(now: Date = new Date()): string {
  const ms = now.getTime();
  if (ms >= lastKolkataDay.startMs && ms < lastKolkataDay.endMs) return lastKolkataDay.date;
  const date = toKolkata(now).date;
  if (Number.isNaN(ms)) return date;
  const startMs = Date.parse(`${date}T00:00:00Z`) - KOLKATA_OFFSET_MINUTES * MINUTE_MS;
  lastKolkataDay = { date, startMs, endMs: startMs + DAY_MS };
  return date;
}

/** The instant at which a Kolkata wall-clock date and time happens. */
export function kolkataInstant(date: string, time: string): Date {
  return new Date(Date.parse(`${date}T${time}:00Z`) - KOLKATA_OFFSET_MINUTES * MINUTE_MS);
}

/**
 * The booking cut-off at `now`: a slot starting at or before this instant can no longer be
 * booked (BOOKING_CUTOFF_MINUTES ahead of now). The one place the cut-off is computed.
 */
export function bookingCutoffInstant(now: Date | number, cutoffMinutes: number): Date {
  return new Date((typeof now === 'number' ? now : now.getTime()) + cutoffMinutes * MINUTE_MS);
}

/** The instant a slot starting at `startsAt` stops taking bookings (the inverse of bookingCutoffInstant). */
export function bookingClosesAt(startsAt: Date | number, cutoffMinutes: number): Date {
  return bookingCutoffInstant(startsAt, -cutoffMinutes);
}

/** True when a slot starting at `startsAt` is past the booking cut-off at `now`. */
export function isPastBookingCutoff(startsAt: Date | string | number, now: Date | number, cutoffMinutes: number): boolean {
  const startsAtMs = typeof startsAt === 'number' ? startsAt : new Date(startsAt).getTime();
  return startsAtMs <= bookingCutoffInstant(now, cutoffMinutes).getTime();
}

/** date + days, as YYYY-MM-DD (calendar arithmetic, no zone involved). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from one date to another (b - a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}

/** Minutes since midnight of an HH:MM time. */
export function minutesOfDay(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

/** HH:MM of minutes since midnight (0-1439). */
export function clockTimeOf(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** HH:MM times every `intervalMinutes` from `start` up to and including `end` (decision 040). */
export function clockTimesBetween(start: string, end: string, intervalMinutes: number): string[] {
  const times: string[] = [];
  for (let minute = minutesOfDay(start); minute <= minutesOfDay(end); minute += intervalMinutes) times.push(clockTimeOf(minute));
  return times;
}

/** '19:30' → '7:30 PM'; '00:15' → '12:15 AM'. */
export function formatTime12h(time: string): string {
  const [hours, minutes] = time.split(':').map(Number);
  const suffix = hours < 12 ? 'AM' : 'PM';
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${String(minutes).padStart(2, '0')} ${suffix}`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An instant as Bengaluru reads it: 'Sat, 28 Nov, 7:30 PM' (or '… at 7:30 PM'); '' when unreadable. */
export function formatInstantKolkata(instant: Date | string, separator: ', ' | ' at ' = ', '): string {
  const parsed = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(parsed.getTime())) return '';
  const { date, time } = toKolkata(parsed);
  return `${formatDateShort(date)}${separator}${formatTime12h(time)}`;
}

/** '2026-11-28' → 'Sat, 28 Nov'. */
export function formatDateShort(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return `${WEEKDAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** Seconds left until an instant, never negative. */
export function secondsUntil(instant: Date | string, now: Date = new Date()): number {
  const target = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  return Math.max(0, Math.ceil((target - now.getTime()) / 1000));
}

/** 581 → '9:41'. */
export function formatCountdown(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
