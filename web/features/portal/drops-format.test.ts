import { describe, expect, it } from 'vitest';
import { clockOffsetMs, formatWait, secondsBetween } from '#web/features/drops/clock.ts';
import {
  dropRefreshMs,
  entryResultView,
  formatDateRange,
  formatInstant,
  formatPhone,
  formatWindow,
  groupDropSlots,
  nextMilestone,
  splitDrops,
} from './drops-format.ts';

const drop = {
  entryOpensAt: '2026-11-23T13:30:00.000Z',
  entryClosesAt: '2026-11-24T13:30:00.000Z',
  releaseAt: '2026-11-24T14:00:00.000Z',
};

describe('instants in Bengaluru time', () => {
  it('show the Kolkata wall clock', () => {
    expect(formatInstant('2026-11-23T13:30:00.000Z')).toBe('Mon, 23 Nov, 7:00 PM');
    expect(formatInstant('2026-11-23T18:45:00.000Z')).toBe('Tue, 24 Nov, 12:15 AM');
    expect(formatWindow(drop.entryOpensAt, drop.entryClosesAt)).toBe('Mon, 23 Nov, 7:00 PM → Tue, 24 Nov, 7:00 PM');
    expect(formatWindow(drop.entryOpensAt, '2026-11-23T15:30:00.000Z')).toBe('Mon, 23 Nov, 7:00 PM → 9:00 PM');
    expect(formatDateRange('2026-11-30', '2026-11-30')).toBe('Mon, 30 Nov');
    expect(formatDateRange('2026-11-30', '2026-12-06')).toBe('Mon, 30 Nov – Sun, 6 Dec');
  });
});

describe('countdowns on the server clock', () => {
  it('measure the device clock against serverTime', () => {
    expect(clockOffsetMs('2026-11-23T13:30:05.000Z', Date.parse('2026-11-23T13:30:00.000Z'))).toBe(5_000);
    expect(clockOffsetMs(undefined, 1)).toBe(0);
    expect(clockOffsetMs('not a time', 1)).toBe(0);
  });

  it('run to the next moment of the drop', () => {
    expect(nextMilestone({ ...drop, phase: 'upcoming' })).toEqual({ label: 'Entries open in', at: drop.entryOpensAt });
    expect(nextMilestone({ ...drop, phase: 'open' })).toEqual({ label: 'Entries close in', at: drop.entryClosesAt });
    expect(nextMilestone({ ...drop, entryClosesAt: drop.releaseAt, phase: 'open' })).toEqual({
      label: 'Entries close and the draw runs in',
      at: drop.releaseAt,
    });
    expect(nextMilestone({ ...drop, phase: 'closed' })).toEqual({ label: 'The draw runs in', at: drop.releaseAt });
    expect(nextMilestone({ ...drop, phase: 'released' })).toBeNull();
    expect(nextMilestone({ ...drop, phase: 'ended' })).toBeNull();
  });

  it('count whole seconds, never below zero, and read like a clock', () => {
    const at = Date.parse(drop.releaseAt);
    expect(secondsBetween(at - 1_500, drop.releaseAt)).toBe(2);
    expect(secondsBetween(at + 5_000, drop.releaseAt)).toBe(0);
    expect(formatWait(9)).toBe('0:09');
    expect(formatWait(581)).toBe('9:41');
    expect(formatWait(3 * 3600 + 5 * 60 + 9)).toBe('3:05:09');
    expect(formatWait(2 * 86_400 + 4 * 3600 + 5 * 60)).toBe('2d 4h 05m');
  });

  it('refresh often while entries and tables move, never once ended', () => {
    expect(dropRefreshMs('open')).toBe(5_000);
    expect(dropRefreshMs('closed')).toBe(5_000);
    expect(dropRefreshMs('released')).toBe(10_000);
    expect(dropRefreshMs('upcoming')).toBe(30_000);
    expect(dropRefreshMs('ended')).toBe(false);
  });
});

describe('entries as staff read them', () => {
  it('say each result plainly', () => {
    const slot = { date: '2026-11-30', time: '22:30' };
    expect(entryResultView({ state: 'entered' }).label).toBe('Entered');
    expect(entryResultView({ state: 'won', reservationId: 'r', holdExpiresAt: '2026-11-24T14:10:00.000Z', slot })).toEqual({
      label: 'Holding a table',
      detail: 'Mon, 30 Nov, 10:30 PM · hold ends 7:40 PM',
      tone: 'accent',
    });
    expect(entryResultView({ state: 'booked', reservationId: 'r', status: 'PENDING', slot }).detail).toBe('Mon, 30 Nov, 10:30 PM · Pending');
    expect(entryResultView({ state: 'waiting', placeInLine: 37 }).detail).toBe('Number 37 in line');
    expect(entryResultView({ state: 'not_this_time' }).label).toBe('No table');
  });

  it('show Indian numbers in groups', () => {
    expect(formatPhone('+919812345678')).toBe('+91 98123 45678');
    expect(formatPhone('+14155550100')).toBe('+14155550100');
  });
});

describe('slots and the list', () => {
  it('group slots by date in order, with totals', () => {
    const slots = [
      { id: 'c', date: '2026-12-01', time: '22:30', capacity: 4, coversBooked: 0 },
      { id: 'b', date: '2026-11-30', time: '22:30', capacity: 4, coversBooked: 2 },
      { id: 'a', date: '2026-11-30', time: '19:00', capacity: 4, coversBooked: 4 },
    ];
    expect(groupDropSlots(slots).map((day) => [day.date, day.slots.map((slot) => slot.id), day.coversBooked, day.capacity])).toEqual([
      ['2026-11-30', ['a', 'b'], 6, 8],
      ['2026-12-01', ['c'], 0, 4],
    ]);
  });

  it('put ended drops apart', () => {
    const drops = [{ phase: 'ended' as const }, { phase: 'open' as const }, { phase: 'upcoming' as const }];
    expect(splitDrops(drops)).toEqual({ current: [{ phase: 'open' }, { phase: 'upcoming' }], past: [{ phase: 'ended' }] });
  });
});
