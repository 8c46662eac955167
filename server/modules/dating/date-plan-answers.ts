import type { AcceptDatePlanResponse, AfterDateBody, DatePlan, DatePlansResponse } from '#common/contract/dating-plans.ts';
import { isLateDateCancel, settleDatePlan, wantSecondDate } from '#common/domain/dating-plan.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict } from '#server/errors.ts';
import { requireDating, type Principal } from '#server/modules/accounts/principal.ts';
import type { PaymentsService } from '#server/modules/payments/payments.service.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import type { DatePlanProposals, PlacedPlan } from './date-plan-proposals.ts';
import { notNow, releaseAll, type DatePlanTable } from './date-plan-table.ts';
import type { DatePlanViews } from './date-plan-views.ts';
import {
  countStrikes,
  findPlan,
  listMatchesWithoutPlan,
  listPlanMembers,
  listPlansOfMember,
  setAfterDateOnce,
  setAnswer,
  setIntentOnce,
} from './date-plans.repository.ts';

export const NO_OTHER_OPTION = 'We could not find another table for you both this week. Your current plan stays open.';
const LIST_LIMIT = 20;

/**
 * A member's answers to a plan (decision 184): see their plans, accept by paying, decline, ask
 * once for another option, cancel a booked date, and say after it whether they would meet again.
 */
