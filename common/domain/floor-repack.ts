import {
  chooseSeating,
  freeTableIds,
  hasSeating,
  IDLE_CAP_MINUTES,
  idleMinutesAround,
  isPacingAllowed,
  seatingAt,
  seatingCandidates,
  turnMinutes,
} from './floor.ts';
import type { Floor, FloorTable, Occupancy, Seating, SeatingCandidate, SeatingOptions } from './floor.ts';

/**
 * Re-packing the night (decision 217): when no table or combination is free for a new party's
 * whole turn, bookings not yet seated may move to other free tables that seat them, so the new
 * party fits. A booking at another table keeps its time and party; the diner sees nothing.
 */

/** At most this many bookings move for one new party: a small search, run inside the floor's lock. */
export const REPACK_MAX_MOVES = 2;

/** A booking a re-pack moves: its id (Occupancy.movableId) and the tables it takes instead, for the same turn. */
export interface SeatingMove {
  id: string;
  tableIds: string[];
  combinationId: string | null;
}

/** Where a party sits, and the bookings that move so it can. */
export interface Placement extends Seating {
  moves: SeatingMove[];
}

const overlaps = (occupancy: Occupancy, startMs: number, endMs: number) => occupancy.startMs < endMs && startMs < occupancy.endMs;

/** The best seating for an occupancy being moved: tables bookable online only (a moved booking never lands on a table staff keep back), no pacing asked (its start does not change). */
function reseat(floor: Floor, state: readonly Occupancy[], moving: Occupancy): Seating | null {
  const free = freeTableIds(floor.tables, state, moving.startMs, moving.endMs);
  return chooseSeating(floor.tables, floor.combinations, free, moving.partySize, {
    onlineOnly: true,
    idleMinutes: (tableIds) => idleMinutesAround(state, tableIds, moving.startMs, moving.endMs),
  });
}

/** Whether reseat would find a seating: some free online table or combination seats the moving booking for its turn. */
function canReseat(floor: Floor, state: readonly Occupancy[], moving: Occupancy): boolean {
  const free = freeTableIds(floor.tables, state, moving.startMs, moving.endMs);
  return hasSeating(floor, (table) => free.has(table.id) && table.onlineBookable, moving.partySize);
}

/**
 * Moves `blockers` off `reserved` (the new party's tables over its turn), largest party first, each
 * to the best free seating left; null when one finds none. A blocker may push aside one more movable
 * booking while the moves stay within REPACK_MAX_MOVES. With `onlyWhether` (canPlaceParty), the
 * last booking to move is only checked to fit somewhere: where it would sit is read by nothing after
 * it, so its move is left out of the list and only whether the list is null counts.
 */
function moveAside(floor: Floor, others: Occupancy[], blockers: Occupancy[], budget: number, onlyWhether = false): SeatingMove[] | null {
  const state = [...others];
  const moves: SeatingMove[] = [];
  const ordered = [...blockers].sort((a, b) => b.partySize - a.partySize || a.startMs - b.startMs);
  for (const [index, blocker] of ordered.entries()) {
    // Every blocker moves at least once: after a push-aside's two moves, a second blocker has no room.
    if (moves.length + 1 > budget) return null;
    const isLastWhether = onlyWhether && index === ordered.length - 1;
    if (isLastWhether && canReseat(floor, state, blocker)) return moves;
    const direct = isLastWhether ? null : reseat(floor, state, blocker);
    if (direct) {
      state.push({ ...blocker, tableIds: direct.tableIds });
      moves.push({ id: blocker.movableId!, ...direct });
      continue;
    }
    // One level deeper: a table that seats the blocker, held by exactly one movable booking that fits elsewhere.
    if (moves.length + 2 > budget) return null;
    const deeper = pushAside(floor, state, blocker, isLastWhether);
    if (!deeper) return null;
    state.splice(0, state.length, ...deeper.state);
    moves.push(...deeper.moves);
  }
  return moves;
}

/** With `onlyWhether`, the booking pushed aside is only checked to fit somewhere (see moveAside): its move and new place are left out. */
function pushAside(floor: Floor, state: Occupancy[], blocker: Occupancy, onlyWhether = false): { state: Occupancy[]; moves: SeatingMove[] } | null {
  for (const option of seatingsFor(floor, blocker.partySize, true)) {
    const inTheWay = state.filter(
      (occupancy) => overlaps(occupancy, blocker.startMs, blocker.endMs) && occupancy.tableIds.some((id) => option.tableIds.includes(id)),
    );
    if (inTheWay.length !== 1 || !inTheWay[0].movableId) continue;
    const rest = state.filter((occupancy) => occupancy !== inTheWay[0]);
    rest.push({ ...blocker, tableIds: option.tableIds });
    if (onlyWhether) {
      if (!canReseat(floor, rest, inTheWay[0])) continue;
      return { state: rest, moves: [{ id: blocker.movableId!, tableIds: option.tableIds, combinationId: option.combinationId }] };
    }
    const second = reseat(floor, rest, inTheWay[0]);
    if (!second) continue;
    rest.push({ ...inTheWay[0], tableIds: second.tableIds });
    return {
      state: rest,
      moves: [
        { id: blocker.movableId!, tableIds: option.tableIds, combinationId: option.combinationId },
        { id: inTheWay[0].movableId!, ...second },
      ],
    };
  }
  return null;
}

