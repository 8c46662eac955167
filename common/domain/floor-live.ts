/**
 * The floor, live (decision 245): what a host sees of each table now, derived from the day's
 * parties at that table. Pure, so the server's answer and the tests read it the same way.
 */

/** A table's state now, in the order a host cares about them. */
export const tableStates = ['free', 'reserved', 'late', 'seated', 'toClear'] as const;
export type TableState = (typeof tableStates)[number];

export const tableStateLabels: Record<TableState, string> = {
  free: 'Free',
  reserved: 'Reserved',
  late: 'Running late',
  seated: 'Seated',
  toClear: 'To clear',
};

/** A booking that arrives within this many minutes makes its table "reserved" rather than free. */
export const RESERVED_WITHIN_MINUTES = 60;

/** One party at a table, as the live rules read it. */
export interface LiveParty {
  startsAtMs: number;
  endsAtMs: number;
  /** Null until the host seats the party. */
  seatedAtMs: number | null;
  /** Null until the host marks it finished (or it is settled: completed, no-show). */
  finishedAtMs: number | null;
  /** True while the party may still come (a booking held, pending or accepted, not yet seated). */
  isExpected: boolean;
}

export interface TableNow {
  state: TableState;
  /**
   * free / reserved: minutes until the next arrival (null: none today); late: minutes past the
   * booked time; seated: minutes since the party sat down; toClear: minutes past the end of its turn.
   */
  minutes: number | null;
  /** seated and toClear: the party's turn in minutes. */
  turnMinutes: number | null;
  /** The index (in the parties given) of the party the state is about, if any. */
  partyIndex: number | null;
}

const minutesBetween = (fromMs: number, toMs: number) => Math.max(0, Math.floor((toMs - fromMs) / 60_000));

/**
 * The state of one table at `nowMs` from its parties today: a party seated and not finished makes
 * it seated (or to clear once its turn is over); else a booking past its time that has not come
 * makes it running late; else the next booking within RESERVED_WITHIN_MINUTES makes it reserved;
 * else it is free.
 */
export function tableStateAt(parties: readonly LiveParty[], nowMs: number): TableNow {
  const seatedIndex = parties.findIndex((party) => party.seatedAtMs !== null && party.finishedAtMs === null);
  if (seatedIndex >= 0) {
    const party = parties[seatedIndex];
    const turn = minutesBetween(party.startsAtMs, party.endsAtMs);
    if (nowMs >= party.endsAtMs) return { state: 'toClear', minutes: minutesBetween(party.endsAtMs, nowMs), turnMinutes: turn, partyIndex: seatedIndex };
    return { state: 'seated', minutes: minutesBetween(party.seatedAtMs!, nowMs), turnMinutes: turn, partyIndex: seatedIndex };
  }
  let nextIndex: number | null = null;
  for (const [index, party] of parties.entries()) {
    if (!party.isExpected || party.seatedAtMs !== null) continue;
    if (nextIndex === null || party.startsAtMs < parties[nextIndex].startsAtMs) nextIndex = index;
  }
  if (nextIndex === null) return { state: 'free', minutes: null, turnMinutes: null, partyIndex: null };
  const next = parties[nextIndex];
  if (next.startsAtMs <= nowMs) return { state: 'late', minutes: minutesBetween(next.startsAtMs, nowMs), turnMinutes: null, partyIndex: nextIndex };
  const until = minutesBetween(nowMs, next.startsAtMs);
  return { state: until <= RESERVED_WITHIN_MINUTES ? 'reserved' : 'free', minutes: until, turnMinutes: null, partyIndex: nextIndex };
}
