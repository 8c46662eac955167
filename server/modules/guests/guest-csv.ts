import type { GuestSummary } from '#common/contract/guests.ts';
import { csvLine } from '#common/domain/csv.ts';
import { guestTagLabels } from '#common/domain/guests.ts';

const HEADER = ['Name', 'Phone', 'Email', 'Visits', 'Last visit', 'No-shows', 'Late cancels', 'Tags', 'Note'] as const;

/**
 * The guest list as a CSV a spreadsheet opens safely (decision 263): every cell quoted, and a cell
 * that starts with = + - @, a tab or a carriage return prefixed with an apostrophe (csvCell), so
 * nothing a diner or staff typed can run as a formula.
 */
export function guestListCsv(guests: readonly GuestSummary[]): string {
  return (
    csvLine(HEADER) +
    guests
      .map((guest) =>
        csvLine([
          guest.name,
          guest.phone,
          guest.email,
          guest.visits,
          guest.lastVisit,
          guest.noShows,
          guest.lateCancels,
          guest.tags.map((tag) => guestTagLabels[tag]).join(', '),
          guest.note,
        ]),
      )
      .join('')
  );
}
