import { describe, expect, it } from 'vitest';
import {
  bookableTimes,
  chooseSeating,
  DEFAULT_FLOOR_SETTINGS,
  freeTableIds,
  isPacingAllowed,
  largestSeatableParty,
  seatingAt,
  tablesForCapacity,
  turnMinutes,
  weekdayOf,
  type Floor,
  type TableCombination,
} from './floor.ts';
import { table } from './floor.test-support.ts';

const tables = [table('T6', 4, 6), table('T2a', 1, 2), table('T4', 2, 4), table('T2b', 1, 2), table('Staff2', 1, 2, false)];
const combinations: TableCombination[] = [
  { id: 'C2+2', tableIds: ['T2a', 'T2b'], minCovers: 3, maxCovers: 4 },
  { id: 'C4+6', tableIds: ['T4', 'T6'], minCovers: 7, maxCovers: 10 },
];
const all = new Set(tables.map((entry) => entry.id));
const online = { onlineOnly: true };
const MIN = 60_000;

describe('turnMinutes', () => {
  it('reads the default bands: 1–2: 75, 3–4: 105, 5–6: 120, 7+: 150', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((size) => turnMinutes(size))).toEqual([75, 75, 105, 105, 120, 120, 150, 150]);
  });
  it('follows edited bands in any order', () => {
    expect(
      turnMinutes(4, [
        { fromPartySize: 4, minutes: 90 },
        { fromPartySize: 1, minutes: 60 },
      ]),
    ).toBe(90);
    expect(
      turnMinutes(3, [
        { fromPartySize: 4, minutes: 90 },
        { fromPartySize: 1, minutes: 60 },
      ]),
    ).toBe(60);
  });
});

describe('chooseSeating', () => {
  it('takes the smallest single table that seats the party', () => {
    expect(chooseSeating(tables, combinations, all, 2, online)).toEqual({ tableIds: ['T2a'], combinationId: null });
    expect(chooseSeating(tables, combinations, all, 3, online)).toEqual({ tableIds: ['T4'], combinationId: null });
    expect(chooseSeating(tables, combinations, all, 5, online)).toEqual({ tableIds: ['T6'], combinationId: null });
  });
  it('weighs a combination by its seats: a four takes two joined 2-tops before a free 6-top a bigger party needs', () => {
    expect(chooseSeating(tables, combinations, new Set(['T2a', 'T2b', 'T6']), 4, online)).toEqual({ tableIds: ['T2a', 'T2b'], combinationId: 'C2+2' });
    expect(chooseSeating(tables, combinations, new Set(['T2a', 'T6']), 4, online)).toEqual({ tableIds: ['T6'], combinationId: null });
  });
  it('respects a table’s minimum covers', () => {
    expect(chooseSeating([table('T6', 4, 6)], [], new Set(['T6']), 2, online)).toBeNull();
  });
  it('joins tables only when no single table fits, and only when all of them are free', () => {
    expect(chooseSeating(tables, combinations, new Set(['T2a', 'T2b', 'T6']), 3, online)).toEqual({ tableIds: ['T2a', 'T2b'], combinationId: 'C2+2' });
    expect(chooseSeating(tables, combinations, all, 8, online)).toEqual({ tableIds: ['T4', 'T6'], combinationId: 'C4+6' });
    expect(chooseSeating(tables, combinations, new Set(['T4']), 8, online)).toBeNull();
  });
  it('offers online only the tables bookable online; staff may use the rest', () => {
    expect(chooseSeating(tables, combinations, new Set(['Staff2']), 2, online)).toBeNull();
    expect(chooseSeating(tables, combinations, new Set(['Staff2']), 2, { onlineOnly: false })).toEqual({ tableIds: ['Staff2'], combinationId: null });
  });
  it('seats nobody larger than the largest table or combination', () => {
    expect(largestSeatableParty({ tables, combinations }, online)).toBe(10);
    expect(chooseSeating(tables, combinations, all, 20, online)).toBeNull();
  });
});

describe('free tables and pacing', () => {
  it('a table is taken for the whole of an overlapping turn, and free when the turn ends', () => {
    const taken = [{ tableIds: ['T4'], startMs: 0, endMs: 105 * MIN, partySize: 4 }];
    expect(freeTableIds(tables, taken, 100 * MIN, 200 * MIN).has('T4')).toBe(false);
    expect(freeTableIds(tables, taken, 105 * MIN, 200 * MIN).has('T4')).toBe(true);
    expect(freeTableIds(tables, taken, -75 * MIN, 1).has('T4')).toBe(false);
  });
  it('counts covers and parties starting in the same 15 minutes', () => {
    const starts = [
      { startMs: 0, partySize: 4 },
      { startMs: 14 * MIN, partySize: 2 },
    ];
    expect(isPacingAllowed({ maxCovers: 8, maxParties: null }, starts, 10 * MIN, 2)).toBe(true);
    expect(isPacingAllowed({ maxCovers: 8, maxParties: null }, starts, 10 * MIN, 3)).toBe(false);
    expect(isPacingAllowed({ maxCovers: null, maxParties: 2 }, starts, 5 * MIN, 1)).toBe(false);
    expect(isPacingAllowed({ maxCovers: null, maxParties: 2 }, starts, 15 * MIN, 1)).toBe(true);
  });
  it('seatingAt puts both together: a free table for the whole turn, and pacing', () => {
    const floor: Floor = { tables, combinations, settings: { ...DEFAULT_FLOOR_SETTINGS, pacing: { maxCovers: 6, maxParties: null } } };
    const taken = [{ tableIds: ['T2a'], startMs: 0, endMs: 75 * MIN, partySize: 2 }];
    expect(seatingAt(floor, taken, 30 * MIN, 2, online)).toEqual({ tableIds: ['T2b'], combinationId: null });
    expect(seatingAt(floor, taken, 0, 5, online)).toBeNull();
    expect(seatingAt(floor, taken, 15 * MIN, 5, online)).toEqual({ tableIds: ['T6'], combinationId: null });
  });
});

describe('bookable times', () => {
  it('every interval from each shift’s start, before its end', () => {
    const settings = {
      shifts: [
        [
          { name: 'lunch' as const, start: '12:00', end: '13:00' },
          { name: 'dinner' as const, start: '19:00', end: '20:00' },
        ],
      ],
      intervalMinutes: 30,
    };
    expect(bookableTimes(settings, 0)).toEqual(['12:00', '12:30', '19:00', '19:30']);
    expect(bookableTimes(settings, 3)).toEqual([]);
  });
  it('Monday is 0', () => {
    expect(weekdayOf('2026-11-23')).toBe(0);
    expect(weekdayOf('2026-11-29')).toBe(6);
  });
});

describe('tablesForCapacity (the migration rule)', () => {
  it.each([12, 14, 16, 20, 24, 28, 40])('seats exactly %i covers with 2-, 4- and 6-tops', (capacity) => {
    const made = tablesForCapacity(capacity);
    expect(made.reduce((sum, entry) => sum + entry.maxCovers, 0)).toBe(capacity);
    expect(made.every((entry) => [2, 4, 6].includes(entry.maxCovers))).toBe(true);
  });
});
