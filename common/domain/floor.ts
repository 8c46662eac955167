/**
 * The restaurant's floor as data (decision 240): tables in sections, the combinations staff allow,
 * service shifts per weekday, the booking interval, turn times by party size and pacing. Pure
 * rules that the server (availability, holds), the portal and the benchmarks share.
 */
import { clockTimeOf, minutesOfDay } from './time.ts';

/** Where a table stands. */
export const floorSections = ['indoor', 'terrace', 'bar', 'private'] as const;
export type FloorSection = (typeof floorSections)[number];

export const floorSectionLabels: Record<FloorSection, string> = {
  indoor: 'Indoor',
  terrace: 'Terrace',
  bar: 'Bar',
  private: 'Private room',
};

/** The shifts a day may have. */
export const shiftNames = ['lunch', 'dinner'] as const;
export type ShiftName = (typeof shiftNames)[number];

/** Monday first, as the portal lists them; `weekdayOf` maps a date onto these indexes. */
export const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export interface FloorTable {
  id: string;
  name: string;
  section: FloorSection;
  minCovers: number;
  maxCovers: number;
  /** False: held back for staff (walk-ins, regulars); never offered online. */
  onlineBookable: boolean;
}

/** Tables staff allow to be joined, and the party sizes the joined tables seat. */
export interface TableCombination {
  id: string;
  tableIds: string[];
  minCovers: number;
  maxCovers: number;
}

/** One service period; a booking may start at `start` and at every interval before `end`. */
export interface Shift {
  name: ShiftName;
  start: string;
  end: string;
}

/** From `fromPartySize` upwards (until the next band), a table is taken for `minutes`. */
export interface TurnBand {
  fromPartySize: number;
  minutes: number;
}

/** The most covers and parties that may start within one pacing window; null: no limit. */
export interface Pacing {
  maxCovers: number | null;
  maxParties: number | null;
}

export interface FloorSettings {
  /** Seven entries, Monday first: each day's shifts (none: closed). */
  shifts: Shift[][];
  intervalMinutes: number;
  turns: TurnBand[];
  pacing: Pacing;
}

/** The window pacing counts in: 15 minutes. Kolkata is UTC+05:30, so windows of UTC instants line up with the wall clock. */
export const PACING_WINDOW_MINUTES = 15;
export const DEFAULT_INTERVAL_MINUTES = 15;
export const bookingIntervals = [15, 30, 60] as const;

/** 1–2: 75 min, 3–4: 105, 5–6: 120, 7 and more: 150. */
export const DEFAULT_TURNS: TurnBand[] = [
  { fromPartySize: 1, minutes: 75 },
  { fromPartySize: 3, minutes: 105 },
  { fromPartySize: 5, minutes: 120 },
  { fromPartySize: 7, minutes: 150 },
];

const DEFAULT_DAY: Shift[] = [
  { name: 'lunch', start: '12:00', end: '15:00' },
  { name: 'dinner', start: '18:00', end: '22:30' },
];

export const DEFAULT_FLOOR_SETTINGS: FloorSettings = {
  shifts: weekdays.map(() => DEFAULT_DAY.map((shift) => ({ ...shift }))),
  intervalMinutes: DEFAULT_INTERVAL_MINUTES,
  turns: DEFAULT_TURNS,
  pacing: { maxCovers: null, maxParties: null },
};

/** How long a party of `partySize` keeps its table: the band with the largest start not above the size. */
export function turnMinutes(partySize: number, turns: readonly TurnBand[] = DEFAULT_TURNS): number {
  let minutes = turns.length > 0 ? turns[0].minutes : DEFAULT_TURNS[0].minutes;
  let best = -Infinity;
  for (const band of turns) {
    if (band.fromPartySize <= partySize && band.fromPartySize > best) {
      best = band.fromPartySize;
      minutes = band.minutes;
    }
  }
  return minutes;
}