/** Every single table and allowed combination that seats `partySize` (online only when asked), fewest seats first, a single table before a combination. */
function seatingsFor(floor: Floor, partySize: number, onlineOnly: boolean): SeatingCandidate[] {
  const usable = (table: FloorTable) => !onlineOnly || table.onlineBookable;
  return seatingCandidates(floor.tables, floor.combinations, partySize, usable).sort(
    (a, b) =>
      a.maxCovers - b.maxCovers || Number(a.combinationId !== null) - Number(b.combinationId !== null) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

/**
 * Where a party of `partySize` sits at `startMs` (decision 217): the free seating seatingAt picks
 * when there is one; otherwise, when pacing allows it, a table or combination whose only
 * occupants over the turn are movable bookings (Occupancy.movableId: reserved, not seated, not
 * placed by staff) that fit other free tables, with the fewest moves (at most REPACK_MAX_MOVES),
 * then the fewest seats. Null when nothing seats the party even so. Holds and availability both
 * ask this, so a time is offered exactly when a hold would seat it.
 */
export function placeParty(floor: Floor, occupancies: readonly Occupancy[], startMs: number, partySize: number, options: SeatingOptions): Placement | null {
  const direct = seatingAt(floor, occupancies, startMs, partySize, options);
  if (direct) return { ...direct, moves: [] };
  if (!isPacingAllowed(floor.settings.pacing, occupancies, startMs, partySize)) return null;
  const endMs = startMs + turnMinutes(partySize, floor.settings.turns) * 60_000;
  const overlapping = occupancies.filter((occupancy) => overlaps(occupancy, startMs, endMs));
  let best: Placement | null = null;
  for (const option of seatingsFor(floor, partySize, options.onlineOnly)) {
    const moves = repackFor(floor, occupancies, overlapping, option, startMs, endMs, partySize);
    if (moves && (!best || moves.length < best.moves.length)) best = { tableIds: option.tableIds, combinationId: option.combinationId, moves };
    if (best?.moves.length === 1) break;
  }
  return best;
}

/**
 * Whether placeParty seats the party (its answer is not null), without choosing where: any table
 * or combination free for the turn within pacing, else the first re-pack that works. For
 * availability, which asks only yes or no for every time and size of a date: the ranking of the
 * free seatings and the search for the fewest moves change where a party sits, never whether it
 * does (decision 241).
 */
export function canPlaceParty(floor: Floor, occupancies: readonly Occupancy[], startMs: number, partySize: number, options: SeatingOptions): boolean {
  if (!isPacingAllowed(floor.settings.pacing, occupancies, startMs, partySize)) return false;
  const endMs = startMs + turnMinutes(partySize, floor.settings.turns) * 60_000;
  const overlapping = occupancies.filter((occupancy) => overlaps(occupancy, startMs, endMs));
  const taken = new Set<string>();
  for (const occupancy of overlapping) for (const id of occupancy.tableIds) taken.add(id);
  if (hasSeating(floor, (table) => !taken.has(table.id) && (!options.onlineOnly || table.onlineBookable), partySize)) return true;
  // Only bookings not yet seated move: with none over the turn, no re-pack can make room.
  if (!overlapping.some((occupancy) => occupancy.movableId)) return false;
  const reach = repackReach(occupancies, startMs, endMs);
  for (const option of seatingsFor(floor, partySize, options.onlineOnly)) {
    if (repackFor(floor, reach, overlapping, option, startMs, endMs, partySize, true)) return true;
  }
  return false;
}

/**
 * The occupancies a re-pack for the turn [startMs, endMs) can see, in their order: a blocker overlaps
 * the turn, a booking it pushes aside overlaps the blocker (each at most the longest occupancy
 * long), and a moved booking's choice of table looks IDLE_CAP_MINUTES around its own turn. The
 * others change no free table, no idle time and no pacing window the search reads, so leaving them
 * out changes no answer; a date's occupancies span three days, the reach about one.
 */
function repackReach(occupancies: readonly Occupancy[], startMs: number, endMs: number): Occupancy[] {
  let longest = 0;
  for (const occupancy of occupancies) longest = Math.max(longest, occupancy.endMs - occupancy.startMs);
  const margin = 2 * longest + IDLE_CAP_MINUTES * 60_000;
  return occupancies.filter((occupancy) => occupancy.endMs >= startMs - margin && occupancy.startMs <= endMs + margin);
}

/**
 * The moves that free `option` for the new party's turn [startMs, endMs), or null: its occupants
 * over the turn (from `overlapping`, the occupancies that overlap it, in their order) must be one
 * or two movable bookings that fit elsewhere.
 */
function repackFor(
  floor: Floor,
  occupancies: readonly Occupancy[],
  overlapping: readonly Occupancy[],
  option: SeatingCandidate,
  startMs: number,
  endMs: number,
  partySize: number,
  onlyWhether = false,
): SeatingMove[] | null {
  const blockers = overlapping.filter((occupancy) => occupancy.tableIds.some((id) => option.tableIds.includes(id)));
  if (blockers.length === 0 || blockers.length > REPACK_MAX_MOVES || blockers.some((blocker) => !blocker.movableId)) return null;
  const others = occupancies.filter((occupancy) => !blockers.includes(occupancy));
  others.push({ tableIds: option.tableIds, startMs, endMs, partySize });
  return dedupe(moveAside(floor, others, blockers, REPACK_MAX_MOVES, onlyWhether));
}

/** A booking moved twice in one search keeps its last tables, and counts once. */
function dedupe(moves: SeatingMove[] | null): SeatingMove[] | null {
  return moves && [...new Map(moves.map((move) => [move.id, move])).values()];
}

/** The occupancies after `placement`'s moves (the new party not included): for callers that keep a night in memory. */
export function applyMoves<T extends Occupancy>(occupancies: readonly T[], moves: readonly SeatingMove[]): T[] {
  const moved = new Map(moves.map((move) => [move.id, move]));
  return occupancies.map((occupancy) => {
    const move = occupancy.movableId === undefined ? undefined : moved.get(occupancy.movableId);
    return move ? { ...occupancy, tableIds: move.tableIds } : occupancy;
  });
}
