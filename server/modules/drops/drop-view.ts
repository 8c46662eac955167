import { toRestaurantRef } from '#server/modules/restaurants/restaurant-sql.ts';
import type { AdminDropSummary, DrawCommitments, DropEntryResult, DropPhase, DropSummary } from '#common/contract/drops.ts';
import { isLiveHold } from '#common/domain/reservation-status.ts';
import { formatInstantKolkata, isPastBookingCutoff } from '#common/domain/time.ts';
import { asDate, iso, isoOrNull } from '#server/db/client.ts';
import type { DropRow, EntryRow } from './drops.repository.ts';

/** How a drop and an entry read, for diners and staff alike: pure functions of a row and the time. */

/** "Mon, 30 Nov at 6:00 PM" in Kolkata. */
export const formatInstant = (instant: Date | string) => formatInstantKolkata(instant, ' at ');

/** Every slot of the drop is past its booking cut-off: no table can be offered any more. */
export function isDropOver(drop: Pick<DropRow, 'last_slot_at'>, now: Date, cutoffMinutes: number): boolean {
  return isPastBookingCutoff(drop.last_slot_at, now, cutoffMinutes);
}

export function phaseOf(
  drop: Pick<DropRow, 'entry_opens_at' | 'entry_closes_at' | 'release_at' | 'last_slot_at'>,
  now: Date,
  cutoffMinutes: number,
): DropPhase {
  if (now < asDate(drop.entry_opens_at)) return 'upcoming';
  if (now < asDate(drop.entry_closes_at)) return 'open';
  if (now < asDate(drop.release_at)) return 'closed';
  return isDropOver(drop, now, cutoffMinutes) ? 'ended' : 'released';
}

export function toDropSummary(row: DropRow, now: Date, cutoffMinutes: number): DropSummary {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    restaurant: toRestaurantRef(row),
    phase: phaseOf(row, now, cutoffMinutes),
    entryOpensAt: iso(row.entry_opens_at),
    entryClosesAt: iso(row.entry_closes_at),
    releaseAt: iso(row.release_at),
    dateFrom: row.date_from,
    dateTo: row.date_to,
    times: row.times,
    capacity: row.capacity,
    slotCount: row.slot_count,
    entryCount: row.entry_count,
    drawnAt: isoOrNull(row.drawn_at),
    depositPerCoverPaise: row.deposit_per_cover_paise,
  };
}

/** The draw's public commitments (decision 100): the seed's SHA-256 from creation, the entry list fixed at the close. */
export function drawCommitmentsOf(row: DropRow): DrawCommitments {
  return {
    seedCommitment: row.seed_commitment,
    committedAt: isoOrNull(row.committed_at),
    entriesClosedAt: isoOrNull(row.entries_closed_at),
    closedEntryCount: row.closed_entry_count,
    entriesHash: row.closed_entries_hash,
  };
}

export function toAdminDropSummary(row: DropRow, now: Date, cutoffMinutes: number): AdminDropSummary {
  return { ...toDropSummary(row, now, cutoffMinutes), offeredCount: row.offered_count, bookedCount: row.booked_count };
}

/** What became of an entry: entered, waiting (with its place), won, booked, lapsed or not this time. */
export function entryResultOf(
  entry: EntryRow,
  drop: Pick<DropRow, 'drawn_at' | 'last_slot_at'>,
  now: Date,
  cutoffMinutes: number,
  placeInLine: () => number,
): DropEntryResult {
  if (entry.status === 'withdrawn') return { state: 'withdrawn' };
  if (!drop.drawn_at || entry.position === null) return { state: 'entered' };
  if (entry.status === 'offered') {
    if (!entry.reservation_id || !entry.reservation_status) return { state: 'not_this_time' };
    const slot = { date: entry.slot_date ?? '', time: entry.slot_time ?? '' };
    if (isLiveHold(entry.reservation_status, entry.hold_expires_at, now))
      return { state: 'won', reservationId: entry.reservation_id, holdExpiresAt: iso(entry.hold_expires_at!), slot };
    if (entry.reservation_status === 'HELD' || entry.reservation_status === 'CANCELLED') return { state: 'lapsed', reservationId: entry.reservation_id };
    return { state: 'booked', reservationId: entry.reservation_id, status: entry.reservation_status, slot };
  }
  if (isDropOver(drop, now, cutoffMinutes)) return { state: 'not_this_time' };
  return { state: 'waiting', placeInLine: placeInLine() };
}
