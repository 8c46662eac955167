import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addDays,
  bookingClosesAt,
  bookingCutoffInstant,
  isPastBookingCutoff,
  clockTimeOf,
  clockTimesBetween,
  daysBetween,
  formatCountdown,
  formatDateShort,
  formatTime12h,
  isClockTime,
  isIsoDate,
  kolkataInstant,
  minutesOfDay,
  secondsUntil,
  todayInKolkata,
  toKolkata,
} from './time.ts';

const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe('Kolkata dates across midnight', () => {
  it('puts 18:30 UTC and later on the next day in Kolkata', () => {
    expect(toKolkata(new Date('2026-11-22T18:29:59.999Z'))).toEqual({ date: '2026-11-22', time: '23:59' });
    expect(toKolkata(new Date('2026-11-22T18:30:00.000Z'))).toEqual({ date: '2026-11-23', time: '00:00' });
    expect(toKolkata(new Date('2026-11-22T18:31:00.000Z'))).toEqual({ date: '2026-11-23', time: '00:01' });
    expect(todayInKolkata(new Date('2026-11-22T18:31:00.000Z'))).toBe('2026-11-23');
    expect(todayInKolkata(new Date('2026-11-22T18:29:00.000Z'))).toBe('2026-11-22');
  });

  it('crosses month and year ends at Kolkata midnight, not UTC midnight', () => {
    expect(todayInKolkata(new Date('2026-12-31T18:30:00.000Z'))).toBe('2027-01-01');
    expect(todayInKolkata(new Date('2026-12-31T18:29:00.000Z'))).toBe('2026-12-31');
    expect(todayInKolkata(new Date('2026-11-30T20:00:00.000Z'))).toBe('2026-12-01');
    // Asked back and forth across a Kolkata midnight (the day it answered last is remembered).
    for (let round = 0; round < 2; round++) {
      expect(todayInKolkata(new Date('2026-11-22T18:29:59.999Z'))).toBe('2026-11-22');
      expect(todayInKolkata(new Date('2026-11-22T18:30:00.000Z'))).toBe('2026-11-23');
      expect(todayInKolkata(new Date('2026-11-23T18:29:59.999Z'))).toBe('2026-11-23');
      expect(todayInKolkata(new Date('2026-11-23T18:30:00.000Z'))).toBe('2026-11-24');
    }
    // 02:00 UTC is already 07:30 the same day in Kolkata.
    expect(toKolkata(new Date('2027-01-01T02:00:00.000Z'))).toEqual({ date: '2027-01-01', time: '07:30' });
  });

  it('does not depend on the machine time zone', () => {
    const instant = new Date('2026-11-22T18:31:00.000Z');
    for (const zone of ['America/Los_Angeles', 'Pacific/Kiritimati', 'UTC', 'Asia/Kolkata']) {
      process.env.TZ = zone;
      expect(todayInKolkata(instant)).toBe('2026-11-23');
      expect(kolkataInstant('2026-11-23', '00:01').toISOString()).toBe(instant.toISOString());
      expect(formatDateShort('2026-11-28')).toBe('Sat, 28 Nov');
      expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    }
  });
});

describe('kolkataInstant', () => {
  it('is the UTC instant 5:30 earlier than the wall clock', () => {
    expect(kolkataInstant('2026-11-23', '00:00').toISOString()).toBe('2026-11-22T18:30:00.000Z');
    expect(kolkataInstant('2026-11-23', '19:30').toISOString()).toBe('2026-11-23T14:00:00.000Z');
    expect(kolkataInstant('2027-01-01', '05:29').toISOString()).toBe('2026-12-31T23:59:00.000Z');
  });

  it('round-trips with toKolkata for every minute of any date', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 365 * 30 }), fc.integer({ min: 0, max: 1439 }), (dayOffset, minute) => {
        const date = addDays('2000-01-01', dayOffset);
        const time = clockTimeOf(minute);
        expect(toKolkata(kolkataInstant(date, time))).toEqual({ date, time });
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips the other way for whole-minute instants', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000_000 }), (minutes) => {
        const instant = new Date(Date.UTC(2000, 0, 1) + minutes * 60_000);
        const { date, time } = toKolkata(instant);
        expect(kolkataInstant(date, time).getTime()).toBe(instant.getTime());
      }),
      { numRuns: 500 },
    );
  });
});

describe('formatTime12h', () => {
  it.each([
    ['00:00', '12:00 AM'],
    ['00:05', '12:05 AM'],
    ['00:59', '12:59 AM'],
    ['01:00', '1:00 AM'],
    ['09:07', '9:07 AM'],
    ['11:59', '11:59 AM'],
    ['12:00', '12:00 PM'],
    ['12:30', '12:30 PM'],
    ['12:59', '12:59 PM'],
    ['13:00', '1:00 PM'],
    ['19:30', '7:30 PM'],
    ['23:59', '11:59 PM'],
  ])('%s → %s', (time, expected) => {
    expect(formatTime12h(time)).toBe(expected);
  });
});

