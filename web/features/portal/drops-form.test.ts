import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDropBody } from '#common/contract/drops.ts';
import {
  addDropTime,
  defaultDropForm,
  describeDropSlots,
  describeTakenTimes,
  dropBodyOf,
  fieldOfMessage,
  humaniseDropMessage,
  instantToKolkataLocal,
  kolkataLocalToIso,
  validateDropForm,
  type DropFormValues,
} from './drops-form.ts';

// 2026-11-23 13:30 UTC = 19:00 in Bengaluru.
const NOW = new Date('2026-11-23T13:30:00.000Z');

const valid = (overrides: Partial<DropFormValues> = {}): DropFormValues => ({
  title: 'Chef’s counter',
  description: '',
  dateFrom: '2026-11-30',
  dateTo: '2026-12-06',
  times: ['22:30'],
  capacity: '4',
  entryOpensAt: '2026-11-23T19:00',
  entryClosesAt: '2026-11-24T19:00',
  releaseAt: '2026-11-24T19:00',
  takeExistingTimes: false,
  ...overrides,
});

describe('Bengaluru date-times to instants', () => {
  const originalTz = process.env.TZ;
  // Whatever zone the machine is in, the wall clock typed is Kolkata's.
  beforeEach(() => {
    process.env.TZ = 'America/Los_Angeles';
  });
  afterEach(() => {
    process.env.TZ = originalTz;
  });

  it('reads a datetime-local value as +05:30, from the text alone', () => {
    expect(new Date(2026, 0, 1).getTimezoneOffset()).toBe(480); // the zone really changed
    expect(kolkataLocalToIso('2026-11-30T19:00')).toBe('2026-11-30T19:00:00+05:30');
    expect(new Date(kolkataLocalToIso('2026-11-30T19:00')!).toISOString()).toBe('2026-11-30T13:30:00.000Z');
    expect(kolkataLocalToIso('2026-11-30T00:15:30')).toBe('2026-11-30T00:15:30+05:30');
    expect(new Date(kolkataLocalToIso('2026-12-01T03:00')!).toISOString()).toBe('2026-11-30T21:30:00.000Z');
  });

  it('refuses what is not a real date and time', () => {
    for (const value of ['', '2026-11-30', '2026-02-30T19:00', '2026-11-30T24:00', '2026-11-30T19:60', '30/11/2026 19:00', '2026-11-30T19:00+05:30']) {
      expect(kolkataLocalToIso(value), value).toBeNull();
    }
  });

  it('shows an instant as Bengaluru wall clock, and round-trips', () => {
    expect(instantToKolkataLocal(NOW)).toBe('2026-11-23T19:00');
    expect(instantToKolkataLocal('2026-11-30T20:00:00.000Z')).toBe('2026-12-01T01:30');
    expect(kolkataLocalToIso(instantToKolkataLocal('2026-11-30T20:00:00.000Z'))).toBe('2026-12-01T01:30:00+05:30');
  });

  it('answers what the contract accepts', () => {
    expect(createDropBody.safeParse(dropBodyOf(valid())).success).toBe(true);
  });
});

describe('defaults', () => {
  it('open entries now, close and release 24 hours later, and take the dates a week from today', () => {
    const form = defaultDropForm(NOW);
    expect(form).toMatchObject({
      entryOpensAt: '2026-11-23T19:00',
      entryClosesAt: '2026-11-24T19:00',
      releaseAt: '2026-11-24T19:00',
      dateFrom: '2026-11-30',
      dateTo: '2026-12-06',
      times: [],
      capacity: '4',
    });
  });

  it("take today in Bengaluru, not the machine's date", () => {
    // 20:00 UTC on the 23rd is 01:30 on the 24th in Bengaluru.
    const form = defaultDropForm(new Date('2026-11-23T20:00:00.000Z'));
    expect(form.entryOpensAt).toBe('2026-11-24T01:30');
    expect(form.dateFrom).toBe('2026-12-01');
  });

  it('need only a title and a time to pass', () => {
    const form = defaultDropForm(NOW);
    expect(Object.keys(validateDropForm(form, { now: NOW }).errors).sort()).toEqual(['times', 'title']);
    const filled = { ...form, title: 'Chef’s counter', times: ['22:30'] };
    const { errors, body } = validateDropForm(filled, { now: NOW });
    expect(errors).toEqual({});
    expect(body).toEqual({
      title: 'Chef’s counter',
      description: null,
      dateFrom: '2026-11-30',
      dateTo: '2026-12-06',
      times: ['22:30'],
      capacity: 4,
      entryOpensAt: '2026-11-23T19:00:00+05:30',
      entryClosesAt: '2026-11-24T19:00:00+05:30',
      releaseAt: '2026-11-24T19:00:00+05:30',
    });
  });
});

