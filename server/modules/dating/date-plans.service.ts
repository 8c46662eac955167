import {
  DATE_SHARE_MESSAGES,
  type AcceptDatePlanResponse,
  type AdminDate,
  type AdminDatesResponse,
  type AfterDateBody,
  type DateDepositState,
  type DatePlan,
  type DatePlanShareLink,
  type DatePlansResponse,
  type SharedDatePlan,
} from '#common/contract/dating-plans.ts';
import { keptShare } from '#common/domain/deposit-policy.ts';
import {
  datePlanMove,
  isArrivalGraceOver,
  isLateDateCancel,
  PLAN_HORIZON_DAYS,
  PLAN_MIN_LEAD_HOURS,
  planDeadline,
  settleDatePlan,
  shareLinkExpiry,
  wantSecondDate,
  DATE_ARRIVAL_GRACE_MINUTES,
  type DatePlanEvent,
  type DatePlanStatus,
  type DateSettlement,
} from '#common/domain/dating-plan.ts';
import type { PaymentIntent } from '#common/contract/payments.ts';
import { toKolkata } from '#common/domain/time.ts';
import { asDate, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, conflict, notFound } from '#server/errors.ts';
import { createSigningKey, readRecordLink, signRecordLink } from '#server/signing.ts';
import { anonymous, requireDating, requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { PaymentStatusChange, PaymentsService } from '#server/modules/payments/payments.service.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import { toRestaurantRef } from '#server/modules/restaurants/restaurant-sql.ts';
import type { DatingModeration } from './dating-moderation.service.ts';
import { insertBlock } from './dating-matches.repository.ts';
import {
  countStrikes,
  findPlan,
  findPlanIdOfIntent,
  findPlanWithRestaurant,
  findPlanOfReservation,
  findPlanCandidates,
  insertPlan,
  insertStrike,
  listBookedPastGrace,
  listDatesOfDay,
  listLapsedProposals,
  listMatchesWithoutPlan,
  listOpenPlansOfMember,
  listPaidProposals,
  listPlanMembers,
  listPlansOfMember,
  listPlansOfPair,
  listPlansWithUndoneMoves,
  lockPair,
  markArrived,
  markDepositMoveDone,
  markPaid,
  recordDepositMove,
  setAfterDateOnce,
  setAnswer,
  setIntentOnce,
  setPlanStatus,
  type MemberPlanRow,
  type PlanMemberRow,
  type PlanRow,
} from './date-plans.repository.ts';

/** The platform account that holds every date's table (migration 0015, decision 184). */
export const DATE_ACCOUNT_ID = '00000000-0000-4000-8000-00000000da7e';
export const PLAN_NOT_FOUND = 'Date plan not found';
export const NO_OTHER_OPTION = 'We could not find another table for you both this week. Your current plan stays open.';
const CANDIDATES_TRIED = 5;
const LIST_LIMIT = 20;
const SWEEP_BATCH = 100;
const HOUR_MS = 3_600_000;

/** A plan just proposed, and the platform's hold behind it (announced once its transaction committed). */
interface PlacedPlan {
  id: string;
  held: NonNullable<Awaited<ReturnType<ReservationsService['createHoldForPlatform']>>>;
}

const iso = (value: Date | string) => asDate(value).toISOString();

/** A refusal that names the plan's status, like the reservations' refusals do. */
function notNow(status: DatePlanStatus, what: string): Error {
  return conflict(`This date plan is ${status.toLowerCase()}, so it cannot be ${what} now`, { status });
}

/** What a member's deposit is, from its intent and the move decided for it. */
function depositStateOf(member: PlanMemberRow, intent: PaymentIntent | undefined): DateDepositState {
  if (!member.intent_id || !intent) return member.answer === 'ACCEPTED' ? 'awaiting_payment' : 'none';
  switch (intent.status) {
    case 'CREATED':
    case 'FAILED':
      return 'awaiting_payment';
    case 'EXPIRED':
      return 'none';
    case 'RELEASED':
    case 'REFUNDED':
      return 'released';
    case 'CAPTURED':
      return intent.capturePurpose === 'credit_at_table' ? 'credit_at_table' : intent.capturePurpose === 'pay_member' ? 'paid_to_partner' : 'kept';
    default:
      // AUTHORISED, or a move on its way: the words of the move once decided, else held.
      if (member.deposit_move === 'credit_at_table') return 'credit_at_table';
      if (member.deposit_move === 'pay_member') return 'paid_to_partner';
      if (member.deposit_move === 'keep') return 'kept';
      if (member.deposit_move === 'release') return 'released';
      return 'held';
  }
}

/**
 * Date plans (issue 15 items 3-5, decision 184): a mutual yes becomes one concrete plan at a
 * partner table, held for two by the platform account; each member accepts by paying the deposit
 * (or declines, or asks once for another option) before the deadline; both paid books the table;
 * at the table staff mark arrivals, and the plan settles what each deposit becomes. Every change
 * of a plan that moves its table runs under the reservation's row lock, inside its move.
 */
export function createDatePlans(
  deps: AppDeps,
  reservations: ReservationsService,
  payments: PaymentsService,
  restaurants: RestaurantsService,
  moderation: DatingModeration,
) {
  const { db, clock, config, log } = deps;
  const signingKey = createSigningKey(deps);

  /**
   * Proposes the pair's best plan now: the first of a match, one replacing `after` when a member
   * asked again, or a second date after `after` was seated and both would meet again. Undefined
   * when no table fits, or the pair already has its plan.
   */
  async function propose(memberA: string, memberB: string, after?: { plan: PlanRow; why: 'askedAgain' | 'secondDate' }): Promise<string | undefined> {
    const placed = await db.transaction((tx) => proposeIn(tx, memberA, memberB, after));
    if (!placed) return undefined;
    reservations.announceOfferedHold(placed.held);
    return placed.id;
  }

  /** `propose` inside the caller's transaction; the caller announces the hold after commit. */
  async function proposeIn(
    tx: Db,
    memberA: string,
    memberB: string,
    after?: { plan: PlanRow; why: 'askedAgain' | 'secondDate' },
  ): Promise<PlacedPlan | undefined> {
    await lockPair(tx, memberA, memberB);
    const earlier = await listPlansOfPair(tx, memberA, memberB);
    if (earlier.some((plan) => plan.status === 'PROPOSED' || plan.status === 'BOOKED')) return undefined;
    if (!after && earlier.length > 0) return undefined;
    const now = clock.now();
    const candidates = await findPlanCandidates(tx, {
      memberA,
      memberB,
      now,
      earliest: new Date(now.getTime() + PLAN_MIN_LEAD_HOURS * HOUR_MS),
      latest: new Date(now.getTime() + PLAN_HORIZON_DAYS * 24 * HOUR_MS),
      excludeRestaurantIds: earlier.map((plan) => plan.restaurant_id),
      limit: CANDIDATES_TRIED,
    });
    for (const candidate of candidates) {
      const startsAt = asDate(candidate.starts_at);
      const deadline = planDeadline(now, startsAt);
      const held = await reservations.createHoldForPlatform(tx, {
        userId: DATE_ACCOUNT_ID,
        slotId: candidate.slot_id,
        partySize: 2,
        holdUntil: deadline,
        reason: 'DATE_PLAN',
      });
      if (!held) continue;
      const id = await insertPlan(tx, {
        memberA,
        memberB,
        restaurantId: candidate.restaurant_id,
        reservationId: held.id,
        startsAt,
        deadline,
        depositPaise: config.datingDepositPaise,
        replacesPlanId: after?.why === 'askedAgain' ? after.plan.id : null,
        now,
      });
      return { id, held };
    }
    return undefined;
  }

  /** The plan, if `memberId` is one of its two members (anyone else is told it does not exist). */
  async function planOfMember(planId: string, memberId: string): Promise<PlanRow> {
    const plan = await findPlan(db, planId);
    if (!plan || (plan.member_a !== memberId && plan.member_b !== memberId)) throw notFound(PLAN_NOT_FOUND);
    return plan;
  }

  /**
   * Moves the plan's reservation and, in the same transaction under its row lock, the plan: the
   * plan is read again locked, `decide` answers its event (or throws a refusal), and the move's
   * settlement of the deposits is written with it. Money moves are taken after commit.
   */
  async function movePlanAndTable(
    plan: PlanRow,
    table: { to: 'CONFIRMED' | 'CANCELLED' | 'SEATED' | 'NO_SHOW'; by: 'member' | 'system'; cancelReason?: string },
    decide: (
      tx: Db,
      locked: PlanRow,
      members: PlanMemberRow[],
      now: Date,
    ) => Promise<{ event: DatePlanEvent; settlement?: DateSettlement; afterwards?: (tx: Db) => Promise<void> }>,
  ): Promise<void> {
    await reservations.moveDateReservation({
      reservationId: plan.reservation_id,
      platformUserId: DATE_ACCOUNT_ID,
      to: table.to,
      by: table.by,
      cancelReason: table.cancelReason,
      alsoInTransaction: async (tx) => {
        const locked = (await findPlan(tx, plan.id, { forUpdate: true }))!;
        const now = clock.now();
        const { event, settlement, afterwards } = await decide(tx, locked, await listPlanMembers(tx, [plan.id]), now);
        await applyPlanEvent(tx, locked, event, settlement, now);
        await afterwards?.(tx);
      },
    });
    await settleMoves(plan.id);
  }

  /** Writes a plan's move, its deposit moves, and for flakes their strikes and a block between the two. */
  async function applyPlanEvent(tx: Db, plan: PlanRow, event: DatePlanEvent, settlement: DateSettlement | undefined, now: Date): Promise<void> {
    const to = datePlanMove(plan.status, event);
    if (!to) throw notNow(plan.status, 'changed');
    await setPlanStatus(tx, plan.id, to, now);
    if (!settlement) return;
    for (const member of await listPlanMembers(tx, [plan.id])) {
      const flaked = settlement.flaked.includes(member.member_id);
      // A member who never paid has nothing to move.
      if (member.intent_id) await recordDepositMove(tx, { planId: plan.id, memberId: member.member_id, move: settlement.moves[member.member_id]!, flaked });
      if (!flaked) continue;
      await insertStrike(tx, { memberId: member.member_id, planId: plan.id, reason: settlement.flakeReason ?? 'NOT_ARRIVED', now });
      // The two are never suggested to each other again, nor see each other's profile.
      await insertBlock(tx, member.member_id, member.member_id === plan.member_a ? plan.member_b : plan.member_a);
    }
  }

  /** Releases every paid deposit of a plan that closes before the date (declined, lapsed, replaced). */
  function releaseAll(members: PlanMemberRow[]): DateSettlement {
    return { status: 'CANCELLED', moves: Object.fromEntries(members.map((member) => [member.member_id, { move: 'release' as const }])), flaked: [] };
  }

  /**
   * Hands each decided deposit move of a plan to payments, under the move's own key (a retry
   * repeats, never doubles). Left undone for the sweep when payments cannot take it yet.
   */
  async function settleMoves(planId: string): Promise<void> {
    for (const member of await listPlanMembers(db, [planId])) {
      if (!member.deposit_move || !member.deposit_move_key || member.deposit_move_done_at || !member.intent_id) continue;
      const key = member.deposit_move_key;
      try {
        const intent = await payments.readIntent(member.intent_id);
        if (intent.status === 'CREATED' || intent.status === 'FAILED' || intent.status === 'EXPIRED') {
          // Never approved: nothing to move; an approval arriving later is refused and released (onPaymentChange).
        } else if (member.deposit_move === 'release') {
          if (intent.status === 'AUTHORISED') await payments.release({ intentId: intent.id, idempotencyKey: key, reason: `date plan ${planId} closed` });
        } else if (member.deposit_move === 'credit_at_table') {
          await payments.creditAtTable({ intentId: intent.id, idempotencyKey: key });
        } else if (member.deposit_move === 'pay_member') {
          await payments.payToMember({ intentId: intent.id, toAccountId: member.deposit_move_to!, idempotencyKey: key });
        } else if (member.deposit_move_paise) {
          await payments.capture({
            intentId: intent.id,
            idempotencyKey: key,
            reason: `nobody came to date ${planId}`,
            amountPaise: member.deposit_move_paise,
            purpose: 'keep',
          });
        } else {
          await payments.release({ intentId: intent.id, idempotencyKey: key, reason: `nobody came to date ${planId}; the policy keeps nothing` });
        }
        await markDepositMoveDone(db, planId, member.member_id, clock.now());
      } catch (error) {
        log.warn({ err: error, planId, move: member.deposit_move }, 'date deposit move not taken yet; the sweep retries');
      }
    }
  }

  /** Both have paid: the table is booked (HELD → CONFIRMED, by the plan), unless the plan closed meanwhile. */
  async function bookIfBothPaid(planId: string): Promise<boolean> {
    const plan = await findPlan(db, planId);
    if (!plan || plan.status !== 'PROPOSED') return false;
    const members = await listPlanMembers(db, [planId]);
    if (members.some((member) => !member.paid_at)) return false;
    await movePlanAndTable(plan, { to: 'CONFIRMED', by: 'system' }, async (_tx, locked, lockedMembers) => {
      if (locked.status !== 'PROPOSED' || lockedMembers.some((member) => !member.paid_at)) throw notNow(locked.status, 'booked');
      return { event: 'bothPaid' };
    });
    return true;
  }

  /** Payments tells of a dating deposit's move; 'reject' releases an authorisation for a plan that is closed. */
  async function onPaymentChange(change: PaymentStatusChange): Promise<void | 'reject'> {
    if (change.purpose !== 'dating_deposit' || change.to !== 'AUTHORISED') return;
    const planId = await findPlanIdOfIntent(db, change.intentId);
    if (!planId) return 'reject';
    const plan = await findPlan(db, planId);
    if (!plan || plan.status !== 'PROPOSED' || clock.now() >= asDate(plan.deadline)) return 'reject';
    await markPaid(db, change.intentId, clock.now());
    try {
      await bookIfBothPaid(planId);
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
  }

  /** A member's view of one plan. */
  async function viewOf(plan: MemberPlanRow, members: PlanMemberRow[], memberId: string, now: Date): Promise<DatePlan> {
    const me = members.find((member) => member.member_id === memberId)!;
    const partner = members.find((member) => member.member_id !== memberId)!;
    const [myIntent, partnerIntent] = await Promise.all([me.intent_id, partner.intent_id].map((id) => (id ? payments.readIntent(id) : undefined)));
    const payout = partnerIntent && partner.deposit_move === 'pay_member' ? await payments.readPayoutOfIntent(partnerIntent.id) : undefined;
    const { date, time } = toKolkata(asDate(plan.starts_at));
    const flakedMe = me.flaked;
    const flakedPartner = partner.flaked;
    const pair = await listPlansOfPair(db, plan.member_a, plan.member_b);
    return {
      id: plan.id,
      status: plan.status,
      restaurant: toRestaurantRef(plan),
      startsAt: iso(plan.starts_at),
      date,
      time,
      deadline: iso(plan.deadline),
      depositPaise: plan.deposit_paise,
      partner: {
        memberId: partner.member_id,
        firstName: partner.first_name,
        accepted: partner.answer === 'ACCEPTED',
        paid: partner.paid_at !== null,
        arrived: partner.arrived_at !== null,
      },
      me: {
        answer: me.answer,
        paid: me.paid_at !== null,
        arrived: me.arrived_at !== null,
        deposit: depositStateOf(me, myIntent),
        approvalUrl:
          myIntent?.status === 'CREATED' || myIntent?.status === 'FAILED' ? (myIntent.provider === 'sandbox' ? `/pay/sandbox/${myIntent.id}` : null) : null,
      },
      payoutToMe: payout && payout.toAccountId === memberId ? { amountPaise: payout.amountPaise, status: payout.status } : null,
      flaked: flakedMe && flakedPartner ? 'both' : flakedMe ? 'me' : flakedPartner ? 'partner' : null,
      // Once per match: neither this plan nor any before it replaced another.
      canAskAgain: plan.status === 'PROPOSED' && now < asDate(plan.deadline) && !pair.some((earlier) => earlier.replaces_plan_id !== null),
      cancelIsLate: isLateDateCancel(asDate(plan.starts_at), now),
      isSecondDate: pair.some((earlier) => earlier.status === 'SEATED' && asDate(earlier.created_at) < asDate(plan.created_at)),
      afterDate: { showedUp: me.showed_up, meetAgain: me.meet_again, canAnswer: plan.status === 'SEATED' && me.showed_up === null },
    };
  }

  async function memberView(planId: string, memberId: string): Promise<DatePlan> {
    const plan = await findPlanWithRestaurant(db, planId);
    if (!plan || (plan.member_a !== memberId && plan.member_b !== memberId)) throw notFound(PLAN_NOT_FOUND);
    return viewOf(plan, await listPlanMembers(db, [plan.id]), memberId, clock.now());
  }

  /** The booked dates at a restaurant on a Kolkata day, as its staff see them. */
  async function datesOfDay(restaurantId: string, date: string): Promise<AdminDatesResponse> {
    const rows = await listDatesOfDay(db, restaurantId, date);
    const members = await listPlanMembers(
      db,
      rows.map((row) => row.id),
    );
    return {
      date,
      dates: rows.map((row) => ({
        planId: row.id,
        reservationId: row.reservation_id,
        status: row.status,
        startsAt: iso(row.starts_at),
        time: row.slot_time,
        members: members
          .filter((member) => member.plan_id === row.id)
          .map((member) => ({ memberId: member.member_id, firstName: member.first_name, arrived: member.arrived_at !== null })),
      })),
    };
  }

  payments.onStatusChange(onPaymentChange);

  // A suspended member's plans close with nobody at fault: each hold or booked table goes back and
  // both deposits are released (a date already under way settles by arrivals, as any other).
  moderation.onMemberSuspended(async (memberId) => {
    for (const plan of await listOpenPlansOfMember(db, memberId)) {
      await movePlanAndTable(plan, { to: 'CANCELLED', by: 'member', cancelReason: 'DATE_MEMBER_SUSPENDED' }, async (_tx, locked, members) => {
        if (locked.status === 'PROPOSED') return { event: 'declined', settlement: releaseAll(members) };
        if (locked.status === 'BOOKED') return { event: 'cancelledInTime', settlement: releaseAll(members) };
        throw notNow(locked.status, 'closed');
      }).catch((error: unknown) => log.warn({ err: error, planId: plan.id }, 'date plan of a suspended member not closed'));
    }
  });

  // Staff moves on a date's table settle the plan with it (a date is a booking like any other at the door).
  reservations.addMoveStep(async (tx, move) => {
    if (move.userId !== DATE_ACCOUNT_ID || !['SEATED', 'NO_SHOW', 'CANCELLED'].includes(move.to)) return;
    const plan = await findPlanOfReservation(tx, move.id, { forUpdate: true });
    // Moves the plan made itself have already settled it (its own step runs first).
    if (!plan || plan.status !== 'BOOKED') return;
    const now = clock.now();
    const members = await listPlanMembers(tx, [plan.id]);
    const pair = [plan.member_a, plan.member_b] as const;
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
      await applyPlanEvent(tx, plan, 'cancelledInTime', settleDatePlan(pair, { kind: 'restaurantCancel' }), now);
    }
    return () => void settleMoves(plan.id);
  });

  return {
    /** GET /dating/plans: the member's plans, newest first; a mutual yes without a plan gets one proposed now, if a table fits. */
    async listPlans(principal: Principal): Promise<DatePlansResponse> {
      requireDating(principal);
      const memberId = principal.datingUserId;
      for (const match of await listMatchesWithoutPlan(db, memberId)) {
        await propose(match.member_a, match.member_b).catch((error: unknown) => log.warn({ err: error }, 'date plan not proposed'));
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
            viewOf(
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
      await movePlanAndTable(plan, { to: 'CANCELLED', by: 'member', cancelReason: 'DATE_DECLINED' }, async (tx, locked, members, now) => {
        if (locked.status !== 'PROPOSED') throw notNow(locked.status, 'declined');
        await setAnswer(tx, planId, memberId, 'DECLINED', now);
        return { event: 'declined', settlement: releaseAll(members) };
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
      let next: Awaited<ReturnType<typeof proposeIn>>;
      await movePlanAndTable(plan, { to: 'CANCELLED', by: 'member', cancelReason: 'DATE_REPLACED' }, async (_tx, locked, members) => {
        if (locked.status !== 'PROPOSED') throw notNow(locked.status, 'changed');
        return {
          event: 'askedAgain',
          settlement: releaseAll(members),
          afterwards: async (tx) => {
            next = await proposeIn(tx, locked.member_a, locked.member_b, { plan: locked, why: 'askedAgain' });
            if (!next) throw conflict(NO_OTHER_OPTION);
          },
        };
      });
      reservations.announceOfferedHold(next!.held);
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
      await movePlanAndTable(plan, { to: 'CANCELLED', by: 'member', cancelReason: 'DATE_CANCELLED' }, async (_tx, locked, _members, now) => {
        if (locked.status !== 'BOOKED') throw notNow(locked.status, 'cancelled');
        const late = isLateDateCancel(asDate(locked.starts_at), now);
        const settlement = settleDatePlan([locked.member_a, locked.member_b], { kind: 'memberCancel', by: memberId, late });
        return { event: late ? 'oneFlaked' : 'cancelledInTime', settlement };
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
        await propose(plan.member_a, plan.member_b, { plan, why: 'secondDate' }).catch((error: unknown) =>
          log.warn({ err: error, planId }, 'second date not proposed'),
        );
      }
      return memberView(planId, memberId);
    },

    /** POST /dating/plans/{planId}/share: a link for a trusted contact, working until the end of the date. */
    async shareLink(principal: Principal, planId: string): Promise<DatePlanShareLink> {
      requireDating(principal);
      const plan = await planOfMember(planId, principal.datingUserId);
      if (plan.status !== 'PROPOSED' && plan.status !== 'BOOKED') throw notNow(plan.status, 'shared');
      const expiresAt = shareLinkExpiry(asDate(plan.starts_at));
      return { path: `/dating/share/${signRecordLink('datePlanShare', plan.id, expiresAt, await signingKey())}`, expiresAt: expiresAt.toISOString() };
    },

    /** GET /api/date-share/{token}: the plan as a trusted contact sees it; the link is the access. */
    async readSharedPlan(token: string): Promise<SharedDatePlan> {
      const link = readRecordLink(token, await signingKey());
      if (!link || link.purpose !== 'datePlanShare') throw badInput(DATE_SHARE_MESSAGES.invalid);
      if (link.instant.getTime() <= clock.now().getTime()) throw notFound(DATE_SHARE_MESSAGES.expired);
      const plan = await findPlanWithRestaurant(db, link.id);
      if (!plan) throw notFound(DATE_SHARE_MESSAGES.expired);
      const members = await listPlanMembers(db, [plan.id]);
      const { date, time } = toKolkata(asDate(plan.starts_at));
      return {
        restaurant: toRestaurantRef(plan),
        startsAt: iso(plan.starts_at),
        date,
        time,
        firstNames: members.map((member) => member.first_name),
        status: plan.status,
        expiresAt: link.instant.toISOString(),
      };
    },

    /** GET /api/admin/dates?date=: the staff's restaurant's booked dates on a Kolkata day. */
    async listDatesOfDay(principal: Principal, date: string): Promise<AdminDatesResponse> {
      requireStaff(principal);
      return datesOfDay(principal.restaurantId, date);
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
        await markArrived(tx, planId, [memberId], clock.now());
        return (await listPlanMembers(tx, [planId])).every((member) => member.arrived_at !== null);
      });
      // The staff's Seat: the move step above settles the plan (both arrived) in the same transaction.
      if (bothHere) {
        await reservations.moveReservationAsStaff(principal, plan.reservation_id, 'SEATED');
        await settleMoves(planId);
      }
      const day = toKolkata(asDate(plan.starts_at)).date;
      return (await datesOfDay(plan.restaurant_id, day)).dates.find((date) => date.planId === planId)!;
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
            if (!locked || locked.status !== 'PROPOSED') return;
            await applyPlanEvent(tx, locked, 'deadlinePassed', releaseAll(await listPlanMembers(tx, [planId])), clock.now());
          })
          .then(() => settleMoves(planId))
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
        await movePlanAndTable(plan, { to: anyoneCame ? 'SEATED' : 'NO_SHOW', by: 'system' }, async (tx, locked, lockedMembers) => {
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
      for (const planId of await listPlansWithUndoneMoves(db, SWEEP_BATCH)) {
        await settleMoves(planId);
        done += 1;
      }
      return done;
    },
  };
}

export type DatePlansService = ReturnType<typeof createDatePlans>;