describe('formatDateShort', () => {
  it.each([
    ['2026-11-22', 'Sun, 22 Nov'],
    ['2026-11-28', 'Sat, 28 Nov'],
    ['2026-12-31', 'Thu, 31 Dec'],
    ['2027-01-01', 'Fri, 1 Jan'],
    ['2028-02-29', 'Tue, 29 Feb'],
  ])('%s → %s', (date, expected) => {
    expect(formatDateShort(date)).toBe(expected);
  });
});

describe('addDays and daysBetween', () => {
  it.each([
    ['2026-11-30', 1, '2026-12-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -1, '2026-12-31'],
    ['2027-02-28', 1, '2027-03-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2028-02-29', 1, '2028-03-01'],
    ['2026-11-22', 29, '2026-12-21'],
    ['2026-11-22', 0, '2026-11-22'],
    ['2026-12-15', 30, '2027-01-14'],
  ])('%s + %i = %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
    expect(daysBetween(date, expected)).toBe(days);
  });
});

describe('parsing and small helpers', () => {
  it('accepts only real calendar dates written YYYY-MM-DD', () => {
    expect(isIsoDate('2026-11-22')).toBe(true);
    expect(isIsoDate('2028-02-29')).toBe(true);
    for (const bad of ['2027-02-29', '2026-02-30', '2026-13-01', '2026-11-2', '22-11-2026', '2026-11-22T00:00', '', 'tomorrow']) {
      expect(isIsoDate(bad)).toBe(false);
    }
  });

  it('gives the same answers when asked again (the answers are remembered per string)', () => {
    for (let round = 0; round < 3; round++) {
      expect(isIsoDate('2026-11-22')).toBe(true);
      expect(isIsoDate('2027-02-29')).toBe(false);
      expect(isIsoDate('2026-11-2')).toBe(false);
    }
    // More distinct strings than it remembers: it starts over and stays right.
    for (let day = 0; day < 1500; day++) expect(isIsoDate(addDays('2026-01-01', day))).toBe(true);
    expect(isIsoDate('2026-02-30')).toBe(false);
  });

  it('accepts only 24-hour HH:MM times', () => {
    expect(isClockTime('00:00')).toBe(true);
    expect(isClockTime('23:59')).toBe(true);
    for (const bad of ['24:00', '7:30', '19:60', '19:30:00', '7:30 PM', '']) expect(isClockTime(bad)).toBe(false);
  });

  it('converts between HH:MM and minutes of the day', () => {
    expect(minutesOfDay('00:00')).toBe(0);
    expect(minutesOfDay('19:30')).toBe(1170);
    expect(clockTimeOf(1170)).toBe('19:30');
    expect(clockTimesBetween('18:00', '19:00', 30)).toEqual(['18:00', '18:30', '19:00']);
    expect(clockTimesBetween('18:00', '19:10', 45)).toEqual(['18:00', '18:45']);
    expect(clockTimesBetween('20:00', '19:00', 30)).toEqual([]);
    expect(clockTimeOf(1439)).toBe('23:59');
    expect(clockTimeOf(5)).toBe('00:05');
  });

  it('counts down in whole seconds, never below zero', () => {
    const now = new Date('2026-11-23T04:30:00.000Z');
    expect(secondsUntil('2026-11-23T04:40:00.000Z', now)).toBe(600);
    expect(secondsUntil(new Date(now.getTime() + 1), now)).toBe(1);
    expect(secondsUntil('2026-11-23T04:29:00.000Z', now)).toBe(0);
    expect(formatCountdown(600)).toBe('10:00');
    expect(formatCountdown(581)).toBe('9:41');
    expect(formatCountdown(5)).toBe('0:05');
    expect(formatCountdown(0)).toBe('0:00');
  });
});

describe('the booking cut-off', () => {
  const now = new Date('2026-11-23T10:00:00Z');
  it('is now + the cut-off minutes; a slot at or before it is past the cut-off', () => {
    expect(bookingCutoffInstant(now, 30).toISOString()).toBe('2026-11-23T10:30:00.000Z');
    expect(isPastBookingCutoff('2026-11-23T10:30:00Z', now, 30)).toBe(true);
    expect(isPastBookingCutoff(new Date('2026-11-23T10:30:01Z'), now, 30)).toBe(false);
    expect(isPastBookingCutoff(Date.parse('2026-11-23T10:00:00Z'), now.getTime(), 0)).toBe(true);
    expect(bookingClosesAt(new Date('2026-11-23T10:30:00Z'), 30).toISOString()).toBe(now.toISOString());
  });
});
