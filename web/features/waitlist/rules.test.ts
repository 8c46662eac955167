import { describe, expect, it } from 'vitest';
import type { OutboxMessage, WaitlistEntry } from '#common/contract/waitlist.ts';
import { clockOffsetMs } from '#web/features/drops/clock.ts';
import {
  countdownAnnouncement,
  defaultWindow,
  formatOfferCountdown,
  newestFirst,
  offerSecondsLeft,
  refetchIntervalFor,
  stateBadge,
  stateText,
  validateWindow,
  windowLabel,
  windowOptions,
} from './rules.ts';

const EVENING = ['18:00', '18:30', '19:00', '19:30', '20:00', '20:30', '21:00', '21:30', '22:00'];

describe('the join form’s time window', () => {
  it('offers the day’s slot times in order, once each', () => {
    expect(windowOptions(['20:00', '18:00', '20:00', '19:00'], { isToday: false })).toEqual(['18:00', '19:00', '20:00']);
  });

  it('falls back to every half hour from noon to 11 PM when the day has no times', () => {
    const options = windowOptions([], { isToday: false });
    expect(options[0]).toBe('12:00');
    expect(options[1]).toBe('12:30');
    expect(options.at(-1)).toBe('23:00');
    expect(options).toHaveLength(23);
  });

  it('leaves out today’s times inside the 30-minute cut-off', () => {
    expect(windowOptions(EVENING, { isToday: true, nowTime: '19:10' })).toEqual(['20:00', '20:30', '21:00', '21:30', '22:00']);
    // Exactly 30 minutes ahead is already too late.
    expect(windowOptions(EVENING, { isToday: true, nowTime: '19:30' })).toEqual(['20:30', '21:00', '21:30', '22:00']);
    expect(windowOptions(EVENING, { isToday: true, nowTime: '23:00' })).toEqual([]);
    // Another day keeps them all, whatever the time now.
    expect(windowOptions(EVENING, { isToday: false, nowTime: '23:00' })).toEqual(EVENING);
  });

  it('opens with dinner hours, 7 to 10 PM, narrowed to the day’s times', () => {
    expect(defaultWindow(EVENING)).toEqual({ start: '19:00', end: '22:00' });
    expect(defaultWindow(['18:00', '19:15', '21:45', '22:30', '23:00'])).toEqual({ start: '19:15', end: '21:45' });
    // Only late times: from the first of them to the last.
    expect(defaultWindow(['22:30', '23:00'])).toEqual({ start: '22:30', end: '23:00' });
    // A lunch-only day: all of it.
    expect(defaultWindow(['12:00', '12:30', '13:00', '14:30'])).toEqual({ start: '12:00', end: '14:30' });
    // Today, late: what is left.
    expect(defaultWindow(['21:30', '22:00'])).toEqual({ start: '21:30', end: '22:00' });
    expect(defaultWindow([])).toBeNull();
  });

  it('accepts a window whose start is at or before its end, and explains anything else', () => {
    expect(validateWindow({ start: '19:00', end: '22:00' })).toBeNull();
    expect(validateWindow({ start: '20:00', end: '20:00' })).toBeNull();
    expect(validateWindow({ start: '22:00', end: '19:00' })).toBe('The latest time must be at or after the earliest time');
    expect(validateWindow({ start: '', end: '19:00' })).toBe('Choose the earliest time you could arrive');
    expect(validateWindow({ start: '19:00', end: '7pm' })).toBe('Choose the latest time you could arrive');
  });

  it('reads a window in 12-hour time', () => {
    expect(windowLabel({ start: '19:00', end: '22:00' })).toBe('7:00 PM – 10:00 PM');
    expect(windowLabel({ start: '12:30', end: '12:30' })).toBe('12:30 PM');
  });
});

const base: Pick<WaitlistEntry, 'state' | 'placeInLine' | 'offer'> = { state: 'waiting', placeInLine: 3, offer: null };
const offer = { reservationId: 'r1', holdExpiresAt: null, slot: { date: '2026-11-28', time: '19:30' }, partySize: 4 };

