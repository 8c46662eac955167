import { describe, expect, it } from 'vitest';
import type { AvailabilityCalendar } from '#common/contract/restaurants.ts';
import { initialChoice, isBookableDate, partySizeFor, partySizesOn, pickerPartySizes, readBookingParams, writeBookingParams } from './booking-choice.ts';

const calendar: AvailabilityCalendar = {
  from: '2026-11-22',
  days: [
    { date: '2026-11-22', partySizes: [] },
    { date: '2026-11-23', partySizes: [2, 4] },
    { date: '2026-11-24', partySizes: [2, 4, 6, 8] },
    { date: '2026-11-25', partySizes: [6, 8] },
  ],
  firstAvailableDate: '2026-11-23',
};

describe('restaurant page picker rules', () => {
  it('reads a well-formed link and drops malformed parts', () => {
    expect(readBookingParams(new URLSearchParams('date=2026-11-24&time=19:30&party=4'))).toEqual({ date: '2026-11-24', time: '19:30', party: 4 });
    expect(readBookingParams(new URLSearchParams('date=2026-02-30&time=25:00&party=two'))).toEqual({ date: undefined, time: undefined, party: undefined });
    expect(readBookingParams(new URLSearchParams('party=-2'))).toEqual({ date: undefined, time: undefined, party: undefined });
  });

  it('writes the choice back as a query string the reader understands', () => {
    const written = writeBookingParams({ date: '2026-11-24', time: '19:30', party: 4 });
    expect(written).toBe('?date=2026-11-24&time=19%3A30&party=4');
    expect(readBookingParams(new URLSearchParams(written.slice(1)))).toEqual({ date: '2026-11-24', time: '19:30', party: 4 });
    expect(writeBookingParams({})).toBe('');
  });

  it('offers only the party sizes free on the chosen date', () => {
    expect(partySizesOn(calendar, '2026-11-25')).toEqual([6, 8]);
    expect(partySizesOn(calendar, '2026-11-22')).toEqual([]);
    expect(partySizesOn(calendar, '2027-01-01')).toEqual([]);
    expect(isBookableDate(calendar, '2026-11-22')).toBe(false);
    expect(isBookableDate(calendar, '2026-11-23')).toBe(true);
  });

  it('keeps an offered party size, else the smallest that seats as many, else the smallest', () => {
    expect(partySizeFor([2, 4], 4)).toBe(4);
    expect(partySizeFor([2, 4, 6], 3)).toBe(4);
    expect(partySizeFor([6, 8], undefined)).toBe(6);
    expect(partySizeFor([2, 4], 10)).toBe(2);
    expect(partySizeFor([], 2)).toBeNull();
  });

  it('opens at the first available date with its smallest size, or at the linked choice when it can be booked', () => {
    expect(initialChoice(calendar, {})).toEqual({ date: '2026-11-23', partySize: 2 });
    expect(initialChoice(calendar, { date: '2026-11-25', party: 2 })).toEqual({ date: '2026-11-25', partySize: 6 });
    expect(initialChoice(calendar, { date: '2026-11-24', party: 8 })).toEqual({ date: '2026-11-24', partySize: 8 });
    // A linked date with nothing free falls back to the first available date.
    expect(initialChoice(calendar, { date: '2026-11-22', party: 4 })).toEqual({ date: '2026-11-23', partySize: 4 });
    expect(initialChoice({ ...calendar, days: calendar.days.map((day) => ({ ...day, partySizes: [] })), firstAvailableDate: null }, {})).toBeNull();
  });

  it('offers every probed party size on a full day, for the waitlist', () => {
    expect(pickerPartySizes(calendar, '2026-11-22')).toEqual([2, 4, 6, 8]);
    expect(pickerPartySizes(calendar, '2026-11-25')).toEqual([6, 8]);
  });

  it('carries the waitlist window through the sign-in detour', () => {
    const written = writeBookingParams({ date: '2026-11-22', party: 4, waitlist: { start: '19:00', end: '22:00' } });
    expect(written).toBe('?date=2026-11-22&party=4&waitlist=19%3A00-22%3A00');
    expect(readBookingParams(new URLSearchParams(written.slice(1)))).toEqual({
      date: '2026-11-22',
      time: undefined,
      party: 4,
      waitlist: { start: '19:00', end: '22:00' },
    });
    expect(readBookingParams(new URLSearchParams('waitlist=7pm-10pm')).waitlist).toBeUndefined();
  });

  it('keeps a full date and its party size when coming back to join its waitlist', () => {
    expect(initialChoice(calendar, { date: '2026-11-22', party: 4, waitlist: { start: '19:00', end: '22:00' } })).toEqual({ date: '2026-11-22', partySize: 4 });
    // A date outside the calendar still falls back.
    expect(initialChoice(calendar, { date: '2027-01-01', party: 4, waitlist: { start: '19:00', end: '22:00' } })).toEqual({ date: '2026-11-23', partySize: 4 });
    // Nothing free anywhere: a waitlist link still opens on its date.
    const full = { ...calendar, days: calendar.days.map((day) => ({ ...day, partySizes: [] })), firstAvailableDate: null };
    expect(initialChoice(full, { date: '2026-11-24', party: 6, waitlist: { start: '19:00', end: '22:00' } })).toEqual({ date: '2026-11-24', partySize: 6 });
  });
});
