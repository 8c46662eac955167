import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  freeTableIds,
  isPacingAllowed,
  pacingWindowOf,
  seatingAt,
  turnMinutes,
  type Floor,
  type FloorTable,
  type Occupancy,
  type TableCombination,
} from './floor.ts';
import { DEFAULT_FLOOR_SETTINGS } from './floor.ts';
import { applyMoves, canPlaceParty, placeParty, REPACK_MAX_MOVES, type Placement } from './floor-repack.ts';

/**
 * The floor's rules under random nights (decision 240): random floors; random online bookings,
 * walk-ins (staff may use every table), moves, cancels and early finishes of random party sizes.
 * Whatever happens, no table holds two parties at overlapping times, no 15 minutes start more
 * covers or parties than pacing allows, a time is offered exactly when some table or allowed
 * combination seats the party for its whole turn, and what is offered can be seated. With re-packing
 * (decision 217), bookings moved to make room never overlap, never include a seated or staff-placed
 * booking, and still fit their tables.
 */

const MIN = 60_000;
const EVENING_MS = 18 * 60 * MIN;

const floorArbitrary = fc
  .record({
    tables: fc.array(
      fc.record({
        min: fc.integer({ min: 1, max: 4 }),
        extra: fc.integer({ min: 0, max: 6 }),
        online: fc.boolean(),
        section: fc.constantFrom('indoor', 'terrace', 'bar', 'private'),
      }),
      {
        minLength: 1,
        maxLength: 8,
      },
    ),
    combinations: fc.array(
      fc.record({
        picks: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 2, maxLength: 3 }),
        min: fc.integer({ min: 2, max: 8 }),
        extra: fc.integer({ min: 0, max: 6 }),
      }),
      {
        maxLength: 4,
      },
    ),
    pacingCovers: fc.option(fc.integer({ min: 2, max: 16 }), { nil: null }),
    pacingParties: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  })
  .map(({ tables, combinations, pacingCovers, pacingParties }): Floor => {
    const built: FloorTable[] = tables.map((table, index) => ({
      id: `t${index}`,
      name: `T${index}`,
      section: table.section as FloorTable['section'],
      minCovers: table.min,
      maxCovers: table.min + table.extra,
      onlineBookable: table.online,
    }));
    const combos: TableCombination[] = combinations
      .map((combination, index) => ({
        id: `c${index}`,
        tableIds: combination.picks.filter((pick) => pick < built.length).map((pick) => `t${pick}`),
        minCovers: combination.min,
        maxCovers: combination.min + combination.extra,
      }))
      .filter((combination) => combination.tableIds.length >= 2);
    return { tables: built, combinations: combos, settings: { ...DEFAULT_FLOOR_SETTINGS, pacing: { maxCovers: pacingCovers, maxParties: pacingParties } } };
  });

type Operation =
  | { kind: 'book'; partySize: number; slot: number; online: boolean }
  | { kind: 'cancel'; pick: number }
  | { kind: 'finish'; pick: number; after: number }
  | { kind: 'move'; pick: number; to: number };

const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('book' as const),
      partySize: fc.integer({ min: 1, max: 14 }),
      slot: fc.integer({ min: 0, max: 16 }),
      online: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('finish' as const), pick: fc.nat(), after: fc.integer({ min: 1, max: 150 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), to: fc.nat() }) },
);

/** Brute force: does any single table or allowed combination, all free and usable, seat the party? */
function anySeatingExists(floor: Floor, occupancies: Occupancy[], startMs: number, partySize: number, online: boolean): boolean {
  if (!isPacingAllowed(floor.settings.pacing, occupancies, startMs, partySize)) return false;
  const free = freeTableIds(floor.tables, occupancies, startMs, startMs + turnMinutes(partySize, floor.settings.turns) * MIN);
  const usable = (id: string) => free.has(id) && (!online || floor.tables.find((table) => table.id === id)!.onlineBookable);
  return (
    floor.tables.some((table) => usable(table.id) && partySize >= table.minCovers && partySize <= table.maxCovers) ||
    floor.combinations.some((combination) => partySize >= combination.minCovers && partySize <= combination.maxCovers && combination.tableIds.every(usable))
  );
}