describe('what each entry says', () => {
  it('gives the place in line while waiting', () => {
    expect(stateText(base)).toBe('You are number 3 in line');
    expect(stateText({ ...base, placeInLine: 1 })).toBe('You are number 1 in line');
    expect(stateText({ ...base, placeInLine: null })).toBe('You are in line');
  });

  it('names the offered table in every later state', () => {
    expect(stateText({ state: 'offered', placeInLine: null, offer })).toBe(
      'A table at 7:30 PM on Sat, 28 Nov is held for you — confirm it before the timer runs out',
    );
    expect(stateText({ state: 'booked', placeInLine: null, offer })).toBe('You booked the table at 7:30 PM on Sat, 28 Nov');
    expect(stateText({ state: 'lapsed', placeInLine: null, offer })).toBe(
      'The table at 7:30 PM on Sat, 28 Nov was held for you, but the time ran out and it went to the next in line',
    );
    expect(stateText({ state: 'declined', placeInLine: null, offer })).toBe('You let the table at 7:30 PM on Sat, 28 Nov go to the next in line');
  });

  it('says plainly when nothing came of it', () => {
    expect(stateText({ state: 'ended', placeInLine: null, offer: null })).toBe('The evening passed without a table freeing up');
    expect(stateText({ state: 'removed', placeInLine: null, offer: null })).toBe('You left this waitlist');
    expect(stateText({ state: 'lapsed', placeInLine: null, offer: null })).toBe('The offer ran out');
  });

  it('has a badge for every state', () => {
    expect(Object.keys(stateBadge).sort()).toEqual(['booked', 'declined', 'ended', 'lapsed', 'offered', 'removed', 'waiting']);
  });

  it('re-reads often while a table is held, less while waiting, not at all when everything is settled', () => {
    expect(refetchIntervalFor([{ state: 'waiting' }, { state: 'offered' }])).toBe(10_000);
    expect(refetchIntervalFor([{ state: 'booked' }, { state: 'waiting' }])).toBe(30_000);
    expect(refetchIntervalFor([{ state: 'booked' }, { state: 'lapsed' }, { state: 'removed' }])).toBe(false);
    expect(refetchIntervalFor(undefined)).toBe(false);
  });
});

describe('the offer’s countdown on the server’s clock', () => {
  const serverTime = '2026-11-28T13:50:00.000Z';
  const holdExpiresAt = '2026-11-28T14:00:00.000Z';

  it('counts down to the hold’s end as the server sees it, whatever the device’s clock says', () => {
    // The device runs two minutes slow: its 13:48:00 is the server's 13:50:00, ten minutes before the end.
    const slowDevice = Date.parse('2026-11-28T13:48:00.000Z');
    const offset = clockOffsetMs(serverTime, slowDevice);
    expect(offset).toBe(120_000);
    expect(offerSecondsLeft(holdExpiresAt, slowDevice + offset)).toBe(600);
    expect(formatOfferCountdown(offerSecondsLeft(holdExpiresAt, slowDevice + 19_000 + offset))).toBe('9:41');
    // Uncorrected, the slow device would promise two minutes too many.
    expect(offerSecondsLeft(holdExpiresAt, slowDevice)).toBe(720);
  });

  it('rounds a part second up and never goes below zero', () => {
    expect(offerSecondsLeft(holdExpiresAt, Date.parse(holdExpiresAt) - 1_500)).toBe(2);
    expect(offerSecondsLeft(holdExpiresAt, Date.parse(holdExpiresAt) + 5_000)).toBe(0);
    expect(offerSecondsLeft(null, 0)).toBe(0);
    expect(offerSecondsLeft('not a time', 0)).toBe(0);
    expect(formatOfferCountdown(0)).toBe('0:00');
    expect(formatOfferCountdown(65)).toBe('1:05');
  });

  it('is announced in steps, not every second', () => {
    expect(countdownAnnouncement(581)).toBe('About 10 minutes left to confirm.');
    expect(countdownAnnouncement(575)).toBe(countdownAnnouncement(581));
    expect(countdownAnnouncement(45)).toBe('Less than a minute left to confirm.');
    expect(countdownAnnouncement(20)).toBe('Less than 30 seconds left to confirm.');
    expect(countdownAnnouncement(5)).toBe('Less than 10 seconds left to confirm.');
    expect(countdownAnnouncement(0)).toBe('The hold has run out.');
  });
});

describe('the dev mailbox', () => {
  const message = (id: string, createdAt: string): OutboxMessage => ({
    id,
    channel: 'email',
    recipient: 'a@example.com',
    subject: '',
    body: '',
    createdAt,
    sentAt: null,
  });

  it('lists the newest message first', () => {
    const sorted = newestFirst([
      message('old', '2026-11-28T10:00:00.000Z'),
      message('new', '2026-11-28T12:00:00.000Z'),
      message('mid', '2026-11-28T11:00:00.000Z'),
    ]);
    expect(sorted.map((item) => item.id)).toEqual(['new', 'mid', 'old']);
  });
});
