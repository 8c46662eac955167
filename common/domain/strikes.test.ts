import { describe, expect, it } from 'vitest';
import { blockLiftsAt, isDisputeWindowOpen, strikeBlockMessage } from './strikes.ts';

const DAY = 86_400_000;
const now = new Date('2026-11-23T04:30:00.000Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);

describe('blockLiftsAt', () => {
  it('is null below the limit, and ignores strikes older than the window', () => {
    expect(blockLiftsAt([daysAgo(1), daysAgo(2)], now, 3, 365)).toBeNull();
    expect(blockLiftsAt([daysAgo(1), daysAgo(2), daysAgo(366)], now, 3, 365)).toBeNull();
  });

  it('lifts when the oldest of the newest `limit` strikes ages out', () => {
    expect(blockLiftsAt([daysAgo(10), daysAgo(300), daysAgo(5)], now, 3, 365)).toEqual(new Date(daysAgo(300).getTime() + 365 * DAY));
    // Four strikes: the block lasts until the second oldest ages out.
    expect(blockLiftsAt([daysAgo(1), daysAgo(200), daysAgo(100), daysAgo(300)], now, 3, 365)).toEqual(new Date(daysAgo(200).getTime() + 365 * DAY));
  });
});

describe('the dispute window', () => {
  it('is open for 14 days after the strike, not at the 14th day’s instant', () => {
    expect(isDisputeWindowOpen(daysAgo(13), now)).toBe(true);
    expect(isDisputeWindowOpen(new Date(now.getTime() - 14 * DAY + 1), now)).toBe(true);
    expect(isDisputeWindowOpen(daysAgo(14), now)).toBe(false);
  });
});

describe('strikeBlockMessage', () => {
  it('names the Kolkata date the block lifts (after 18:30 UTC it is already the next day)', () => {
    expect(strikeBlockMessage(3, 365, new Date('2027-01-04T19:00:00.000Z'))).toBe(
      'You have 3 no-shows in the last 365 days, so new bookings and drop entries are paused until Tue, 5 Jan 2027. If a no-show was a mistake, dispute it from your account page.',
    );
  });
});
