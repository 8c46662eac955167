import { describe, expect, it } from 'vitest';
import { DEFAULT_FLOOR_SETTINGS, type Floor, type FloorTable, type Occupancy } from './floor.ts';
import { table } from './floor.test-support.ts';
import { applyMoves, canPlaceParty, placeParty, REPACK_MAX_MOVES } from './floor-repack.ts';

const MIN = 60_000;
const AT = 18 * 60 * MIN;
const floorOf = (tables: FloorTable[], pacing = { maxCovers: null as number | null, maxParties: null as number | null }): Floor => ({
  tables,
  combinations: [],
  settings: { ...DEFAULT_FLOOR_SETTINGS, pacing },
});
const party = (tableIds: string[], partySize: number, movableId?: string, startMs = AT): Occupancy => ({
  tableIds,
  startMs,
  endMs: startMs + (partySize <= 2 ? 75 : 105) * MIN,
  partySize,
  ...(movableId ? { movableId } : {}),
});
const online = { onlineOnly: true };

describe('placeParty (decision 217)', () => {
  const floor = floorOf([table('A', 1, 2), table('B', 2, 4)]);

  it('takes a free table as seatingAt does, moving nobody', () => {
    expect(placeParty(floor, [], AT, 4, online)).toEqual({ tableIds: ['B'], combinationId: null, moves: [] });
  });

  it('moves a couple not yet seated off the 4-top to the free 2-top, so a party of four sits', () => {
    const night = [party(['B'], 2, 'couple')];
    const placement = placeParty(floor, night, AT, 4, online);
    expect(placement).toEqual({ tableIds: ['B'], combinationId: null, moves: [{ id: 'couple', tableIds: ['A'], combinationId: null }] });
    expect(applyMoves(night, placement!.moves).map((occupancy) => occupancy.tableIds)).toEqual([['A']]);
  });

  it('never moves a booking that is seated or placed by staff (no movableId)', () => {
    expect(placeParty(floor, [party(['B'], 2)], AT, 4, online)).toBeNull();
  });

  it('never moves a booking onto a table staff keep back, and asks pacing first', () => {
    expect(placeParty(floorOf([table('A', 1, 2, false), table('B', 2, 4)]), [party(['B'], 2, 'couple')], AT, 4, online)).toBeNull();
    expect(
      placeParty(floorOf([table('A', 1, 2), table('B', 2, 4)], { maxCovers: 5, maxParties: null }), [party(['B'], 2, 'couple')], AT, 4, online),
    ).toBeNull();
  });

  it('moves a booking only to tables free for its whole turn', () => {
    // The 2-top is taken until 19:15 by a seated couple: the couple on the 4-top at 18:00 cannot go there.
    expect(placeParty(floor, [party(['B'], 2, 'couple'), party(['A'], 2, undefined, AT - 30 * MIN)], AT, 4, online)).toBeNull();
  });

  it('pushes one more booking aside when the first has nowhere else to go (two moves at most)', () => {
    const wider = floorOf([table('A', 1, 2), table('D', 1, 3), table('B', 2, 4)]);
    const night = [party(['B'], 3, 'trio'), party(['D'], 2, 'couple')];
    const placement = placeParty(wider, night, AT, 4, online);
    expect(placement?.tableIds).toEqual(['B']);
    expect(placement?.moves).toEqual([
      { id: 'trio', tableIds: ['D'], combinationId: null },
      { id: 'couple', tableIds: ['A'], combinationId: null },
    ]);
    // With the couple pinned, nothing seats the four.
    expect(placeParty(wider, [night[0], { ...night[1], movableId: undefined }], AT, 4, online)).toBeNull();
  });

  it('never moves more than two bookings, even when each blocker alone would fit: a push-aside leaves no room for a second blocker', () => {
    // Four sit only at X and Y together. The trio on X can move only by pushing the couple on Z to a
    // 2-top (two moves); the pair on Y could go straight to the other 2-top: three moves, too many.
    const floor: Floor = {
      ...floorOf([table('X', 1, 3), table('Y', 1, 2), table('Z', 1, 3), table('V', 1, 2), table('W', 1, 2)]),
      combinations: [{ id: 'XY', tableIds: ['X', 'Y'], minCovers: 4, maxCovers: 5 }],
    };
    const night = [party(['X'], 3, 'trio'), party(['Y'], 2, 'pair'), party(['Z'], 2, 'couple')];
    expect(REPACK_MAX_MOVES).toBe(2);
    expect(placeParty(floor, night, AT, 4, online)).toBeNull();
    expect(canPlaceParty(floor, night, AT, 4, online)).toBe(false);
    // With the pair gone, the push-aside alone (two moves) seats the four.
    expect(placeParty(floor, [night[0], night[2]], AT, 4, online)?.moves.map((move) => move.id)).toEqual(['trio', 'couple']);
  });
});
