import { describe, expect, it } from 'vitest';
import { tableStateAt, type LiveParty } from './floor-live.ts';

const T0 = Date.UTC(2026, 10, 27, 13, 30);
const min = (minutes: number) => T0 + minutes * 60_000;
const booking = (start: number, turn = 75, extra: Partial<LiveParty> = {}): LiveParty => ({
  startsAtMs: min(start),
  endsAtMs: min(start + turn),
  seatedAtMs: null,
  finishedAtMs: null,
  isExpected: true,
  ...extra,
});

describe('tableStateAt', () => {
  it('is free with no party, and free with the next arrival named when it is more than an hour away', () => {
    expect(tableStateAt([], T0)).toEqual({ state: 'free', minutes: null, turnMinutes: null, partyIndex: null });
    expect(tableStateAt([booking(90)], T0)).toMatchObject({ state: 'free', minutes: 90, partyIndex: 0 });
  });

  it('is reserved with the minutes to the soonest arrival within the hour', () => {
    expect(tableStateAt([booking(50), booking(20)], T0)).toMatchObject({ state: 'reserved', minutes: 20, partyIndex: 1 });
  });

  it('is running late once a booking’s time has passed and it has not been seated', () => {
    expect(tableStateAt([booking(-12)], T0)).toMatchObject({ state: 'late', minutes: 12 });
  });

  it('is seated for N minutes against its turn, then to clear once the turn is over', () => {
    const seated = booking(-30, 105, { seatedAtMs: min(-25) });
    expect(tableStateAt([seated, booking(120)], T0)).toEqual({ state: 'seated', minutes: 25, turnMinutes: 105, partyIndex: 0 });
    expect(tableStateAt([seated], min(80))).toMatchObject({ state: 'toClear', minutes: 5, turnMinutes: 105 });
  });

  it('forgets a finished party and one no longer expected', () => {
    const done = booking(-60, 75, { seatedAtMs: min(-60), finishedAtMs: min(-5) });
    expect(tableStateAt([done, booking(-20, 75, { isExpected: false })], T0).state).toBe('free');
  });
});
