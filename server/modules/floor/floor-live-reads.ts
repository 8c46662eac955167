import type { FloorLive, FloorParty } from '#common/contract/floor-live.ts';
import { tableStateAt, type LiveParty } from '#common/domain/floor-live.ts';
import { weekdayOf, type Floor } from '#common/domain/floor.ts';
import { addDays, kolkataInstant } from '#common/domain/time.ts';
import { iso, isoOrNull, type Db } from '#server/db/client.ts';
import { listDayParties, type PartyRow } from './floor-live.repository.ts';

const EXPECTED: readonly string[] = ['HELD', 'PENDING', 'CONFIRMED'];
const SETTLED: readonly string[] = ['COMPLETED', 'NO_SHOW'];

/** A party row as the host view shows it. */
export function toFloorParty(row: PartyRow, tableNames: ReadonlyMap<string, string>): FloorParty {
  return {
    assignmentId: row.id,
    kind: row.is_walk_in ? 'walkIn' : 'booking',
    reservationId: row.reservation_id,
    status: row.status,
    name: row.name ?? '',
    partySize: row.party_size,
    tableIds: row.table_ids,
    tableNames: row.table_ids.map((id) => tableNames.get(id) ?? '?'),
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    seatedAt: isoOrNull(row.seated_at),
    finishedAt: isoOrNull(row.finished_at),
  };
}

/**
 * What the live rules read of a party. A booking seated or completed from the bookings list
 * (without the floor) counts as seated from its start and finished at its turn's end.
 */
function toLiveParty(party: FloorParty): LiveParty {
  const startsAtMs = Date.parse(party.startsAt);
  const endsAtMs = Date.parse(party.endsAt);
  const status = party.status ?? '';
  const seatedAtMs = party.seatedAt ? Date.parse(party.seatedAt) : status === 'SEATED' || SETTLED.includes(status) ? startsAtMs : null;
  const finishedAtMs = party.finishedAt ? Date.parse(party.finishedAt) : SETTLED.includes(status) ? endsAtMs : null;
  return {
    startsAtMs,
    endsAtMs,
    seatedAtMs: status === 'NO_SHOW' ? null : seatedAtMs,
    finishedAtMs,
    isExpected: party.kind === 'booking' && EXPECTED.includes(status),
  };
}

/** The host view of `date` at `now`: every table's state and the day's parties (decision 245). */
export async function readFloorLive(db: Db, restaurantId: string, floor: Floor | null, date: string, now: Date): Promise<FloorLive> {
  const from = kolkataInstant(date, '00:00');
  const to = kolkataInstant(addDays(date, 1), '00:00');
  const names = new Map((floor?.tables ?? []).map((table) => [table.id, table.name]));
  const parties = floor ? (await listDayParties(db, restaurantId, from, to, now)).map((row) => toFloorParty(row, names)) : [];
  const tables = (floor?.tables ?? []).map((table) => {
    const atTable = parties.filter((party) => party.tableIds.includes(table.id));
    const state = tableStateAt(atTable.map(toLiveParty), now.getTime());
    return {
      id: table.id,
      name: table.name,
      section: table.section,
      minCovers: table.minCovers,
      maxCovers: table.maxCovers,
      state: state.state,
      minutes: state.minutes,
      turnMinutes: state.turnMinutes,
      assignmentId: state.partyIndex === null ? null : atTable[state.partyIndex].assignmentId,
    };
  });
  // The timeline's axis: the day's shifts, stretched to every party shown.
  // From the shift the evening is in: the first party's, or now's (a lunch long over is left out).
  const earliest = Math.min(now.getTime(), ...parties.map((party) => Date.parse(party.startsAt)));
  const dayShifts = floor?.settings.shifts[weekdayOf(date)] ?? [];
  const current = dayShifts.filter((shift) => kolkataInstant(date, shift.end).getTime() > earliest);
  const shifts = current.length > 0 ? current : dayShifts;
  const instants = [
    ...shifts.flatMap((shift) => [kolkataInstant(date, shift.start).getTime(), kolkataInstant(date, shift.end).getTime()]),
    ...parties.flatMap((party) => [Date.parse(party.startsAt), Date.parse(party.endsAt)]),
  ];
  return {
    date,
    now: now.toISOString(),
    opensAt: instants.length > 0 ? new Date(Math.min(...instants)).toISOString() : null,
    closesAt: instants.length > 0 ? new Date(Math.max(...instants)).toISOString() : null,
    tables,
    parties,
  };
}