function assertNoOverlaps(occupancies: Occupancy[]): void {
  for (let a = 0; a < occupancies.length; a++) {
    for (let b = a + 1; b < occupancies.length; b++) {
      const first = occupancies[a];
      const second = occupancies[b];
      const shareTable = first.tableIds.some((id) => second.tableIds.includes(id));
      const overlap = first.startMs < second.endMs && second.startMs < first.endMs;
      expect(shareTable && overlap, `${JSON.stringify(first)} and ${JSON.stringify(second)}`).toBe(false);
    }
  }
}

function assertPacing(floor: Floor, starts: Occupancy[]): void {
  const byWindow = new Map<number, { covers: number; parties: number }>();
  for (const start of starts) {
    const window = byWindow.get(pacingWindowOf(start.startMs)) ?? { covers: 0, parties: 0 };
    window.covers += start.partySize;
    window.parties += 1;
    byWindow.set(pacingWindowOf(start.startMs), window);
  }
  for (const window of byWindow.values()) {
    if (floor.settings.pacing.maxCovers !== null) expect(window.covers).toBeLessThanOrEqual(floor.settings.pacing.maxCovers);
    if (floor.settings.pacing.maxParties !== null) expect(window.parties).toBeLessThanOrEqual(floor.settings.pacing.maxParties);
  }
}

