/**
 * No-show strikes (decision 122): pure rules both sides read.
 * A strike counts for STRIKE_WINDOW_DAYS from its no-show; STRIKE_LIMIT counting strikes block new
 * holds and drop entries until enough of them age out.
 */
import { DAY_MS, formatDateShort, toKolkata } from './time.ts';

/** A diner may dispute a strike for this many days after it was recorded. */
export const STRIKE_DISPUTE_DAYS = 14;
export const DISPUTE_REASON_MAX = 1000;

/**
 * When a block lifts: the instant the strikes still counting drop below `limit`, given the
 * counting strikes' times (any order). Null when fewer than `limit` count at `now`.
 */
export function blockLiftsAt(strikeTimes: Date[], now: Date, limit: number, windowDays: number): Date | null {
  const windowMs = windowDays * DAY_MS;
  const counting = strikeTimes.map((time) => time.getTime()).filter((time) => time > now.getTime() - windowMs);
  if (counting.length < limit) return null;
  counting.sort((a, b) => a - b);
  // Of the newest `limit` counting strikes, the oldest is the one whose ageing out ends the block.
  return new Date(counting[counting.length - limit] + windowMs);
}

/** True while a strike recorded at `strikeAt` may still be disputed. */
export function isDisputeWindowOpen(strikeAt: Date, now: Date): boolean {
  return now.getTime() < strikeAt.getTime() + STRIKE_DISPUTE_DAYS * DAY_MS;
}

/** The refusal a blocked diner reads, naming the Kolkata date the block lifts. */
export function strikeBlockMessage(strikeCount: number, windowDays: number, liftsAt: Date): string {
  const { date } = toKolkata(liftsAt);
  return `You have ${strikeCount} no-shows in the last ${windowDays} days, so new bookings and drop entries are paused until ${formatDateShort(date)} ${date.slice(0, 4)}. If a no-show was a mistake, dispute it from your account page.`;
}