/** Monday = 0 … Sunday = 6, for a YYYY-MM-DD date. */
export function weekdayOf(date: string): number {
  return (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/** The times a booking may start on `weekday`: each shift from its start, every interval, before its end; sorted, no repeats. */
export function bookableTimes(settings: Pick<FloorSettings, 'shifts' | 'intervalMinutes'>, weekday: number): string[] {
  const times = new Set<number>();
  for (const shift of settings.shifts[weekday] ?? []) {
    for (let minute = minutesOfDay(shift.start); minute < minutesOfDay(shift.end); minute += settings.intervalMinutes) times.add(minute);
  }
  return [...times].sort((a, b) => a - b).map(clockTimeOf);
}

/** A party's place: one table, or a combination's tables. */
export interface Seating {
  tableIds: string[];
  combinationId: string | null;
}

/** What takes a table: a party (or staff's block) on some tables over [startMs, endMs). */
export interface Occupancy {
  tableIds: readonly string[];
  startMs: number;
  endMs: number;
  partySize: number;
  /**
   * Set on a booking a re-pack may move to other tables (decision 217): reserved, not seated, not
   * placed by staff. Names it in the moves (the server's reservation id).
   */
  movableId?: string;
}

/** The tables that no occupancy touches during [startMs, endMs). */
export function freeTableIds(tables: readonly FloorTable[], occupancies: readonly Occupancy[], startMs: number, endMs: number): Set<string> {
  const free = new Set(tables.map((table) => table.id));
  for (const occupancy of occupancies) {
    if (occupancy.startMs < endMs && startMs < occupancy.endMs) for (const id of occupancy.tableIds) free.delete(id);
  }
  return free;
}

export interface SeatingOptions {
  /** Online: only tables bookable online (and combinations made only of them). Staff may use every table. */
  onlineOnly: boolean;
  /**
   * Minutes the tables would stand idle around this turn (since the last party left, until the
   * next arrives): among tables of one size, the tightest fit leaves whole turns free for others.
   */
  idleMinutes?: (tableIds: readonly string[]) => number;
}

/** A single table or allowed combination that seats a party, with what the best-fit order weighs. */
export type SeatingCandidate = {
  tableIds: string[];
  combinationId: string | null;
  maxCovers: number;
  minCovers: number;
  joinable: boolean;
  idle: number;
  name: string;
};
type Candidate = SeatingCandidate;

/**
 * Orders candidates (best fit): fewest seats, then a single table before a combination of as many
 * seats, then a table no combination needs, then the tightest fit in time, then fewest minimum
 * covers, then by name. A combination is weighed by its seats like a table: a party of four takes
 * two joined 2-tops before a free 6-top, which a party of five or six may still need
 * (docs/performance.md §9 measures the choice).
 */
function isBetter(a: Candidate, b: Candidate): boolean {
  if (a.maxCovers !== b.maxCovers) return a.maxCovers < b.maxCovers;
  if ((a.combinationId === null) !== (b.combinationId === null)) return a.combinationId === null;
  if (a.joinable !== b.joinable) return !a.joinable;
  if (a.idle !== b.idle) return a.idle < b.idle;
  if (a.minCovers !== b.minCovers) return a.minCovers < b.minCovers;
  if (a.tableIds.length !== b.tableIds.length) return a.tableIds.length < b.tableIds.length;
  return a.name < b.name;
}

/**
 * Where a party of `partySize` sits among the free tables: the smallest single table or allowed
 * combination (all its tables free) that seats it — fewest seats; among equals a single table, one
 * that no combination needs, then the tightest fit in time, then the fewest minimum covers, then by
 * name — so big parties keep the big tables and the combinations.
 */
export function chooseSeating(
  tables: readonly FloorTable[],
  combinations: readonly TableCombination[],
  freeIds: ReadonlySet<string>,
  partySize: number,
  options: SeatingOptions,
): Seating | null {
  const usable = (table: FloorTable) => freeIds.has(table.id) && (!options.onlineOnly || table.onlineBookable);
  let best: Candidate | null = null;
  for (const candidate of seatingCandidates(tables, combinations, partySize, usable, options.idleMinutes)) {
    if (!best || isBetter(candidate, best)) best = candidate;
  }
  return best ? { tableIds: best.tableIds, combinationId: best.combinationId } : null;
}

/**
 * Every single table, and every allowed combination of tables, that seats a party of `partySize`,
 * among the tables `usable` accepts (a combination only when all its tables are): the one rule of
 * what fits, for the best-fit choice and for re-packing (decision 217).
 */
export function seatingCandidates(
  tables: readonly FloorTable[],
  combinations: readonly TableCombination[],
  partySize: number,
  usable: (table: FloorTable) => boolean,
  idleMinutes: (tableIds: readonly string[]) => number = () => 0,
): SeatingCandidate[] {
  const joinable = new Set(combinations.flatMap((combination) => combination.tableIds));
  const candidates: SeatingCandidate[] = [];
  for (const table of tables) {
    if (!tableSeats(table, partySize, usable)) continue;
    candidates.push({
      tableIds: [table.id],
      combinationId: null,
      maxCovers: table.maxCovers,
      minCovers: table.minCovers,
      joinable: joinable.has(table.id),
      idle: idleMinutes([table.id]),
      name: table.name,
    });
  }
  const byId = new Map(tables.map((table) => [table.id, table]));
  for (const combination of combinations) {
    if (!combinationSeats(combination, byId, partySize, usable)) continue;
    candidates.push({
      tableIds: [...combination.tableIds],
      combinationId: combination.id,
      maxCovers: combination.maxCovers,
      minCovers: combination.minCovers,
      joinable: false,
      idle: idleMinutes(combination.tableIds),
      name: combination.id,
    });
  }
  return candidates;
}

/** Whether a single table seats the party, when `usable` accepts it. */
function tableSeats(table: FloorTable, partySize: number, usable: (table: FloorTable) => boolean): boolean {
  return usable(table) && partySize >= table.minCovers && partySize <= table.maxCovers;
}

/** Whether an allowed combination seats the party, when `usable` accepts every one of its tables. */
function combinationSeats(
  combination: TableCombination,
  byId: ReadonlyMap<string, FloorTable>,
  partySize: number,
  usable: (table: FloorTable) => boolean,
): boolean {
  if (partySize < combination.minCovers || partySize > combination.maxCovers || combination.tableIds.length === 0) return false;
  return combination.tableIds.every((id) => {
    const table = byId.get(id);
    return table !== undefined && usable(table);
  });
}

/**
 * Whether seatingCandidates would list anything, without listing: true at the first single table
 * or allowed combination that seats the party among the tables `usable` accepts.
 */
export function hasSeating(floor: Pick<Floor, 'tables' | 'combinations'>, usable: (table: FloorTable) => boolean, partySize: number): boolean {
  for (const table of floor.tables) if (tableSeats(table, partySize, usable)) return true;
  if (floor.combinations.length === 0) return false;
  const byId = new Map(floor.tables.map((table) => [table.id, table]));
  for (const combination of floor.combinations) if (combinationSeats(combination, byId, partySize, usable)) return true;
  return false;
}

/** How far the choice of a table looks before and after a turn for the tables' idle time. */
export const IDLE_CAP_MINUTES = 180;

/** How long `tableIds` would stand idle around [startMs, endMs) among `occupancies`, in minutes, each side capped at `capMinutes`. */
export function idleMinutesAround(
  occupancies: readonly Occupancy[],
  tableIds: readonly string[],
  startMs: number,
  endMs: number,
  capMinutes = IDLE_CAP_MINUTES,
): number {
  let total = 0;
  for (const id of tableIds) {
    let before = capMinutes;
    let after = capMinutes;
    for (const occupancy of occupancies) {
      if (!occupancy.tableIds.includes(id)) continue;
      if (occupancy.endMs <= startMs) before = Math.min(before, (startMs - occupancy.endMs) / 60_000);
      if (occupancy.startMs >= endMs) after = Math.min(after, (occupancy.startMs - endMs) / 60_000);
    }
    total += before + after;
  }
  return total;
}

/** The pacing window an instant falls in. */
export function pacingWindowOf(startMs: number): number {
  return Math.floor(startMs / (PACING_WINDOW_MINUTES * 60_000));
}

/** True when a party of `partySize` starting at `startMs` keeps its pacing window within the limits. */
export function isPacingAllowed(pacing: Pacing, starts: readonly Pick<Occupancy, 'startMs' | 'partySize'>[], startMs: number, partySize: number): boolean {
  if (pacing.maxCovers === null && pacing.maxParties === null) return true;
  const window = pacingWindowOf(startMs);
  let covers = partySize;
  let parties = 1;
  for (const start of starts) {
    if (pacingWindowOf(start.startMs) !== window) continue;
    covers += start.partySize;
    parties += 1;
  }
  return (pacing.maxCovers === null || covers <= pacing.maxCovers) && (pacing.maxParties === null || parties <= pacing.maxParties);
}

/** A restaurant's floor as the rules read it. */
export interface Floor {
  tables: FloorTable[];
  combinations: TableCombination[];
  settings: FloorSettings;
}

/**
 * The seating a party of `partySize` would get at `startMs` on `floor`, given what already takes
 * its tables (`occupancies`, each counting for pacing at its own start), or null when no table or
 * combination is free for the whole turn or pacing refuses.
 */
export function seatingAt(floor: Floor, occupancies: readonly Occupancy[], startMs: number, partySize: number, options: SeatingOptions): Seating | null {
  if (!isPacingAllowed(floor.settings.pacing, occupancies, startMs, partySize)) return null;
  const endMs = startMs + turnMinutes(partySize, floor.settings.turns) * 60_000;
  return chooseSeating(floor.tables, floor.combinations, freeTableIds(floor.tables, occupancies, startMs, endMs), partySize, {
    idleMinutes: (tableIds) => idleMinutesAround(occupancies, tableIds, startMs, endMs),
    ...options,
  });
}

/** The largest party any one table or allowed combination seats (online only when asked). */
export function largestSeatableParty(floor: Pick<Floor, 'tables' | 'combinations'>, options: SeatingOptions): number {
  const usable = new Map(floor.tables.filter((table) => !options.onlineOnly || table.onlineBookable).map((table) => [table.id, table]));
  let largest = 0;
  for (const table of usable.values()) largest = Math.max(largest, table.maxCovers);
  for (const combination of floor.combinations) {
    if (combination.tableIds.every((id) => usable.has(id))) largest = Math.max(largest, combination.maxCovers);
  }
  return largest;
}

/**
 * Today's covers model as a floor (decision 240): tables seating `capacity` covers in all, as
 * 2-tops and 4-tops and one 6-top when the room is big enough, 2-tops joinable in pairs (seat 4)
 * and two 4-tops joinable (seat 8). Names are T1, T2 …; ids are left to the caller.
 */
export function tablesForCapacity(capacity: number): { name: string; minCovers: number; maxCovers: number }[] {
  const sizes: number[] = [];
  let left = Math.max(2, capacity);
  if (left >= 16) {
    sizes.push(6);
    left -= 6;
  }
  const fours = Math.floor(left / 2 / 4);
  for (let index = 0; index < fours; index++) sizes.push(4);
  left -= fours * 4;
  while (left > 0) {
    sizes.push(2);
    left -= 2;
  }
  sizes.sort((a, b) => a - b);
  return sizes.map((maxCovers, index) => ({ name: `T${index + 1}`, minCovers: maxCovers === 2 ? 1 : maxCovers === 4 ? 2 : 4, maxCovers }));
}
