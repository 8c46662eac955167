import { describe, expect, it } from 'vitest';
import type { FloorParty } from '#common/contract/floor-live.ts';
import { partyActions, tableStateText, timelineBox } from './floor-live-view.ts';

const party = (extra: Partial<FloorParty>): FloorParty => ({
  assignmentId: 'a',
  kind: 'booking',
  reservationId: 'r',
  status: 'CONFIRMED',
  name: 'Asha',
  partySize: 2,
  tableIds: ['t1'],
  tableNames: ['T1'],
  startsAt: '2026-11-27T12:30:00.000Z',
  endsAt: '2026-11-27T13:45:00.000Z',
  seatedAt: null,
  finishedAt: null,
  ...extra,
});

describe('the host view', () => {
  it('words each table state', () => {
    expect(tableStateText({ state: 'free', minutes: null, turnMinutes: null })).toBe('Free for the rest of today');
    expect(tableStateText({ state: 'reserved', minutes: 20, turnMinutes: null })).toBe('Reserved · arrives in 20 min');
    expect(tableStateText({ state: 'seated', minutes: 25, turnMinutes: 105 })).toBe('Seated 25 of 105 min');
    expect(tableStateText({ state: 'toClear', minutes: 5, turnMinutes: 75 })).toBe('To clear · turn over 5 min ago');
  });

  it('offers Seat and, 15 minutes after the time, No-show to an accepted booking; Move and Finish to a seated party', () => {
    const before = new Date('2026-11-27T12:40:00.000Z');
    expect(partyActions(party({}), before)).toMatchObject({ seat: true, noShow: false, noShowFrom: '6:15 PM', finish: false, accept: false });
    expect(partyActions(party({}), new Date('2026-11-27T12:45:00.000Z'))).toMatchObject({ noShow: true, noShowFrom: null });
    expect(partyActions(party({ status: 'PENDING' }), before)).toMatchObject({ accept: true, seat: false });
    expect(partyActions(party({ status: 'SEATED', seatedAt: '2026-11-27T12:35:00.000Z' }), before)).toMatchObject({ seat: false, move: true, finish: true });
    expect(partyActions(party({ kind: 'walkIn', status: null, reservationId: null, finishedAt: '2026-11-27T12:39:00.000Z' }), before)).toMatchObject({
      move: false,
      finish: false,
    });
  });

  it('places a party on the day’s axis', () => {
    expect(timelineBox(party({}), '2026-11-27T12:30:00.000Z', '2026-11-27T17:30:00.000Z')).toEqual({ left: 0, width: 25 });
  });
});
