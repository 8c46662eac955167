import { describe, expect, it } from 'vitest';
import { kolkataInstant } from '#common/domain/time.ts';
import { bulkFormErrors, bulkTimes, describeBulk, groupByDay, mayWaiveFee, staffActions } from './bookings.ts';
import { parseEventBlocks } from '#web/api/event-stream.ts';

const startsAt = kolkataInstant('2026-11-23', '19:30').toISOString();
const before = kolkataInstant('2026-11-23', '19:44');
const after = kolkataInstant('2026-11-23', '19:45');
const labels = (status: Parameters<typeof staffActions>[0]['status'], now: Date) => staffActions({ status, startsAt }, now).map((move) => move.label);

describe('staff buttons', () => {
  it("offer only the spec's moves, from the state machine", () => {
    expect(labels('PENDING', before)).toEqual(['Confirm', 'Cancel']);
    expect(labels('CONFIRMED', before)).toEqual(['Seat']);
    expect(labels('SEATED', before)).toEqual(['Complete']);
    for (const status of ['HELD', 'COMPLETED', 'CANCELLED', 'NO_SHOW'] as const) expect(labels(status, after)).toEqual([]);
  });

  it('add No-show from 15 minutes after the start', () => {
    expect(labels('CONFIRMED', after)).toEqual(['Seat', 'No-show']);
  });
});

describe('bulk preview', () => {
  it('runs from start to end inclusive', () => {
    expect(bulkTimes('18:00', '22:00', 30)).toHaveLength(9);
    expect(bulkTimes('18:00', '19:00', 45)).toEqual(['18:00', '18:45']);
    expect(describeBulk(bulkTimes('18:00', '22:00', 30))).toBe('Adds up to 9 times, 6:00 PM – 10:00 PM');
  });

  it('shows nothing for values the server will refuse', () => {
    expect(bulkTimes('18:00', '22:00', 4)).toEqual([]);
    expect(bulkTimes('18:00', '22:00', Number.NaN)).toEqual([]);
    expect(describeBulk([])).toBe('');
  });
});

describe('bulk form errors', () => {
  const valid = { start: '18:00', end: '22:00', interval: '30', capacity: '4' };
  it('takes what the contract takes, at its bounds', () => {
    expect(bulkFormErrors('2026-11-30', valid)).toEqual({});
    expect(bulkFormErrors('2026-11-30', { ...valid, interval: '5', capacity: '1' })).toEqual({});
    expect(bulkFormErrors('2026-11-30', { ...valid, interval: '240', capacity: '500' })).toEqual({});
  });

  it('names each refused field in the form’s own words, never the server’s', () => {
    for (const interval of ['0', '4', '241', '7.5', '', 'often'])
      expect(bulkFormErrors('2026-11-30', { ...valid, interval }), interval).toEqual({ interval: 'Choose a whole number of minutes from 5 to 240.' });
    expect(bulkFormErrors('2026-11-30', { ...valid, capacity: '0' })).toEqual({ capacity: 'Choose a whole number of covers from 1 to 500.' });
    expect(bulkFormErrors('2026-11-30', { ...valid, start: '22:00', end: '18:00' })).toEqual({ start: 'Choose a start time before the end time.' });
  });

  it('previews nothing where it refuses: equal start and end is an error, not "Adds 1 time"', () => {
    expect(bulkFormErrors('2026-11-30', { ...valid, start: '12:00', end: '12:00' })).toEqual({ start: 'Choose a start time before the end time.' });
    expect(describeBulk(bulkTimes('12:00', '12:00', 30))).toBe('');
    expect(describeBulk(bulkTimes('12:00', '12:30', 30))).toBe('Adds up to 2 times, 12:00 PM – 12:30 PM');
  });
});

describe('booking days', () => {
  it('always start with today, even when it is empty', () => {
    const booking = (date: string) => ({ slot: { date, time: '19:00' } }) as Parameters<typeof groupByDay>[0][number];
    const days = groupByDay([booking('2026-11-25'), booking('2026-11-24')], '2026-11-23');
    expect(days.map((day) => [day.label, day.bookings.length])).toEqual([
      ['Today · Mon, 23 Nov', 0],
      ['Tomorrow · Tue, 24 Nov', 1],
      ['Wed, 25 Nov', 1],
    ]);
  });
});

describe('event stream parsing', () => {
  it('reads events, skips comments and keeps a partial event for later', () => {
    const { events, rest } = parseEventBlocks('retry: 3000\n\n: heartbeat\n\nevent: booking\ndata: {"type":"booking"}\n\nevent: sl');
    expect(events).toEqual([{ event: 'booking', data: '{"type":"booking"}' }]);
    expect(rest).toBe('event: sl');
  });
});

describe('the Waive fee action', () => {
  it('is offered on a fee taken from a no-show or a late cancel, and on a no-show whose capture is on its way', () => {
    expect(mayWaiveFee('NO_SHOW', 'kept')).toBe(true);
    expect(mayWaiveFee('CANCELLED', 'kept')).toBe(true);
    expect(mayWaiveFee('NO_SHOW', 'held')).toBe(true);
  });

  it('is not offered where there is no fee to waive', () => {
    expect(mayWaiveFee('CANCELLED', 'held')).toBe(false);
    expect(mayWaiveFee('CONFIRMED', 'held')).toBe(false);
    expect(mayWaiveFee('SEATED', 'credit_at_table')).toBe(false);
    expect(mayWaiveFee('NO_SHOW', 'refunded')).toBe(false);
    expect(mayWaiveFee('CANCELLED', 'released')).toBe(false);
    expect(mayWaiveFee('NO_SHOW', undefined)).toBe(false);
  });
});
