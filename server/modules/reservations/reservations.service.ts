import type { DinerReservation } from '#common/contract/reservations.ts';
import type { ReservationStatus } from '#common/domain/reservation-status.ts';
import { asDate, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { AvailabilityService } from '#server/modules/availability/availability.service.ts';
import type { FloorService } from '#server/modules/floor/floor.service.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import type { StrikesService } from '#server/modules/strikes/strikes.service.ts';
import { createDepositRequirement } from './deposit-requirement.ts';
import { assertMayMoveAsDiner } from './diner-access.ts';
import { createBookingRequests } from './booking-requests.ts';
import { createHoldTable } from './hold-table.ts';
import { announceReservation, createMoveReservation, type AlsoInTransaction } from './move-reservation.ts';
import { createOfferedHolds } from './offered-holds.ts';
import { createReservationReads } from './reservation-reads.ts';
import { clearRequestsOfUser, expireDueHolds, type ReservationRow } from './reservations.repository.ts';
import { BOOKING_NOT_FOUND, LINK_FOR_ANOTHER_TIME } from './reservation-view.ts';

/** A reminder link's grant, checked by the reminders service: this reservation, at this start. */
export interface ReminderLinkGrant {
  reservationId: string;
  startsAt: Date;
}

/**
 * Reservations: holds, reads and the state machine (docs/architecture.md). Each use case is its
 * own file: hold-table.ts (a diner's hold), offered-holds.ts (drops', waitlists' and date plans'
 * holds), move-reservation.ts (every move, with the steps other code adds to it),
 * reservation-reads.ts. This factory only puts them together and says who may make which move.
 * Money is not decided here: the deposits code adds its move step (server/composition.ts).
 */
export function createReservationsService(
  deps: AppDeps,
  restaurants: RestaurantsService,
  availability: AvailabilityService,
  strikes: StrikesService,
  floor: FloorService,
) {
  const { db, clock, events, log } = deps;
  const { moveReservation, addMoveStep } = createMoveReservation(deps, strikes);
  const reads = createReservationReads(deps, createDepositRequirement(deps, restaurants));

  return {
    /** Places a HELD reservation: its table (decision 240) and covers are taken at once, atomically, or not at all. */
    createReservation: createHoldTable(deps, availability, strikes, floor),
    ...createOfferedHolds(deps, floor),
    ...reads,
    ...createBookingRequests(deps),

    /**
     * The hold a Confirm is pressed on, refused at the strike limit before any payment starts
     * (decision 206): a waitlist offer or drop win made before the third strike is confirmed by
     * nobody blocked.
     */
    async readHoldForConfirm(principal: Principal, id: string): Promise<ReservationRow> {
      const row = await reads.readHoldForConfirm(principal, id);
      if (row.status === 'HELD') await strikes.assertMayBook(db, row.user_id);
      return row;
    },

    /** Tells listeners (live dashboards) about a hold createHoldForOffer or createHoldForPlatform placed, once its transaction committed. */
    announceOfferedHold(row: ReservationRow): void {
      announceReservation(deps, row, 'HELD');
    },

    /**
     * Any move, for a caller that names its cause and checks its own access in `authorise` (on the
     * locked row): the deposits code when a deposit is authorised, a date plan on its own table.
     */
    moveReservation,
    addMoveStep,

    /** HELD → PENDING, before the hold expires (the id alone will do: it is still a hold). Only for slots that ask no deposit (see the deposits code). */
    confirmReservation(principal: Principal, id: string): Promise<DinerReservation> {
      return moveReservation({
        id,
        to: 'PENDING',
        cause: { kind: 'diner', userId: principal.kind === 'diner' ? principal.userId : null },
        authorise: (row) => assertMayMoveAsDiner(principal, row, 'confirm', clock.now()),
      });
    },

    /** The diner's cancel: a hold (the id alone will do), or with the owner's token a pending request or an accepted one at least 2 hours ahead. */
    cancelReservation(principal: Principal, id: string): Promise<DinerReservation> {
      return moveReservation({
        id,
        to: 'CANCELLED',
        cause: { kind: 'diner', userId: principal.kind === 'diner' ? principal.userId : null },
        authorise: (row) => assertMayMoveAsDiner(principal, row, 'cancel', clock.now()),
      });
    },

    /**
     * "Release my table" from a reminder (decision 152): the diner's cancel, allowed up to the start,
     * with the deposit policy's fee where there is one. Access is the signed link the reminders
     * service has checked; it is bound to the reservation and to the start it was sent for.
     * `alsoInTransaction` records the reply with the move.
     */
    releaseFromReminder(grant: ReminderLinkGrant, alsoInTransaction: AlsoInTransaction): Promise<DinerReservation> {
      return moveReservation({
        id: grant.reservationId,
        to: 'CANCELLED',
        cause: { kind: 'reminderRelease' },
        authorise: (row) => {
          if (asDate(row.starts_at).getTime() !== grant.startsAt.getTime()) throw conflict(LINK_FOR_ANOTHER_TIME);
        },
        alsoInTransaction,
      });
    },

    /**
     * Staff moves on their own restaurant's bookings; another restaurant's booking is not found.
     * `alsoInTransaction` runs after the move, under the same row lock and transaction (a
     * no-show's strike), so both are written or neither.
     */
    async moveReservationAsStaff(principal: Principal, id: string, to: ReservationStatus, alsoInTransaction?: AlsoInTransaction): Promise<DinerReservation> {
      requireStaff(principal);
      return moveReservation({
        id,
        to,
        cause: { kind: 'staff', staffId: principal.staffId },
        authorise: (row) => {
          if (row.restaurant_id !== principal.restaurantId) throw notFound(BOOKING_NOT_FOUND);
        },
        alsoInTransaction,
      });
    },

    /** Removes what a deleted diner told every restaurant, in the deletion's transaction (decision 266). */
    async eraseRequestsOf(tx: Db, userId: string): Promise<void> {
      await clearRequestsOfUser(tx, userId);
    },

    /** Writes CANCELLED (HOLD_EXPIRED) on holds past their expiry; run by the sweeper. */
    async expireDueHolds(): Promise<number> {
      const expired = await db.transaction((tx) => expireDueHolds(tx, clock.now()));
      deps.metrics?.holdsExpired(expired.length);
      for (const row of expired) {
        events.publish('reservation.changed', { reservationId: row.id, restaurantId: row.restaurant_id, userId: row.user_id, status: 'CANCELLED' });
        events.publish('slot.freed', { slotId: row.slot_id, restaurantId: row.restaurant_id });
      }
      if (expired.length > 0) log.info({ count: expired.length }, 'expired holds released');
      return expired.length;
    },
  };
}

export type ReservationsService = ReturnType<typeof createReservationsService>;
