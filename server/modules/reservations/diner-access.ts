import { DATE_ACCOUNT_ID } from '#common/domain/dating-plan.ts';
import { effectiveStatus } from '#common/domain/reservation-status.ts';
import { forbidden, notFound, unauthenticated } from '#server/errors.ts';
import { rejectInvalidCredential, type Principal } from '#server/modules/accounts/principal.ts';
import type { ReservationRow } from './reservations.repository.ts';
import { RESERVATION_NOT_FOUND } from './reservation-view.ts';

/** Who may act on a reservation as its diner (decision 097). */

/**
 * The hold screen works with the id alone; a diner's token, when sent, must be the owner's. The
 * platform's date holds are no diner's: their plan alone moves them, so they are not found here
 * (decision 207).
 */
export function assertMayActOnAsDiner(principal: Principal, row: ReservationRow): void {
  rejectInvalidCredential(principal);
  // Staff, dating and moderator credentials are not diner credentials (decisions 004, 185), even where none is needed.
  if (principal.kind !== 'anonymous' && principal.kind !== 'diner') throw unauthenticated('This needs a diner sign-in');
  if (row.user_id === DATE_ACCOUNT_ID) throw notFound(RESERVATION_NOT_FOUND);
  if (principal.kind === 'diner' && principal.userId !== row.user_id) {
    throw forbidden('That reservation belongs to another account');
  }
}

/**
 * A diner's move: the id alone may confirm or cancel only a hold (HELD as stored; an expired one is
 * then refused by the state machine), anything later needs the owner's token (decision 097). Runs
 * on the locked row, so the status cannot change between this check and the move.
 */
export function assertMayMoveAsDiner(principal: Principal, row: ReservationRow, verb: 'confirm' | 'cancel' | 'change', now: Date): void {
  assertMayActOnAsDiner(principal, row);
  if (principal.kind === 'anonymous' && row.status !== 'HELD') {
    const status = effectiveStatus(row.status, row.hold_expires_at, now);
    throw unauthenticated(`This reservation is ${status}: sign in as the diner who made it to ${verb} it.`);
  }
}
