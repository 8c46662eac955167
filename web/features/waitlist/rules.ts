import type { OutboxMessage, WaitlistEntry, WaitlistState } from '#common/contract/waitlist.ts';
import { clockTimeOf, formatCountdown, formatDateShort, formatTime12h, minutesOfDay } from '#common/domain/time.ts';
import { secondsBetween } from '#web/features/drops/clock.ts';

/**
 * The waitlist's screen rules, kept pure so they are tested without a browser: the time window
 * the join form offers and checks (decision 090), what each entry's state says, and the offer's
 * countdown on the server's clock.
 */

/** The default window: dinner hours, 7:00 PM to 10:00 PM, narrowed to the times the day has. */
export const DEFAULT_WINDOW = { start: '19:00', end: '22:00' } as const;
/** When the day's times are unknown (no slots that day), the form offers every half hour in this range. */
const FALLBACK_RANGE = { start: '12:00', end: '23:00', stepMinutes: 30 } as const;
/** A slot this close to its start can no longer be booked (the server's default cut-off). */
export const CUTOFF_MINUTES = 30;

export interface TimeWindow {
  start: string;
  end: string;
}

/**
 * The start times the form offers, in order: the day's slot times when known, else every half hour
 * from noon to 11 PM. On today, times already inside the booking cut-off are left out.
 */
export function windowOptions(slotTimes: readonly string[], options: { isToday: boolean; nowTime?: string }): string[] {
  let times = [...new Set(slotTimes)].sort();
  if (times.length === 0) {
    times = [];
    for (let minutes = minutesOfDay(FALLBACK_RANGE.start); minutes <= minutesOfDay(FALLBACK_RANGE.end); minutes += FALLBACK_RANGE.stepMinutes)
      times.push(clockTimeOf(minutes));
  }
  if (options.isToday && options.nowTime) {
    const earliest = minutesOfDay(options.nowTime) + CUTOFF_MINUTES;
    times = times.filter((time) => minutesOfDay(time) > earliest);
  }
  return times;
}

/**
 * The window the form opens with: the earliest offered time at or after 7:00 PM to the latest at or
 * before 10:00 PM. A day with nothing that late (lunch only) opens with all of its times; a day
 * with nothing before 10:00 PM runs to its last time. Null when nothing can be offered.
 */
export function defaultWindow(options: readonly string[]): TimeWindow | null {
  if (options.length === 0) return null;
  const evening = options.find((time) => time >= DEFAULT_WINDOW.start);
  if (!evening) return { start: options[0], end: options[options.length - 1] };
  const start = evening;
  const atOrBeforeEnd = options.filter((time) => time >= start && time <= DEFAULT_WINDOW.end);
  const end = atOrBeforeEnd.length > 0 ? atOrBeforeEnd[atOrBeforeEnd.length - 1] : options[options.length - 1];
  return { start, end: end < start ? start : end };
}

/** The form's check before anything is sent; null when the window is fine. */
export function validateWindow(window: TimeWindow): string | null {
  if (!/^\d{2}:\d{2}$/.test(window.start)) return 'Choose the earliest time you could arrive';
  if (!/^\d{2}:\d{2}$/.test(window.end)) return 'Choose the latest time you could arrive';
  if (window.end < window.start) return 'The latest time must be at or after the earliest time';
  return null;
}

/** '7:00 PM – 10:00 PM', or '7:00 PM' when the window is one time. */
export function windowLabel(window: TimeWindow): string {
  return window.start === window.end ? formatTime12h(window.start) : `${formatTime12h(window.start)} – ${formatTime12h(window.end)}`;
}

export function partyText(size: number): string {
  return `${size} ${size === 1 ? 'guest' : 'guests'}`;
}

/** The short badge for each state. */
export const stateBadge: Record<WaitlistState, string> = {
  waiting: 'Waiting',
  offered: 'Table held',
  booked: 'Booked',
  lapsed: 'Offer ran out',
  declined: 'Let go',
  ended: 'Ended',
  removed: 'Left',
};

/** The sentence under an entry: where the diner stands, or what became of it. */
export function stateText(entry: Pick<WaitlistEntry, 'state' | 'placeInLine' | 'offer'>): string {
  const offered = entry.offer ? `${formatTime12h(entry.offer.slot.time)} on ${formatDateShort(entry.offer.slot.date)}` : null;
  switch (entry.state) {
    case 'waiting':
      return entry.placeInLine ? `You are number ${entry.placeInLine} in line` : 'You are in line';
    case 'offered':
      return offered ? `A table at ${offered} is held for you — confirm it before the timer runs out` : 'A table is held for you';
    case 'booked':
      return offered ? `You booked the table at ${offered}` : 'You booked this table';
    case 'lapsed':
      return offered ? `The table at ${offered} was held for you, but the time ran out and it went to the next in line` : 'The offer ran out';
    case 'declined':
      return offered ? `You let the table at ${offered} go to the next in line` : 'You let this table go';
    case 'ended':
      return 'The evening passed without a table freeing up';
    case 'removed':
      return 'You left this waitlist';
  }
}

/** Waiting and offered entries are live; the rest are history. */
export function isLive(entry: Pick<WaitlistEntry, 'state'>): boolean {
  return entry.state === 'waiting' || entry.state === 'offered';
}

/** Re-read while something can change on its own: often while an offer runs, less while waiting. */
export function refetchIntervalFor(entries: readonly Pick<WaitlistEntry, 'state'>[] | undefined): number | false {
  if (!entries) return false;
  if (entries.some((entry) => entry.state === 'offered')) return 10_000;
  if (entries.some((entry) => entry.state === 'waiting')) return 30_000;
  return false;
}

/**
 * Whole seconds left on an offer at `serverNowMs` (the device's clock corrected by the answer's
 * serverTime: clockOffsetMs and useServerNow in web/features/drops/clock.ts); never negative.
 */
export function offerSecondsLeft(holdExpiresAt: string | null, serverNowMs: number): number {
  if (!holdExpiresAt || Number.isNaN(Date.parse(holdExpiresAt))) return 0;
  return secondsBetween(serverNowMs, holdExpiresAt);
}

/** m:ss, as on the hold screen. */
export function formatOfferCountdown(seconds: number): string {
  return formatCountdown(Math.max(0, Math.floor(seconds)));
}

/** What screen readers hear about the countdown: once a minute, then at 30 s and 10 s, not every second. */
export function countdownAnnouncement(seconds: number): string {
  if (seconds <= 0) return 'The hold has run out.';
  const minutes = Math.ceil(seconds / 60);
  if (seconds > 60) return `About ${minutes} minutes left to confirm.`;
  if (seconds > 30) return 'Less than a minute left to confirm.';
  if (seconds > 10) return 'Less than 30 seconds left to confirm.';
  return 'Less than 10 seconds left to confirm.';
}

/** The dev mailbox, newest first whatever order it arrives in. */
export function newestFirst(messages: readonly OutboxMessage[]): OutboxMessage[] {
  return [...messages].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}
