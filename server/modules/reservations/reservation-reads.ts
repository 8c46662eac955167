import { toDepositRequirementView } from '#common/contract/deposits.ts';
import type { DinerReservation, ReservationDetail, ReservationSummary } from '#common/contract/reservations.ts';
import { summaryBuckets } from '#common/domain/reservation-status.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { notFound } from '#server/errors.ts';
import { requireDiner, type Principal } from '#server/modules/accounts/principal.ts';
import type { CurrentRequirement } from './deposit-requirement.ts';
import { assertMayActOnAsDiner, assertMayMoveAsDiner } from './diner-access.ts';
import { countReservationEvents, countReservationsByStatus, findReservation, listReservationsOfUser, type ReservationRow } from './reservations.repository.ts';
import { RESERVATION_NOT_FOUND, toDinerReservation } from './reservation-view.ts';

/** A reservation reached through a signed link: as its diner sees it, its owner, and its count of changes. */
export interface LinkedReservation {
  reservation: DinerReservation;
  userId: string;
  changes: number;
}

/** Reservations as their diner reads them: the list, the counts, one by its id, and one reached by a signed link. */
export function createReservationReads({ db, clock, config }: Pick<AppDeps, 'db' | 'clock' | 'config'>, currentRequirement: CurrentRequirement) {
  return {
    /** The signed-in diner's reservations. */
    async listMyReservations(principal: Principal): Promise<DinerReservation[]> {
      requireDiner(principal);
      const now = clock.now();
      return (await listReservationsOfUser(db, principal.userId, now)).map((row) => toDinerReservation(row, now, config.bookingCutoffMinutes));
    },

    /** pending = HELD + PENDING, ongoing = CONFIRMED + SEATED, completed = COMPLETED. */
    async getMySummary(principal: Principal): Promise<ReservationSummary> {
      requireDiner(principal);
      const counts = await countReservationsByStatus(db, principal.userId, clock.now());
      const total = (statuses: readonly string[]) => statuses.reduce((sum, status) => sum + (counts.get(status) ?? 0), 0);
      return { pending: total(summaryBuckets.pending), ongoing: total(summaryBuckets.ongoing), completed: total(summaryBuckets.completed) };
    },

    /** One reservation by its unguessable id (the hold screen sends no token). */
    async getReservation(principal: Principal, id: string): Promise<ReservationDetail> {
      const row = await findReservation(db, id);
      if (!row) throw notFound(RESERVATION_NOT_FOUND);
      assertMayActOnAsDiner(principal, row);
      const now = clock.now();
      // The policy as it is now; once paid, the booking keeps the terms it was asked (decision 132).
      return { ...toDinerReservation(row, now, config.bookingCutoffMinutes), deposit: toDepositRequirementView(await currentRequirement(principal, row, now)) };
    },

    /** The hold the diner asks to confirm (the id alone will do, as for Confirm itself); the deposits code decides what it costs. */
    async readHoldForConfirm(principal: Principal, id: string): Promise<ReservationRow> {
      const row = await findReservation(db, id);
      if (!row) throw notFound(RESERVATION_NOT_FOUND);
      assertMayMoveAsDiner(principal, row, 'confirm', clock.now());
      return row;
    },

    /**
     * A reservation as its diner sees it, with its owner and how many changes it has had, for a
     * page or file reached by a signed link (the caller has checked the link; `reservationId` is
     * what the link is bound to). Pass `tx` to read inside a move's transaction.
     */
    async findForLink(reservationId: string, tx: Db = db): Promise<LinkedReservation | undefined> {
      const row = await findReservation(tx, reservationId);
      const changes = await countReservationEvents(tx, reservationId);
      return row && { reservation: toDinerReservation(row, clock.now()), userId: row.user_id, changes };
    },
  };
}