export function createDatePlanAnswers(
  { db, clock, log }: Pick<AppDeps, 'db' | 'clock' | 'log'>,
  reservations: ReservationsService,
  payments: PaymentsService,
  proposals: DatePlanProposals,
  table: DatePlanTable,
  views: DatePlanViews,
) {
  const { planOfMember, memberView } = views;

  return {
    /** GET /dating/plans: the member's plans, newest first; a mutual yes without a plan gets one proposed now, if a table fits. */
    async listPlans(principal: Principal): Promise<DatePlansResponse> {
      requireDating(principal);
      const memberId = principal.datingUserId;
      for (const match of await listMatchesWithoutPlan(db, memberId)) {
        await proposals.propose(match.member_a, match.member_b).catch((error: unknown) => log.warn({ err: error }, 'date plan not proposed'));
      }
      const plans = await listPlansOfMember(db, memberId, LIST_LIMIT);
      const members = await listPlanMembers(
        db,
        plans.map((plan) => plan.id),
      );
      const now = clock.now();
      return {
        plans: await Promise.all(
          plans.map((plan) =>
            views.viewOf(
              plan,
              members.filter((member) => member.plan_id === plan.id),
              memberId,
              now,
            ),
          ),
        ),
        strikes: await countStrikes(db, memberId),
      };
    },

    /**
     * POST /dating/plans/{planId}/accept: accepting is paying. One deposit intent per member and
     * plan (its idempotency key), for the amount the plan was proposed with, approved before the
     * deadline; a second press answers the same payment.
     */
    async accept(principal: Principal, planId: string): Promise<AcceptDatePlanResponse> {
      requireDating(principal);
      const memberId = principal.datingUserId;
      const plan = await planOfMember(planId, memberId);
      await db.transaction(async (tx) => {
        const locked = (await findPlan(tx, planId, { forUpdate: true }))!;
        if (locked.status !== 'PROPOSED' || clock.now() >= asDate(locked.deadline))
          throw notNow(locked.status === 'PROPOSED' ? 'EXPIRED' : locked.status, 'accepted');
        await setAnswer(tx, planId, memberId, 'ACCEPTED', clock.now());
      });
      const started = await payments.startAuthorisation({
        accountId: memberId,
        restaurantId: plan.restaurant_id,
        purpose: 'dating_deposit',
        datingPlanId: plan.id,
        amountPaise: plan.deposit_paise,
        idempotencyKey: `date-deposit:${plan.id}:${memberId}`,
        approveBy: asDate(plan.deadline),
      });
      await setIntentOnce(db, planId, memberId, started.intentId);
      return {
        plan: await memberView(planId, memberId),
        payment: { intentId: started.intentId, amountPaise: plan.deposit_paise, approvalUrl: started.approvalUrl },
      };
    },

    /** POST /dating/plans/{planId}/decline: the plan closes for both; the hold goes back to the restaurant and any deposit back to its member. */
    async decline(principal: Principal, planId: string): Promise<DatePlan> {
      requireDating(principal);
      const memberId = principal.datingUserId;
      const plan = await planOfMember(planId, memberId);
      if (plan.status !== 'PROPOSED') throw notNow(plan.status, 'declined');
      await table.movePlanAndTable(plan, { to: 'CANCELLED', by: 'member', cancelReason: 'DATE_DECLINED' }, async (tx, locked, members, now) => {
        if (locked.status !== 'PROPOSED') throw notNow(locked.status, 'declined');
        await setAnswer(tx, planId, memberId, 'DECLINED', now);
        return { event: 'declined', settlement: releaseAll(members), notice: { change: 'declined', by: memberId } };
      });
      return memberView(planId, memberId);
    },

    /**
     * POST /dating/plans/{planId}/another: once per match, a new plan at another restaurant replaces
     * this one, in the one transaction that lets the old one go, so a member who asks never ends
     * with nothing: without another option, 409 and the plan and its table stay.
     */
    async askAgain(principal: Principal, planId: string): Promise<DatePlan> {
      requireDating(principal);
      const memberId = principal.datingUserId;
      const plan = await planOfMember(planId, memberId);
      const view = await memberView(planId, memberId);
      if (!view.canAskAgain)
        throw conflict(
          plan.status === 'PROPOSED'
            ? 'You can ask for another option once per match'
            : `This date plan is ${plan.status.toLowerCase()}, so it cannot be changed now`,
        );
      // The new plan is placed in the transaction that lets the old one go: without one, both roll back.
      let next: PlacedPlan | undefined;
      await table.movePlanAndTable(plan, { to: 'CANCELLED', by: 'member', cancelReason: 'DATE_REPLACED' }, async (_tx, locked, members) => {
        if (locked.status !== 'PROPOSED') throw notNow(locked.status, 'changed');
        return {
          event: 'askedAgain',
          settlement: releaseAll(members),
          afterwards: async (tx) => {
            next = await proposals.proposeIn(tx, locked.member_a, locked.member_b, { plan: locked, why: 'askedAgain', by: memberId });
            if (!next) throw conflict(NO_OTHER_OPTION);
          },
        };
      });
      reservations.announceOfferedHold(next!.held);
      proposals.deliver(next!);
      return memberView(next!.id, memberId);
    },

    /**
     * POST /dating/plans/{planId}/cancel: a booked date, up to its start. Within 24 hours it is a
     * flake: the deposit goes to the other member, a strike, and the two never meet through us again.
     */
    async cancel(principal: Principal, planId: string): Promise<DatePlan> {
      requireDating(principal);
      const memberId = principal.datingUserId;
      const plan = await planOfMember(planId, memberId);
      if (plan.status !== 'BOOKED') throw notNow(plan.status, 'cancelled');
      if (clock.now() >= asDate(plan.starts_at)) throw conflict('The date has started, so it can no longer be cancelled', { status: plan.status });
      await table.movePlanAndTable(plan, { to: 'CANCELLED', by: 'member', cancelReason: 'DATE_CANCELLED' }, async (_tx, locked, _members, now) => {
        if (locked.status !== 'BOOKED') throw notNow(locked.status, 'cancelled');
        const late = isLateDateCancel(asDate(locked.starts_at), now);
        const settlement = settleDatePlan([locked.member_a, locked.member_b], { kind: 'memberCancel', by: memberId, late });
        return { event: late ? 'oneFlaked' : 'cancelledInTime', settlement, notice: { change: late ? 'cancelledLate' : 'cancelled', by: memberId } };
      });
      return memberView(planId, memberId);
    },

    /**
     * PUT /dating/plans/{planId}/after-date: "Did they show up?" and "Would you meet again?", once,
     * after a date both came to. Two members who both say yes to both get a second date proposed.
     */
    async answerAfterDate(principal: Principal, planId: string, answers: AfterDateBody): Promise<DatePlan> {
      requireDating(principal);
      const memberId = principal.datingUserId;
      const plan = await planOfMember(planId, memberId);
      if (plan.status !== 'SEATED') throw notNow(plan.status, 'answered about');
      if (!(await setAfterDateOnce(db, planId, memberId, answers))) throw conflict('You have already answered about this date');
      const members = await listPlanMembers(db, [planId]);
      if (wantSecondDate(members.map((member) => ({ showedUp: member.showed_up, meetAgain: member.meet_again })))) {
        await proposals
          .propose(plan.member_a, plan.member_b, { plan, why: 'secondDate' })
          .catch((error: unknown) => log.warn({ err: error, planId }, 'second date not proposed'));
      }
      return memberView(planId, memberId);
    },
  };
}
