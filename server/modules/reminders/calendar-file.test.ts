import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { reservationCalendarFile, type CalendarReservation } from './calendar-file.ts';

/** The calendar file read back by an independent RFC 5545 parser (ical.js), not by string matching. */
const base: CalendarReservation = {
  reservationId: '5b8f2a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
  restaurantName: 'Dosa; Coffee, & Co — Indiranagar ಬೆಂಗಳೂರು with a name long enough to need folding',
  address: '12th Main Road, HAL 2nd Stage, Indiranagar, Bengaluru 560038',
  startsAt: new Date('2026-11-24T14:30:00.000Z'), // 20:00 in Kolkata
  durationMinutes: 90,
  partySize: 4,
  url: 'https://tablefair.example/me',
  sequence: 0,
  cancelled: false,
  now: new Date('2026-11-23T04:30:00.000Z'),
};

function parse(file: string) {
  const calendar = new ICAL.Component(ICAL.parse(file));
  const event = calendar.getFirstSubcomponent('vevent');
  if (!event) throw new Error('no VEVENT');
  return { calendar, event, parsed: new ICAL.Event(event) };
}

describe('reservation calendar file', () => {
  it('parses as one event at the Kolkata start in UTC, with the address, a link back and a stable UID', () => {
    const file = reservationCalendarFile(base);
    expect(file.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const { calendar, event, parsed } = parse(file);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(parsed.uid).toBe(`reservation-${base.reservationId}@tablefair.in`);
    expect(parsed.startDate.toJSDate().toISOString()).toBe('2026-11-24T14:30:00.000Z');
    expect(parsed.endDate.toJSDate().toISOString()).toBe('2026-11-24T16:00:00.000Z');
    expect(parsed.startDate.zone?.tzid).toBe('UTC');
    expect(parsed.summary).toBe(`Table at ${base.restaurantName}`);
    expect(parsed.location).toBe(`${base.restaurantName}, ${base.address}`);
    expect(parsed.description).toContain('table for 4 guests');
    expect(event.getFirstPropertyValue('url')).toBe(base.url);
    expect(parsed.sequence).toBe(0);
  });

  it('an update keeps the UID with a higher SEQUENCE; a cancellation says METHOD:CANCEL', () => {
    const first = parse(reservationCalendarFile(base)).parsed;
    const moved = parse(reservationCalendarFile({ ...base, startsAt: new Date('2026-11-24T15:00:00.000Z'), sequence: 1 })).parsed;
    expect(moved.uid).toBe(first.uid);
    expect(moved.sequence).toBeGreaterThan(first.sequence);
    expect(moved.startDate.toJSDate().toISOString()).toBe('2026-11-24T15:00:00.000Z');

    const cancelled = parse(reservationCalendarFile({ ...base, sequence: 2, cancelled: true }));
    expect(cancelled.calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(cancelled.event.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(cancelled.parsed.uid).toBe(first.uid);
    expect(cancelled.parsed.sequence).toBe(2);
  });

  it('escapes CR, LF, comma, semicolon and backslash in every text (RFC 5545 §3.3.11): a name cannot add a line such as ATTACH', () => {
    const hostile = 'Bistro\rATTACH:https://evil.example/x.exe\r\nX-A;B,C\\D\nE\u0000F\u007f';
    const file = reservationCalendarFile({ ...base, restaurantName: hostile, address: 'Lane 1\rORGANIZER:mailto:x@evil.example' });
    // Every line break in the file is a CRLF the writer put there: no bare CR or LF, no control character.
    expect(file.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f]/);
    const { event, parsed } = parse(file);
    expect(event.getAllProperties().map((property) => property.name)).toEqual([
      'uid',
      'sequence',
      'dtstamp',
      'dtstart',
      'dtend',
      'summary',
      'location',
      'description',
      'url',
      'status',
    ]);
    // Read back, each line break is one newline, and the separators are the name's own text.
    const name = 'Bistro\nATTACH:https://evil.example/x.exe\nX-A;B,C\\D\nEF';
    expect(parsed.summary).toBe(`Table at ${name}`);
    expect(parsed.location).toBe(`${name}, Lane 1\nORGANIZER:mailto:x@evil.example`);
    expect(parsed.description).toContain(`at ${name}. See or change it`);
  });
});
