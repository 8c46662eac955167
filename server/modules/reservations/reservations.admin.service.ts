import type { AdminBooking, AdminBookingsResponse, PortalStreamEvent } from '#common/contract/portal.ts';
import { describeChange } from '#common/domain/booking-change.ts';
import type { ReminderReply } from '#common/contract/reminders.ts';
import { summaryBuckets, type ReservationStatus } from '#common/domain/reservation-status.ts';
import { AVAILABILITY_HORIZON_DAYS } from '#common/domain/restaurants.ts';
import { todayInKolkata } from '#common/domain/time.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { notFound } from '#server/errors.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { RemindersService } from '#server/modules/reminders/reminders.service.ts';
import type { StrikesService } from '#server/modules/strikes/strikes.service.ts';
import { listLatestAppliedChanges } from './booking-changes.repository.ts';
import { countBookingsOfDate, findBookingOfRestaurant, listBookingsFrom, type AdminBookingRow } from './reservations.repository.ts';
import type { ReservationsService } from './reservations.service.ts';
import { BOOKING_NOT_FOUND, toStaffBooking } from './reservation-view.ts';

/** How far ahead the Upcoming Bookings list reaches (the diner's booking horizon). */
const BOOKINGS_HORIZON_DAYS = AVAILABILITY_HORIZON_DAYS;
const BOOKINGS_LIMIT = 500;

/** Each booking's latest applied change, as staff read it (decision 284). */
async function changedFromOf(database: AppDeps['db'], ids: string[]): Promise<Map<string, string>> {
  const changes = await listLatestAppliedChanges(database, ids);
  return new Map(
    changes.map((change) => [
      change.reservation_id,
      describeChange({
        fromStartsAt: asDate(change.from_starts_at),
        toStartsAt: asDate(change.to_starts_at),
        fromPartySize: change.from_party_size,
        toPartySize: change.to_party_size,
      }),
    ]),
  );
}

function toAdminBooking(row: AdminBookingRow, now: Date, reminderReply: ReminderReply | null, changedFrom: string | null): AdminBooking {
  return { ...toStaffBooking(row, now), reminderReply, changedFrom };
}

/** The staff's side of reservations: their restaurant's bookings, the staff moves and the live stream. */
export function createReservationsAdminService(deps: AppDeps, reservations: ReservationsService, strikes: StrikesService, reminders: RemindersService) {
  const { db, clock, events } = deps;

  return {
    /** GET /api/admin/bookings: upcoming bookings (today onwards) and today's live counts. */
    async listBookings(principal: Principal): Promise<AdminBookingsResponse> {
      requireStaff(principal);
      const now = clock.now();
      const today = todayInKolkata(now);
      const [rows, counts] = await Promise.all([
        listBookingsFrom(db, principal.restaurantId, today, BOOKINGS_HORIZON_DAYS, now, BOOKINGS_LIMIT),
        countBookingsOfDate(db, principal.restaurantId, today, now),
      ]);
      const total = (statuses: readonly string[]) => statuses.reduce((sum, status) => sum + (counts.get(status) ?? 0), 0);
      const replies = await reminders.repliesForStaff(
        principal,
        rows.map((row) => row.id),
      );
      const changes = await changedFromOf(
        db,
        rows.map((row) => row.id),
      );
      return {
        bookings: rows.map((row) => toAdminBooking(row, now, replies.get(row.id) ?? null, changes.get(row.id) ?? null)),
        liveStatus: { pending: total(summaryBuckets.pending), confirmed: total(summaryBuckets.ongoing), completed: total(summaryBuckets.completed) },
        today,
      };
    },

    /** PATCH /api/admin/bookings/{id}: one staff move of the state machine (enforced by the reservations service). */
    async moveBooking(principal: Principal, id: string, to: ReservationStatus): Promise<AdminBooking> {
      requireStaff(principal);
      // A no-show records its strike in the same transaction as the status (decision 122).
      await reservations.moveReservationAsStaff(
        principal,
        id,
        to,
        to === 'NO_SHOW'
          ? (tx, moved) => strikes.recordNoShow(tx, { userId: moved.userId, reservationId: moved.id, restaurantId: moved.restaurantId })
          : undefined,
      );
      const row = await findBookingOfRestaurant(db, principal.restaurantId, id);
      if (!row) throw notFound(BOOKING_NOT_FOUND);
      const replies = await reminders.repliesForStaff(principal, [row.id]);
      const changes = await changedFromOf(db, [row.id]);
      return toAdminBooking(row, clock.now(), replies.get(row.id) ?? null, changes.get(row.id) ?? null);
    },

    /**
     * Live changes for the staff's own restaurant: bookings created or moved, slots freed, the floor changed.
     * Returns the function that stops listening.
     */
    subscribeToChanges(principal: Principal, listener: (event: PortalStreamEvent) => void): () => void {
      requireStaff(principal);
      const { restaurantId } = principal;
      const stopBookings = events.subscribe('reservation.changed', (change) => {
        if (change.restaurantId === restaurantId) listener({ type: 'booking', reservationId: change.reservationId, status: change.status });
      });
      const stopSlots = events.subscribe('slot.freed', (change) => {
        if (change.restaurantId === restaurantId) listener({ type: 'slots', date: null });
      });
      const stopFloor = events.subscribe('floor.changed', (change) => {
        if (change.restaurantId === restaurantId) listener({ type: 'floor', date: change.date });
      });
      return () => {
        stopBookings();
        stopSlots();
        stopFloor();
      };
    },
  };
}

export type ReservationsAdminService = ReturnType<typeof createReservationsAdminService>;
