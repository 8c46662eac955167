import type { FloorParty, LiveTable } from '#common/contract/floor-live.ts';
import { NO_SHOW_GRACE_MINUTES } from '#common/domain/reservation-status.ts';
import { formatTime12h, toKolkata } from '#common/domain/time.ts';
import { staffStatusLabels } from '#web/features/portal/bookings.ts';

/** What a host reads of a table's state now (decision 245). */
export function tableStateText(table: Pick<LiveTable, 'state' | 'minutes' | 'turnMinutes'>): string {
  const minutes = table.minutes ?? 0;
  switch (table.state) {
    case 'free':
      return table.minutes === null ? 'Free for the rest of today' : `Free · next in ${minutes} min`;
    case 'reserved':
      return `Reserved · arrives in ${minutes} min`;
    case 'late':
      return `Running late · ${minutes} min`;
    case 'seated':
      return `Seated ${minutes} of ${table.turnMinutes ?? 0} min`;
    case 'toClear':
      return `To clear · turn over ${minutes} min ago`;
  }
}

export const timeOf = (instant: string) => formatTime12h(toKolkata(new Date(instant)).time);

/** Who the party is, for a button or a heading: "Asha Rao · 2" or "Walk-in · 3". */
export function partyLabel(party: Pick<FloorParty, 'name' | 'partySize' | 'kind'>): string {
  const name = party.name || (party.kind === 'walkIn' ? 'Walk-in' : 'Guest');
  return `${name} · ${party.partySize}`;
}

/** Where the party stands, in a word or two. */
export function partyStatusText(party: FloorParty): string {
  if (party.finishedAt) return 'Finished';
  if (party.kind === 'walkIn') return 'Seated (walk-in)';
  return party.status ? staffStatusLabels[party.status] : '';
}

export const isSeatedNow = (party: FloorParty) => !party.finishedAt && (party.kind === 'walkIn' || party.status === 'SEATED');

/** The host's actions on a party now: from the state machine's staff moves and the floor's own. */
export function partyActions(
  party: FloorParty,
  now: Date,
): { accept: boolean; seat: boolean; noShow: boolean; noShowFrom: string | null; move: boolean; finish: boolean } {
  const noShowAt = Date.parse(party.startsAt) + NO_SHOW_GRACE_MINUTES * 60_000;
  const expected = !party.finishedAt && party.kind === 'booking' && party.status === 'CONFIRMED';
  return {
    accept: !party.finishedAt && party.status === 'PENDING',
    seat: expected,
    noShow: expected && now.getTime() >= noShowAt,
    noShowFrom: expected && now.getTime() < noShowAt ? formatTime12h(toKolkata(new Date(noShowAt)).time) : null,
    move: expected || isSeatedNow(party),
    finish: isSeatedNow(party),
  };
}

/** A party's place on the day's axis, in percent of [opensAt, closesAt]. */
export function timelineBox(party: Pick<FloorParty, 'startsAt' | 'endsAt'>, opensAt: string, closesAt: string): { left: number; width: number } {
  const from = Date.parse(opensAt);
  const span = Math.max(1, Date.parse(closesAt) - from);
  const left = Math.min(100, Math.max(0, ((Date.parse(party.startsAt) - from) / span) * 100));
  const right = Math.min(100, Math.max(left, ((Date.parse(party.endsAt) - from) / span) * 100));
  return { left, width: Math.max(0.5, right - left) };
}
