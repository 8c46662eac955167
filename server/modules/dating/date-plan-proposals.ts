import { DATE_PARTY_SIZE, PLAN_HORIZON_DAYS, PLAN_MIN_LEAD_HOURS, PLAN_MIN_LEAD_HOURS_WITHOUT_CONSENT, planDeadline } from '#common/domain/dating-plan.ts';
import { HOUR_MS } from '#common/domain/time.ts';
import { asDate, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import type { DatePlanNotices } from './date-plan-notices.ts';
import { DATE_ACCOUNT_ID } from './date-plan-table.ts';
import { hasOpenProposal, hasRoomForUnpaidDate, lockEveningsOfSlots, lockMembers } from './date-plan-limits.repository.ts';
import { findPlanCandidates, insertPlan, listPlansOfPair, type PlanRow } from './date-plans.repository.ts';

const CANDIDATES_TRIED = 5;

/** A plan just proposed, and the platform's hold behind it (announced once its transaction committed). */
export interface PlacedPlan {
  id: string;
  held: NonNullable<Awaited<ReturnType<ReservationsService['createHoldForPlatform']>>>;
  /** The members' pushes of the new plan (decision 227), sent once its transaction committed. */
  messageIds: string[];
}

/** Why a pair gets a plan after an earlier one: a member (`by`) asked for another option, or both want a second date. */
export type ProposalAfter = { plan: PlanRow; why: 'askedAgain'; by: string } | { plan: PlanRow; why: 'secondDate' };

/**
 * A pair's plan proposed (decision 184): one SQL statement picks the earliest partner tables both
 * members are free for, in budget, nearest their homes, at least 24 hours ahead unless both said
 * "tonight is fine" (decision 252); the first that still takes two becomes
 * the platform's hold for the pair, lasting until the plan's deadline. Unpaid holds are bounded
 * (decision 209): a member on a proposed plan gets no other until it closes or is booked, and a
 * restaurant's evening gives proposed plans only a share of its seats.
 */
export function createDatePlanProposals(
  { db, clock, config }: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  reservations: ReservationsService,
  notices: DatePlanNotices,
) {
  /** `propose` inside the caller's transaction; the caller announces the hold after commit. */
  async function proposeIn(tx: Db, memberA: string, memberB: string, after?: ProposalAfter): Promise<PlacedPlan | undefined> {
    await lockMembers(tx, [memberA, memberB]);
    const earlier = await listPlansOfPair(tx, memberA, memberB);
    if (earlier.some((plan) => plan.status === 'PROPOSED' || plan.status === 'BOOKED')) return undefined;
    if (!after && earlier.length > 0) return undefined;
    const now = clock.now();
    // One unpaid plan per member at a time (decision 209): the member's other matches wait for it to close or be booked.
    if (await hasOpenProposal(tx, [memberA, memberB], now)) return undefined;
    const candidates = await findPlanCandidates(tx, {
      memberA,
      memberB,
      now,
      earliest: new Date(now.getTime() + PLAN_MIN_LEAD_HOURS_WITHOUT_CONSENT * HOUR_MS),
      earliestIfBothSayTonight: new Date(now.getTime() + PLAN_MIN_LEAD_HOURS * HOUR_MS),
      latest: new Date(now.getTime() + PLAN_HORIZON_DAYS * 24 * HOUR_MS),
      excludeRestaurantIds: earlier.map((plan) => plan.restaurant_id),
      limit: CANDIDATES_TRIED,
    });
    // Counted again under the evenings' locks: proposals for other pairs may have taken their share since.
    await lockEveningsOfSlots(
      tx,
      candidates.map((candidate) => candidate.slot_id),
    );
    for (const candidate of candidates) {
      if (!(await hasRoomForUnpaidDate(tx, { slotId: candidate.slot_id, memberA, memberB, now }))) continue;
      const startsAt = asDate(candidate.starts_at);
      const deadline = planDeadline(now, startsAt);
      const held = await reservations.createHoldForPlatform(tx, {
        userId: DATE_ACCOUNT_ID,
        slotId: candidate.slot_id,
        partySize: DATE_PARTY_SIZE,
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
      // The member who asked again knows; the other hears that the table changed (decision 227).
      const notice = after?.why === 'askedAgain' ? { change: 'replaced' as const, by: after.by } : { change: 'proposed' as const };
      return { id, held, messageIds: await notices.tell(tx, id, notice) };
    }
    return undefined;
  }

  return {
    proposeIn,

    /** After the proposal's transaction committed: its pushes go out. */
    deliver(placed: PlacedPlan): void {
      notices.deliver(placed.messageIds);
    },

    /**
     * Proposes the pair's best plan now: the first of a match, one replacing `after` when a member
     * asked again, or a second date after `after` was seated and both would meet again. Undefined
     * when no table fits, or the pair already has its plan.
     */
    async propose(memberA: string, memberB: string, after?: ProposalAfter): Promise<string | undefined> {
      const placed = await db.transaction((tx) => proposeIn(tx, memberA, memberB, after));
      if (!placed) return undefined;
      reservations.announceOfferedHold(placed.held);
      notices.deliver(placed.messageIds);
      return placed.id;
    },
  };
}

export type DatePlanProposals = ReturnType<typeof createDatePlanProposals>;
