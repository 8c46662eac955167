import { keptShare } from '#common/domain/deposit-policy.ts';
import { DATE_ARRIVAL_GRACE_MINUTES, isArrivalGraceOver, settleDatePlan } from '#common/domain/dating-plan.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { anonymous } from '#server/modules/accounts/principal.ts';
import type { PaymentStatusChange } from '#server/modules/payments/payments.service.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import type { DatePlanNotices } from './date-plan-notices.ts';
import { notNow, releaseAll, type DatePlanTable } from './date-plan-table.ts';
import {
  findPlan,
  findPlanIdOfIntent,
  listBookedPastGrace,
  listLapsedProposals,
  listOpenPlansBetween,
  listOpenPlansOfBlockedPairs,
  listOpenPlansOfMember,
  listPaidProposals,
  listPlanMembers,
  listPlansWithUndoneMoves,
  markPaid,
  type PlanRow,
} from './date-plans.repository.ts';

const SWEEP_BATCH = 100;

/**
 * What payments, moderation and time do to a plan (decision 184): a member's deposit authorised
 * (the second books the table), a member suspended or a pair blocked (their plans close with nobody
 * at fault), and
 * the sweep (deadlines, arrivals, deposit moves left undone). The listeners are wired in
 * server/composition.ts.
 */