describe('the floor under random nights', () => {
  it('never seats two parties at one table at once, never breaks pacing, offers exactly what can be seated', () => {
    fc.assert(
      fc.property(floorArbitrary, fc.array(operationArbitrary, { minLength: 1, maxLength: 60 }), (floor, operations) => {
        const live: Occupancy[] = [];
        /** Every party that started (cancels leave pacing; an early finish does not undo a start). */
        for (const operation of operations) {
          if (operation.kind === 'book') {
            const startMs = EVENING_MS + operation.slot * 15 * MIN;
            const offered = seatingAt(floor, live, startMs, operation.partySize, { onlineOnly: operation.online });
            expect(offered !== null).toBe(anySeatingExists(floor, live, startMs, operation.partySize, operation.online));
            if (!offered) continue;
            const endMs = startMs + turnMinutes(operation.partySize, floor.settings.turns) * MIN;
            // What is offered seats the party: one table whose range holds it, or an allowed combination.
            if (offered.combinationId === null) {
              const table = floor.tables.find((entry) => entry.id === offered.tableIds[0])!;
              expect(operation.partySize).toBeGreaterThanOrEqual(table.minCovers);
              expect(operation.partySize).toBeLessThanOrEqual(table.maxCovers);
            } else {
              const combination = floor.combinations.find((entry) => entry.id === offered.combinationId)!;
              expect(operation.partySize).toBeLessThanOrEqual(combination.maxCovers);
              expect(offered.tableIds).toEqual(combination.tableIds);
            }
            if (operation.online) expect(offered.tableIds.every((id) => floor.tables.find((table) => table.id === id)!.onlineBookable)).toBe(true);
            live.push({ tableIds: offered.tableIds, startMs, endMs, partySize: operation.partySize });
          } else if (live.length > 0) {
            const index = operation.pick % live.length;
            const party = live[index];
            if (operation.kind === 'cancel') live.splice(index, 1);
            else if (operation.kind === 'finish') party.endMs = Math.max(party.startMs + MIN, Math.min(party.endMs, party.startMs + operation.after * MIN));
            else {
              // A move: staff seat the party at another table only when it is free for the rest of its turn.
              const others = live.filter((_, other) => other !== index);
              const free = freeTableIds(floor.tables, others, party.startMs, party.endMs);
              const target = floor.tables[operation.to % floor.tables.length];
              if (free.has(target.id) && party.partySize <= target.maxCovers) live[index] = { ...party, tableIds: [target.id] };
            }
          }
          assertNoOverlaps(live);
          assertPacing(floor, live);
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** The seatings (one table or an allowed combination, online only when asked) that seat a party of `partySize`, ignoring what is taken. */
function seatingsThatFit(floor: Floor, partySize: number, online: boolean): string[][] {
  const usable = (id: string) => !online || floor.tables.find((table) => table.id === id)!.onlineBookable;
  return [
    ...floor.tables.filter((table) => usable(table.id) && partySize >= table.minCovers && partySize <= table.maxCovers).map((table) => [table.id]),
    ...floor.combinations
      .filter((combination) => partySize >= combination.minCovers && partySize <= combination.maxCovers && combination.tableIds.every(usable))
      .map((combination) => combination.tableIds),
  ];
}

/** Whether `tableIds` seat a party of `partySize` online: one table in its range, or exactly an allowed combination's tables. */
function fitsOnline(floor: Floor, tableIds: readonly string[], partySize: number, combinationId: string | null): boolean {
  if (!tableIds.every((id) => floor.tables.find((table) => table.id === id)?.onlineBookable)) return false;
  if (combinationId === null) {
    const table = floor.tables.find((entry) => entry.id === tableIds[0])!;
    return tableIds.length === 1 && partySize >= table.minCovers && partySize <= table.maxCovers;
  }
  const combination = floor.combinations.find((entry) => entry.id === combinationId)!;
  return partySize >= combination.minCovers && partySize <= combination.maxCovers && [...tableIds].sort().join() === [...combination.tableIds].sort().join();
}

/** Brute force, one move: some seating of the party whose only occupant over its turn is one movable booking that another free online seating takes. */
function oneMoveExists(floor: Floor, occupancies: Occupancy[], startMs: number, partySize: number, online: boolean): boolean {
  if (!isPacingAllowed(floor.settings.pacing, occupancies, startMs, partySize)) return false;
  const endMs = startMs + turnMinutes(partySize, floor.settings.turns) * MIN;
  return seatingsThatFit(floor, partySize, online).some((tableIds) => {
    const inTheWay = occupancies.filter(
      (occupancy) => occupancy.startMs < endMs && startMs < occupancy.endMs && occupancy.tableIds.some((id) => tableIds.includes(id)),
    );
    if (inTheWay.length !== 1 || !inTheWay[0].movableId) return false;
    const moving = inTheWay[0];
    const rest = [...occupancies.filter((occupancy) => occupancy !== moving), { tableIds, startMs, endMs, partySize }];
    const free = freeTableIds(floor.tables, rest, moving.startMs, moving.endMs);
    return seatingsThatFit(floor, moving.partySize, true).some((other) => other.every((id) => free.has(id)));
  });
}

type RepackOperation = Operation | { kind: 'seat'; pick: number };

describe('the floor re-packed under random nights (decision 217)', () => {
  it('moves only bookings not yet seated nor placed by staff, to tables that seat them, never overlapping, and seats whatever one move can make room for', () => {
    const repackOperation: fc.Arbitrary<RepackOperation> = fc.oneof(
      { weight: 8, arbitrary: operationArbitrary },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('seat' as const), pick: fc.nat() }) },
    );
    let repacked = 0;
    fc.assert(
      // Longer nights than fast-check's small default, so tables fill up and re-packing has work to do.
      fc.property(floorArbitrary, fc.array(repackOperation, { minLength: 1, maxLength: 60, size: 'large' }), (floor, operations) => {
        let live: Occupancy[] = [];
        let nextId = 0;
        for (const operation of operations) {
          if (operation.kind === 'book') {
            const startMs = EVENING_MS + operation.slot * 15 * MIN;
            const endMs = startMs + turnMinutes(operation.partySize, floor.settings.turns) * MIN;
            const placement: Placement | null = placeParty(floor, live, startMs, operation.partySize, { onlineOnly: operation.online });
            // Availability's yes or no (decision 241) is placeParty's.
            expect(canPlaceParty(floor, live, startMs, operation.partySize, { onlineOnly: operation.online })).toBe(placement !== null);
            // A free table is still taken as before, with nobody moved; a re-pack only where none is free.
            const direct = seatingAt(floor, live, startMs, operation.partySize, { onlineOnly: operation.online });
            if (direct) expect(placement).toEqual({ ...direct, moves: [] });
            if (oneMoveExists(floor, live, startMs, operation.partySize, operation.online)) expect(placement).not.toBeNull();
            if (!placement) continue;
            expect(placement.moves.length).toBeLessThanOrEqual(REPACK_MAX_MOVES);
            const movable = new Map(live.filter((occupancy) => occupancy.movableId).map((occupancy) => [occupancy.movableId!, occupancy]));
            for (const move of placement.moves) {
              // Only a booking not yet seated nor placed by staff moves, to tables bookable online that seat it.
              expect(movable.has(move.id), `${move.id} is seated or pinned`).toBe(true);
              expect(fitsOnline(floor, move.tableIds, movable.get(move.id)!.partySize, move.combinationId)).toBe(true);
            }
            if (placement.moves.length > 0) repacked += 1;
            const after = applyMoves(live, placement.moves);
            // Nothing else changes: every turn keeps its time, every other booking its tables.
            after.forEach((occupancy, index) => {
              expect([occupancy.startMs, occupancy.endMs, occupancy.partySize]).toEqual([live[index].startMs, live[index].endMs, live[index].partySize]);
              if (!placement.moves.some((move) => move.id === occupancy.movableId)) expect(occupancy.tableIds).toEqual(live[index].tableIds);
            });
            // The new party's own seating fits it.
            if (placement.combinationId === null) {
              const table = floor.tables.find((entry) => entry.id === placement.tableIds[0])!;
              expect(operation.partySize).toBeGreaterThanOrEqual(table.minCovers);
              expect(operation.partySize).toBeLessThanOrEqual(table.maxCovers);
            } else {
              expect(placement.tableIds).toEqual(floor.combinations.find((entry) => entry.id === placement.combinationId)!.tableIds);
            }
            if (operation.online) expect(placement.tableIds.every((id) => floor.tables.find((table) => table.id === id)!.onlineBookable)).toBe(true);
            live = [...after, { tableIds: placement.tableIds, startMs, endMs, partySize: operation.partySize, movableId: `b${nextId++}` }];
          } else if (live.length > 0) {
            const index = operation.pick % live.length;
            const party = live[index];
            if (operation.kind === 'cancel') live.splice(index, 1);
            // The host seats the party: from now on nothing moves it.
            else if (operation.kind === 'seat') live[index] = { ...party, movableId: undefined };
            else if (operation.kind === 'finish')
              live[index] = {
                ...party,
                movableId: undefined,
                endMs: Math.max(party.startMs + MIN, Math.min(party.endMs, party.startMs + operation.after * MIN)),
              };
            else {
              // Staff move the party to a free table: placed by hand, it is pinned there.
              const others = live.filter((_, other) => other !== index);
              const free = freeTableIds(floor.tables, others, party.startMs, party.endMs);
              const target = floor.tables[operation.to % floor.tables.length];
              if (free.has(target.id) && party.partySize <= target.maxCovers) live[index] = { ...party, tableIds: [target.id], movableId: undefined };
            }
          }
          assertNoOverlaps(live);
          assertPacing(floor, live);
        }
      }),
      { numRuns: 300 },
    );
    // The nights drawn do make the re-pack work.
    expect(repacked).toBeGreaterThan(0);
  });
});
