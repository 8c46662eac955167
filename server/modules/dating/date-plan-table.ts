import { keptShare } from '#common/domain/deposit-policy.ts';
import {
  DATE_ACCOUNT_ID,
  datePlanMove,
  settleDatePlan,
  type DateDepositMove,
  type DatePlanEvent,
  type DatePlanStatus,
  type DateSettlement,
} from '#common/domain/dating-plan.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { anonymous } from '#server/modules/accounts/principal.ts';
import type { PaymentsService } from '#server/modules/payments/payments.service.ts';
import type { DateCancelReason, MoveStep } from '#server/modules/reservations/move-reservation.ts';
import { RESERVATION_NOT_FOUND } from '#server/modules/reservations/reservation-view.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import { noticeOfEvent, type DatePlanNotices, type PlanNotice } from './date-plan-notices.ts';
import { insertBlock } from './dating-matches.repository.ts';
import {
  findPlan,
  findPlanOfReservation,
  insertStrike,
  listPlanMembers,
  markArrived,
  markDepositMoveDone,
  recordDepositMove,
  setPlanStatus,
  type PlanMemberRow,
  type PlanRow,
} from './date-plans.repository.ts';

export { DATE_ACCOUNT_ID } from '#common/domain/dating-plan.ts';

/** A refusal that names the plan's status, like the reservations' refusals do. */
export function notNow(status: DatePlanStatus, what: string): Error {
  return conflict(`This date plan is ${status.toLowerCase()}, so it cannot be ${what} now`, { status });
}

/** Releases every paid deposit of a plan that closes before the date (declined, lapsed, replaced). */
export function releaseAll(members: PlanMemberRow[]): DateSettlement {
  return { status: 'CANCELLED', moves: Object.fromEntries(members.map((member) => [member.member_id, { move: 'release' as const }])), flaked: [] };
}

/** What a plan's decision answers: its event, how its deposits settle, and more work in the same transaction. */
export interface PlanDecision {
  event: DatePlanEvent;
  settlement?: DateSettlement;
  afterwards?: (tx: Db) => Promise<void>;
  /** What the members are told by push (decision 227); by default what the event tells, null for nothing. */
  notice?: PlanNotice | null;
}

/** Why a date deposit moves, as the provider call records it. */
function reasonOf(planId: string, move: DateDepositMove['move'], paise: number | null): string {
  if (move === 'keep') return paise ? `nobody came to date ${planId}` : `nobody came to date ${planId}; the policy keeps nothing`;
  return `date plan ${planId} closed`;
}

/**
 * A plan and its table move together (decision 184): every change of a plan that moves its table
 * runs under the reservation's row lock, inside the reservation's move, and writes the plan's
 * deposit moves, flakes' strikes and blocks with it; payments then takes the deposit moves
 * through its one money-move executor.
 */