describe('validation mirrors the contract and the server', () => {
  const errorsOf = (overrides: Partial<DropFormValues>, taken?: { date: string; times: string[] }) =>
    validateDropForm(valid(overrides), { now: NOW, taken }).errors;

  it("uses the contract's messages, with the form's labels", () => {
    expect(errorsOf({ title: '   ' })).toEqual({ title: 'Title is required' });
    expect(errorsOf({ title: 'x'.repeat(81) })).toEqual({ title: 'Title must be at most 80 characters' });
    expect(errorsOf({ description: 'x'.repeat(501) })).toEqual({ description: 'Description must be at most 500 characters' });
    expect(errorsOf({ times: [] })).toEqual({ times: 'Times: list one or more times, e.g. ["19:00", "21:00"]' });
    expect(errorsOf({ times: Array.from({ length: 13 }, (_, i) => `1${i % 10}:${i < 10 ? '00' : '30'}`) })).toEqual({ times: 'Times: at most 12 times' });
    expect(errorsOf({ capacity: '' })).toEqual({ capacity: 'Capacity must be a number of covers' });
    expect(errorsOf({ capacity: 'four' })).toEqual({ capacity: 'Capacity must be a number of covers' });
    expect(errorsOf({ capacity: '2.5' })).toEqual({ capacity: 'Capacity must be a whole number of covers' });
    expect(errorsOf({ capacity: '0' })).toEqual({ capacity: 'Capacity must be between 1 and 500 covers' });
    expect(errorsOf({ capacity: '501' })).toEqual({ capacity: 'Capacity must be between 1 and 500 covers' });
  });

  it('says to choose an empty date or date-time rather than describe the wire format', () => {
    expect(errorsOf({ dateFrom: '' })).toEqual({ dateFrom: 'First date: choose a date' });
    expect(errorsOf({ releaseAt: '' })).toEqual({ releaseAt: 'Release: choose a date and time' });
  });

  it("applies the server's rules across fields, in its words", () => {
    expect(errorsOf({ dateFrom: '2026-11-22', dateTo: '2026-11-22' })).toMatchObject({ dateFrom: 'First date must not be in the past' });
    expect(errorsOf({ dateTo: '2026-11-29' })).toEqual({ dateTo: 'Last date must be on or after first date' });
    expect(errorsOf({ dateTo: '2026-12-31' })).toEqual({ dateTo: 'Last date: a drop spans at most 31 days' });
    expect(errorsOf({ dateTo: '2026-12-30' })).toEqual({});
    expect(errorsOf({ times: ['22:30', '22:30'] })).toEqual({ times: 'Times: list each time only once' });
    expect(errorsOf({ entryClosesAt: '2026-11-23T19:00' })).toMatchObject({ entryClosesAt: 'Entries close must be after entries open' });
    expect(errorsOf({ releaseAt: '2026-11-24T18:59' })).toEqual({ releaseAt: 'Release must be at or after entries close' });
    expect(errorsOf({ entryOpensAt: '2026-11-22T19:00', entryClosesAt: '2026-11-23T18:59', releaseAt: '2026-11-24T19:00' })).toEqual({
      entryClosesAt: 'Entries close must be in the future',
    });
    expect(errorsOf({ dateFrom: '2026-11-24', dateTo: '2026-11-24', times: ['19:00'] })).toEqual({
      releaseAt: "Release must be before the drop's first slot (Tue, 24 Nov, 7:00 PM)",
    });
  });

  it("refuses a time the first date's slots already use", () => {
    const taken = { date: '2026-11-30', times: ['18:00', '22:30'] };
    expect(errorsOf({ times: ['21:00', '22:30'] }, taken)).toEqual({
      times: 'There is already a slot on Mon, 30 Nov at 10:30 PM: choose other dates or times, or take the times we already offer',
    });
    // Taking them is the server's to check (decision 226), and the body asks for it.
    expect(errorsOf({ times: ['21:00', '22:30'], takeExistingTimes: true }, taken)).toEqual({});
    expect(dropBodyOf(valid({ takeExistingTimes: true })).takeExistingTimes).toBe(true);
    expect('takeExistingTimes' in dropBodyOf(valid())).toBe(false);
    expect(errorsOf({ times: ['23:00'] }, taken)).toEqual({});
    // Slots of another date say nothing about this one.
    expect(errorsOf({ times: ['22:30'] }, { date: '2026-12-01', times: ['22:30'] })).toEqual({});
  });

  it('sends no body while anything is wrong', () => {
    expect(validateDropForm(valid({ capacity: '0' }), { now: NOW }).body).toBeNull();
    expect(validateDropForm(valid({ description: '  Eight seats  ' }), { now: NOW }).body?.description).toBe('Eight seats');
  });
});