export function createDatePlanEvents(
  { db, clock, log }: Pick<AppDeps, 'db' | 'clock' | 'log'>,
  restaurants: RestaurantsService,
  table: DatePlanTable,
  notices: DatePlanNotices,
) {
  const { movePlanAndTable, applyPlanEvent, settleMoves, bookIfBothPaid } = table;

  /**
   * Closes an open plan with nobody at fault: its hold or booked table goes back, both deposits
   * released. The members are told it closed, not why; the one whose doing it was (`by`, a blocker
   * or the suspended member) is not told (decision 227).
   */
  async function closeWithNobodyAtFault(plan: PlanRow, cancelReason: 'DATE_MEMBER_SUSPENDED' | 'DATE_MEMBER_BLOCKED', by: string | null): Promise<void> {
    const notice = { change: 'closed' as const, by };
    await movePlanAndTable(plan, { to: 'CANCELLED', by: 'member', cancelReason }, async (_tx, locked, members) => {
      if (locked.status === 'PROPOSED') return { event: 'declined', settlement: releaseAll(members), notice };
      if (locked.status === 'BOOKED') return { event: 'cancelledInTime', settlement: releaseAll(members), notice };
      throw notNow(locked.status, 'closed');
    }).catch((error: unknown) => log.warn({ err: error, planId: plan.id }, 'date plan not closed; the sweep retries'));
  }

  /** One member's deposit is in and the table waits for the other's: the other hears they said yes (decision 227). */
  async function tellAccepted(planId: string, intentId: string): Promise<void> {
    const payer = (await listPlanMembers(db, [planId])).find((member) => member.intent_id === intentId);
    if (!payer) return;
    notices.deliver(await db.transaction((tx) => notices.tell(tx, planId, { change: 'accepted', by: payer.member_id })));
  }

  return {
    /** Listener of payments' status changes of dating deposits; 'reject' releases an authorisation for a plan that is closed. */
    async onPaymentChange(change: PaymentStatusChange): Promise<void | 'reject'> {
      if (change.to !== 'AUTHORISED') return;
      const planId = await findPlanIdOfIntent(db, change.intentId);
      if (!planId) return 'reject';
      const plan = await findPlan(db, planId);
      if (!plan || plan.status !== 'PROPOSED' || clock.now() >= asDate(plan.deadline)) return 'reject';
      await markPaid(db, change.intentId, clock.now());
      try {
        if (!(await bookIfBothPaid(planId))) await tellAccepted(planId, change.intentId);
      } catch (error) {
        // The plan closed or its hold lapsed meanwhile: this money goes back (the plan's own close
        // releases the other's). Anything else leaves the plan paid for, and the sweep books it.
        const current = await findPlan(db, planId);
        if (current?.status === 'PROPOSED' && clock.now() < asDate(current.deadline)) {
          log.warn({ err: error, planId }, 'a paid date plan was not booked yet; the sweep books it');
          return;
        }
        log.info({ err: error, planId }, 'a date deposit arrived for a plan that could not be booked');
        return 'reject';
      }
    },

    /**
     * Listener of moderators' suspensions: a suspended member's plans close with nobody at fault,
     * each hold or booked table goes back and both deposits are released (a date already under way
     * settles by arrivals, as any other).
     */
    async onMemberSuspended(memberId: string): Promise<void> {
      for (const plan of await listOpenPlansOfMember(db, memberId)) await closeWithNobodyAtFault(plan, 'DATE_MEMBER_SUSPENDED', memberId);
    },

    /**
     * Listener of a member's block or report of another (decision 205): every open plan between the
     * two closes with nobody at fault, as for a suspension: no strike, no payout, both deposits
     * released, the table back on sale and to its waitlist first.
     */
    async onPairBlocked(blockerId: string, blockedId: string): Promise<void> {
      for (const plan of await listOpenPlansBetween(db, blockerId, blockedId)) await closeWithNobodyAtFault(plan, 'DATE_MEMBER_BLOCKED', blockerId);
    },

    /**
     * The sweep (decision 184): proposals past their deadline lapse (any paid deposit released);
     * proposals both paid for whose booking never ran are booked; booked dates past the arrival
     * grace settle (one came: seated, the flake's deposit paid to them; nobody: no-show); deposit
     * moves left undone are taken (payments' own sweep sends the payouts left pending).
     */
    async sweep(): Promise<number> {
      let done = 0;
      const now = clock.now();
      for (const planId of await listLapsedProposals(db, now, SWEEP_BATCH)) {
        await db
          .transaction(async (tx) => {
            const locked = await findPlan(tx, planId, { forUpdate: true });
            if (!locked || locked.status !== 'PROPOSED') return [];
            return applyPlanEvent(tx, locked, 'deadlinePassed', releaseAll(await listPlanMembers(tx, [planId])), clock.now());
          })
          .then((messageIds) => {
            notices.deliver(messageIds);
            return settleMoves(planId);
          })
          .catch((error: unknown) => log.warn({ err: error, planId }, 'lapsed date plan not closed; the next sweep retries'));
        done += 1;
      }
      for (const planId of await listPaidProposals(db, SWEEP_BATCH)) {
        await bookIfBothPaid(planId).catch((error: unknown) => log.warn({ err: error, planId }, 'paid date plan not booked'));
        done += 1;
      }
      for (const planId of await listBookedPastGrace(db, new Date(now.getTime() - DATE_ARRIVAL_GRACE_MINUTES * 60_000), SWEEP_BATCH)) {
        const plan = await findPlan(db, planId);
        if (!plan || !isArrivalGraceOver(asDate(plan.starts_at), clock.now())) continue;
        const members = await listPlanMembers(db, [planId]);
        const anyoneCame = members.some((member) => member.arrived_at !== null);
        await movePlanAndTable(plan, { to: anyoneCame ? 'SEATED' : 'NO_SHOW', by: 'plan' }, async (tx, locked, lockedMembers) => {
          if (locked.status !== 'BOOKED') throw notNow(locked.status, 'settled');
          const policy = await restaurants.getDepositPolicy(anonymous, locked.restaurant_id, tx);
          const arrived = new Set(lockedMembers.filter((member) => member.arrived_at !== null).map((member) => member.member_id));
          const settlement = settleDatePlan([locked.member_a, locked.member_b], {
            kind: 'arrivals',
            arrived,
            noShowKeepPaise: keptShare(locked.deposit_paise, policy.noShowKeepPercent),
          });
          return { event: settlement.status === 'NO_SHOW' ? 'bothFlaked' : settlement.status === 'SEATED' ? 'bothArrived' : 'oneFlaked', settlement };
        }).catch((error: unknown) => log.warn({ err: error, planId }, 'date past its grace not settled; the next sweep retries'));
        done += 1;
      }
      for (const plan of await listOpenPlansOfBlockedPairs(db, now, SWEEP_BATCH)) {
        await closeWithNobodyAtFault(plan, 'DATE_MEMBER_BLOCKED', null);
        done += 1;
      }
      for (const planId of await listPlansWithUndoneMoves(db, SWEEP_BATCH)) {
        await settleMoves(planId);
        done += 1;
      }
      return done;
    },
  };
}