export function createDatePlanTable(
  { db, clock }: Pick<AppDeps, 'db' | 'clock'>,
  reservations: ReservationsService,
  payments: PaymentsService,
  restaurants: RestaurantsService,
  notices: DatePlanNotices,
) {
  /**
   * Writes a plan's move, its deposit moves, for flakes their strikes and a block between the two,
   * and the members' pushes of the change (decision 227). Answers the pushes' message ids, to
   * deliver once the transaction commits.
   */
  async function applyPlanEvent(
    tx: Db,
    plan: PlanRow,
    event: DatePlanEvent,
    settlement: DateSettlement | undefined,
    now: Date,
    notice: PlanNotice | null = noticeOfEvent(event),
  ): Promise<string[]> {
    const to = datePlanMove(plan.status, event);
    if (!to) throw notNow(plan.status, 'changed');
    await setPlanStatus(tx, plan.id, to, now);
    const messageIds = notice ? await notices.tell(tx, plan.id, notice) : [];
    if (!settlement) return messageIds;
    for (const member of await listPlanMembers(tx, [plan.id])) {
      const flaked = settlement.flaked.includes(member.member_id);
      // A member who never paid has nothing to move.
      if (member.intent_id) await recordDepositMove(tx, { planId: plan.id, memberId: member.member_id, move: settlement.moves[member.member_id]!, flaked });
      if (!flaked) continue;
      await insertStrike(tx, { memberId: member.member_id, planId: plan.id, reason: settlement.flakeReason ?? 'NOT_ARRIVED', now });
      // The two are never suggested to each other again, nor see each other's profile.
      await insertBlock(tx, member.member_id, member.member_id === plan.member_a ? plan.member_b : plan.member_a);
    }
    return messageIds;
  }

  /** Hands each decided deposit move of a plan to payments' executor, under the move's own key; left undone for the sweep when payments cannot take it yet. */
  async function settleMoves(planId: string): Promise<void> {
    for (const member of await listPlanMembers(db, [planId])) {
      if (!member.deposit_move || !member.deposit_move_key || member.deposit_move_done_at || !member.intent_id) continue;
      await payments.settleMoneyMove(
        {
          intentId: member.intent_id,
          key: member.deposit_move_key,
          kind: member.deposit_move,
          paise: member.deposit_move_paise ?? 0,
          toAccountId: member.deposit_move_to ?? undefined,
          reason: reasonOf(planId, member.deposit_move, member.deposit_move_paise),
        },
        () => markDepositMoveDone(db, planId, member.member_id, clock.now()),
      );
    }
  }

  /**
   * Moves the plan's reservation and, in the same transaction under its row lock, the plan: the
   * plan is read again locked, `decide` answers its event (or throws a refusal), and the move's
   * settlement of the deposits is written with it. Money moves are taken after commit.
   */
  async function movePlanAndTable(
    plan: PlanRow,
    table: { to: 'CONFIRMED' | 'CANCELLED' | 'SEATED' | 'NO_SHOW'; by: 'member' | 'plan'; cancelReason?: DateCancelReason },
    decide: (tx: Db, locked: PlanRow, members: PlanMemberRow[], now: Date) => Promise<PlanDecision>,
  ): Promise<void> {
    let messageIds: string[] = [];
    await reservations.moveReservation({
      id: plan.reservation_id,
      to: table.to,
      cause: { kind: 'datePlan', by: table.by, cancelReason: table.cancelReason },
      // The reservation must be one of the platform account's own.
      authorise: (row) => {
        if (row.user_id !== DATE_ACCOUNT_ID) throw notFound(RESERVATION_NOT_FOUND);
      },
      alsoInTransaction: async (tx) => {
        const locked = (await findPlan(tx, plan.id, { forUpdate: true }))!;
        const now = clock.now();
        const { event, settlement, afterwards, notice } = await decide(tx, locked, await listPlanMembers(tx, [plan.id]), now);
        messageIds = await applyPlanEvent(tx, locked, event, settlement, now, notice === undefined ? noticeOfEvent(event) : notice);
        await afterwards?.(tx);
      },
    });
    notices.deliver(messageIds);
    await settleMoves(plan.id);
  }

  /**
   * The move step of a date's table (registered in server/composition.ts): its two deposits are
   * held on the plan, so like a booking with a deposit it may be cancelled up to the start; and
   * staff moves on the table settle the plan with it (a date is a booking like any other at the door).
   */
  const tableMoveStep: MoveStep = async (_tx, reservation) => {
    if (reservation.userId !== DATE_ACCOUNT_ID) return;
    return {
      carriesDeposit: true,
      async afterMove(tx, move) {
        if (!['SEATED', 'NO_SHOW', 'CANCELLED'].includes(move.to)) return;
        const plan = await findPlanOfReservation(tx, move.id, { forUpdate: true });
        // Moves the plan made itself have already settled it (its own work runs before the steps).
        if (!plan || (plan.status !== 'BOOKED' && plan.status !== 'PROPOSED')) return;
        const now = clock.now();
        if (plan.status === 'PROPOSED') {
          // A proposed plan's hold went another way than through its plan: the plan closes with
          // nobody at fault and any deposit paid is released (decision 207).
          if (move.to !== 'CANCELLED') return;
          const told = await applyPlanEvent(tx, plan, 'declined', releaseAll(await listPlanMembers(tx, [plan.id])), now);
          // Taken before the caller is answered; left undone for the sweep if payments cannot take it yet.
          return () => {
            notices.deliver(told);
            return settleMoves(plan.id).catch(() => undefined);
          };
        }
        const members = await listPlanMembers(tx, [plan.id]);
        const pair = [plan.member_a, plan.member_b] as const;
        let told: string[] = [];
        if (move.to === 'SEATED') {
          await markArrived(tx, plan.id, pair, now);
          await applyPlanEvent(tx, plan, 'bothArrived', settleDatePlan(pair, { kind: 'arrivals', arrived: new Set(pair), noShowKeepPaise: 0 }), now);
        } else if (move.to === 'NO_SHOW') {
          const policy = await restaurants.getDepositPolicy(anonymous, plan.restaurant_id, tx);
          const settlement = settleDatePlan(pair, {
            kind: 'arrivals',
            arrived: new Set(members.filter((m) => m.arrived_at).map((m) => m.member_id)),
            noShowKeepPaise: keptShare(plan.deposit_paise, policy.noShowKeepPercent),
          });
          await applyPlanEvent(tx, plan, settlement.status === 'NO_SHOW' ? 'bothFlaked' : 'oneFlaked', settlement, now);
        } else {
          told = await applyPlanEvent(tx, plan, 'cancelledInTime', settleDatePlan(pair, { kind: 'restaurantCancel' }), now);
        }
        return () => {
          notices.deliver(told);
          void settleMoves(plan.id);
        };
      },
    };
  };

  return {
    applyPlanEvent,
    settleMoves,
    movePlanAndTable,
    tableMoveStep,

    /** Both have paid: the table is booked (HELD → CONFIRMED, by the plan), unless the plan closed meanwhile. */
    async bookIfBothPaid(planId: string): Promise<boolean> {
      const plan = await findPlan(db, planId);
      if (!plan || plan.status !== 'PROPOSED') return false;
      const members = await listPlanMembers(db, [planId]);
      if (members.some((member) => !member.paid_at)) return false;
      await movePlanAndTable(plan, { to: 'CONFIRMED', by: 'plan' }, async (_tx, locked, lockedMembers) => {
        if (locked.status !== 'PROPOSED' || lockedMembers.some((member) => !member.paid_at)) throw notNow(locked.status, 'booked');
        return { event: 'bothPaid' };
      });
      return true;
    },
  };
}

export type DatePlanTable = ReturnType<typeof createDatePlanTable>;