describe('server sentences', () => {
  it('name the form fields, and say which field they are about', () => {
    const message = "releaseAt must be at least 30 minutes before the drop's first slot (Mon, 30 Nov, 10:30 PM)";
    expect(humaniseDropMessage(message)).toBe("Release must be at least 30 minutes before the drop's first slot (Mon, 30 Nov, 10:30 PM)");
    expect(fieldOfMessage(message)).toBe('releaseAt');
    expect(fieldOfMessage('There is already a slot on Mon, 30 Nov at 10:30 PM: choose other dates or times')).toBeNull();
    expect(humaniseDropMessage('There is already a slot on Mon, 30 Nov at 10:30 PM: choose other dates or times')).toBe(
      'There is already a slot on Mon, 30 Nov at 10:30 PM: choose other dates or times',
    );
  });
});

describe('taking existing times', () => {
  it("names the first date's times the drop takes out of normal booking", () => {
    const taken = { date: '2026-11-30', times: ['19:00', '21:00', '22:30'] };
    expect(describeTakenTimes(valid({ times: ['19:00', '22:30'], takeExistingTimes: true }), taken)).toBe(
      "Takes 7:00 PM and 10:30 PM on Mon, 30 Nov out of normal booking, and the same times on the drop's other dates. A time with a booking is refused.",
    );
    expect(describeTakenTimes(valid({ times: ['19:00'], dateTo: '2026-11-30', takeExistingTimes: true }), taken)).toBe(
      'Takes 7:00 PM on Mon, 30 Nov out of normal booking. A time with a booking is refused.',
    );
    expect(describeTakenTimes(valid({ times: ['19:00'] }), taken)).toBe('');
  });
});

describe('times and the slot count', () => {
  it('adds a time once, trimmed and in order, and ignores what is not a time', () => {
    expect(addDropTime(['22:30'], ' 19:00 ')).toEqual(['19:00', '22:30']);
    expect(addDropTime(['19:00'], '19:00')).toEqual(['19:00']);
    expect(addDropTime(['19:00'], '')).toEqual(['19:00']);
    expect(addDropTime(['19:00'], '25:00')).toEqual(['19:00']);
    expect(addDropTime([], '21:15:00')).toEqual(['21:15']);
  });

  it('says how many slots the form creates', () => {
    expect(describeDropSlots(valid({ times: ['19:00', '22:30'] }))).toBe('Creates 14 slots: 7 dates × 2 times, 4 covers each.');
    expect(describeDropSlots(valid({ dateTo: '2026-11-30', capacity: '1' }))).toBe('Creates 1 slot: 1 date × 1 time, 1 cover each.');
    expect(describeDropSlots(valid({ times: [] }))).toBe('7 dates: add at least one time.');
    expect(describeDropSlots(valid({ times: ['19:00', '22:30'], takeExistingTimes: true }))).toBe(
      'Puts 14 slots in the drop: 7 dates × 2 times, 4 covers each.',
    );
    expect(describeDropSlots(valid({ dateTo: '2026-11-01' }))).toBe('');
  });
});
