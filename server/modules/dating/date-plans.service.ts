import type { AdminDate, AdminDatesResponse } from '#common/contract/dating-plans.ts';
import { formatTime12h, toKolkata } from '#common/domain/time.ts';
import { arrivalsOpenAt, canMarkArrivalAt, canUndoArrivalAt, DATE_ARRIVAL_UNDO_MINUTES } from '#common/domain/dating-plan.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { PaymentsService } from '#server/modules/payments/payments.service.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import { createDatePlanAnswers } from './date-plan-answers.ts';
import { createDatePlanEvents } from './date-plan-events.ts';
import { createDatePlanNotices } from './date-plan-notices.ts';
import { createDatePlanProposals } from './date-plan-proposals.ts';
import { createDatePlanSharing } from './date-plan-sharing.ts';
import { createDatePlanTable, notNow } from './date-plan-table.ts';
import { createDatePlanViews, PLAN_NOT_FOUND } from './date-plan-views.ts';
import { findPlan, listPlanMembers, markArrived, unmarkArrived } from './date-plans.repository.ts';

export { DATE_ACCOUNT_ID } from './date-plan-table.ts';

/**
 * Date plans (decision 184): a mutual yes becomes one concrete plan at a partner table, held for
 * two by the platform account (date-plan-proposals.ts); each member accepts by paying the deposit
 * (or declines, or asks once for another option) before the deadline (date-plan-answers.ts); both
 * paid books the table; at the table staff mark arrivals, and the plan settles what each deposit
 * becomes (date-plan-table.ts, date-plan-events.ts). Every change of a plan that moves its table
 * runs under the reservation's row lock, inside its move.
 */
export function createDatePlans(
  deps: AppDeps,
  reservations: ReservationsService,
  payments: PaymentsService,
  restaurants: RestaurantsService,
  notifications: NotificationsService,
) {
  const { db, clock } = deps;
  // Every change of a plan is pushed to its members' browsers (decision 227).
  const notices = createDatePlanNotices(notifications);
  const table = createDatePlanTable(deps, reservations, payments, restaurants, notices);
  const views = createDatePlanViews(deps, payments);
  const proposals = createDatePlanProposals(deps, reservations, notices);
  const events = createDatePlanEvents(deps, restaurants, table, notices);

  return {
    ...createDatePlanAnswers(deps, reservations, payments, proposals, table, views),
    ...createDatePlanSharing(deps, views),

    /** Listener of payments' status changes of dating deposits (server/composition.ts). */
    onPaymentChange: events.onPaymentChange,
    /** Listener of moderators' suspensions (server/composition.ts). */
    onMemberSuspended: events.onMemberSuspended,
    /** Listener of members' blocks and reports (server/composition.ts). */
    onPairBlocked: events.onPairBlocked,
    /** Move step of every reservation move: a date's table (server/composition.ts). */
    tableMoveStep: table.tableMoveStep,
    sweep: events.sweep,

    /** GET /api/admin/dates?date=: the staff's restaurant's booked dates on a Kolkata day. */
    async listDatesOfDay(principal: Principal, date: string): Promise<AdminDatesResponse> {
      requireStaff(principal);
      return views.datesOfDay(principal.restaurantId, date);
    },

    /**
     * POST /api/admin/dates/{planId}/arrivals: one member is at the table. The second arrival seats
     * the table (the staff's own Seat) and turns both deposits into credit on the bill.
     */
    async markArrival(principal: Principal, planId: string, memberId: string): Promise<AdminDate> {
      requireStaff(principal);
      const plan = await findPlan(db, planId);
      if (!plan || plan.restaurant_id !== principal.restaurantId) throw notFound(PLAN_NOT_FOUND);
      if (memberId !== plan.member_a && memberId !== plan.member_b) throw notFound('That member is not on this date');
      const bothHere = await db.transaction(async (tx) => {
        const locked = (await findPlan(tx, planId, { forUpdate: true }))!;
        if (locked.status !== 'BOOKED') throw notNow(locked.status, 'marked as arrived');
        // Not before 30 minutes ahead of the start (decision 253): an early mark would settle the date.
        const startsAt = asDate(locked.starts_at);
        if (!canMarkArrivalAt(startsAt, clock.now())) {
          throw conflict(`Arrivals for this date can be marked from ${formatTime12h(toKolkata(arrivalsOpenAt(startsAt)).time)}, 30 minutes before it starts.`);
        }
        await markArrived(tx, planId, [memberId], clock.now());
        return (await listPlanMembers(tx, [planId])).every((member) => member.arrived_at !== null);
      });
      // The staff's Seat: the table's move step settles the plan (both arrived) in the same transaction.
      if (bothHere) {
        await reservations.moveReservationAsStaff(principal, plan.reservation_id, 'SEATED');
        await table.settleMoves(planId);
      }
      return dateOfPlan(plan);
    },

    /**
     * DELETE /api/admin/dates/{planId}/arrivals/{memberId}: an arrival marked by mistake, undone
     * within 10 minutes, while the other member has not arrived (decision 253); once both are in,
     * the table is seated and the deposits are credit, and it stays so.
     */
    async undoArrival(principal: Principal, planId: string, memberId: string): Promise<AdminDate> {
      requireStaff(principal);
      const plan = await findPlan(db, planId);
      if (!plan || plan.restaurant_id !== principal.restaurantId) throw notFound(PLAN_NOT_FOUND);
      if (memberId !== plan.member_a && memberId !== plan.member_b) throw notFound('That member is not on this date');
      await db.transaction(async (tx) => {
        const locked = (await findPlan(tx, planId, { forUpdate: true }))!;
        if (locked.status !== 'BOOKED') throw notNow(locked.status, 'changed at the table');
        const member = (await listPlanMembers(tx, [planId])).find((candidate) => candidate.member_id === memberId)!;
        if (member.arrived_at === null) throw conflict(`${member.first_name} is not marked as arrived.`);
        if (!canUndoArrivalAt(asDate(member.arrived_at), clock.now())) {
          throw conflict(`${member.first_name}'s arrival was marked more than ${DATE_ARRIVAL_UNDO_MINUTES} minutes ago and can no longer be undone.`);
        }
        await unmarkArrived(tx, planId, memberId);
      });
      return dateOfPlan(plan);
    },
  };

  /** The date as the staff's list shows it, found by its plan (whatever day its table is on). */
  async function dateOfPlan(plan: { id: string; restaurant_id: string; starts_at: Date | string }): Promise<AdminDate> {
    const day = toKolkata(asDate(plan.starts_at)).date;
    return (await views.datesOfDay(plan.restaurant_id, day, plan.id)).dates[0]!;
  }
}

export type DatePlansService = ReturnType<typeof createDatePlans>;
