import type { BookingRequest, DinerReservation } from '#common/contract/reservations.ts';
import { isEmptyRequest } from '#common/domain/guests.ts';
import { isPastBookingCutoff } from '#common/domain/time.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import { assertMayMoveAsDiner } from './diner-access.ts';
import { findReservation, updateBookingRequest } from './reservations.repository.ts';
import { RESERVATION_NOT_FOUND, toDinerReservation } from './reservation-view.ts';

/** Refused once the booking's cut-off has passed (decision 260). */
export const REQUEST_CLOSED = 'Requests can no longer be changed for this booking: it is past its cut-off. Please call the restaurant.';

/**
 * What a diner tells the restaurant for one booking (decision 260): an occasion, quick picks and a
 * short request. The diner changes it until the booking's cut-off (409 after), and may remove it
 * at any time, even after (what they told a restaurant stays theirs to take back). The same
 * access as the diner's moves: the id alone while it is a hold, the owner's token after.
 */
export function createBookingRequests({ db, clock, config }: Pick<AppDeps, 'db' | 'clock' | 'config'>) {
  async function write(principal: Principal, id: string, request: BookingRequest | null): Promise<DinerReservation> {
    return db.transaction(async (tx) => {
      const row = await findReservation(tx, id, { forUpdate: true });
      if (!row) throw notFound(RESERVATION_NOT_FOUND);
      const now = clock.now();
      assertMayMoveAsDiner(principal, row, 'change', now);
      if (request && isPastBookingCutoff(row.starts_at, now, config.bookingCutoffMinutes)) throw conflict(REQUEST_CLOSED);
      await updateBookingRequest(tx, id, request && !isEmptyRequest(request) ? request : null, now);
      return toDinerReservation((await findReservation(tx, id))!, now, config.bookingCutoffMinutes);
    });
  }

  return {
    /** PUT /api/reservations/{id}/request: sets the request (an empty one removes it). */
    setBookingRequest(principal: Principal, id: string, request: BookingRequest): Promise<DinerReservation> {
      return write(principal, id, request);
    },
    /** DELETE /api/reservations/{id}/request: removes what the diner told the restaurant. */
    removeBookingRequest(principal: Principal, id: string): Promise<DinerReservation> {
      return write(principal, id, null);
    },
  };
}
