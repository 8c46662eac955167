import { describe, expect, it } from 'vitest';
import { clockOffsetMs, formatWait, secondsBetween } from './clock.ts';
import { nextMilestone, resultHeadline } from './rules.ts';

describe('drop countdowns', () => {
  it('measure the server clock against the device', () => {
    expect(clockOffsetMs('2026-11-23T10:00:05.000Z', Date.parse('2026-11-23T10:00:00.000Z'))).toBe(5_000);
    expect(clockOffsetMs('not a time', 0)).toBe(0);
  });

  it('format waits as m:ss, h:mm:ss and days', () => {
    expect(formatWait(581)).toBe('9:41');
    expect(formatWait(0)).toBe('0:00');
    expect(formatWait(3 * 3600 + 5 * 60 + 9)).toBe('3:05:09');
    expect(formatWait(2 * 86_400 + 4 * 3600 + 5 * 60 + 59)).toBe('2d 4h 05m');
    expect(secondsBetween(Date.parse('2026-11-23T10:00:00.000Z'), '2026-11-23T10:09:41.000Z')).toBe(581);
    expect(secondsBetween(Date.parse('2026-11-23T10:10:00.000Z'), '2026-11-23T10:09:41.000Z')).toBe(0);
  });

  it('counts down to what comes next in the drop’s life', () => {
    const drop = { entryOpensAt: 'a', entryClosesAt: 'b', releaseAt: 'c' };
    expect(nextMilestone({ ...drop, phase: 'upcoming' })).toEqual({ label: 'Entries open in', at: 'a' });
    expect(nextMilestone({ ...drop, phase: 'open' })).toEqual({ label: 'Entries close in', at: 'b' });
    expect(nextMilestone({ ...drop, phase: 'closed' })).toEqual({ label: 'Draw in', at: 'c' });
    expect(nextMilestone({ ...drop, phase: 'released' })).toBeNull();
  });
});

describe('drop results', () => {
  const now = Date.parse('2026-11-23T10:00:00.000Z');
  it('say what the spec says', () => {
    expect(
      resultHeadline({ state: 'won', reservationId: 'r', holdExpiresAt: '2026-11-23T10:09:41.000Z', slot: { date: '2026-11-24', time: '19:00' } }, now),
    ).toBe('You got a table — complete booking in 9:41');
    expect(resultHeadline({ state: 'waiting', placeInLine: 37 }, now)).toBe('You are number 37 in line');
    expect(resultHeadline({ state: 'not_this_time' }, now)).toBe('Not this time');
  });
});
