import type { AdminDatesResponse, DateDepositState, DatePlan } from '#common/contract/dating-plans.ts';
import type { PaymentIntent } from '#common/contract/payments.ts';
import { arrivalsOpenAt, canUndoArrivalAt, DATE_ARRIVAL_UNDO_MINUTES, isLateDateCancel, lateCancelFrom, shareLinkWorks } from '#common/domain/dating-plan.ts';
import type { DateBudget } from '#common/domain/dating-profile.ts';
import { directionsUrlFor, photoUrl as restaurantPhotoUrl } from '#common/domain/restaurant-profile.ts';
import { toKolkata } from '#common/domain/time.ts';
import { asDate, iso } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { notFound } from '#server/errors.ts';
import type { PaymentsService } from '#server/modules/payments/payments.service.ts';
import { toRestaurantRef } from '#server/modules/restaurants/restaurant-sql.ts';
import {
  findPlan,
  findPlanWithRestaurant,
  listDatesOfDay,
  listPlanMembers,
  listPlansOfPair,
  type MemberPlanRow,
  type PlanMemberRow,
  type PlanRow,
} from './date-plans.repository.ts';
import { listPlanCards } from './date-plan-cards.repository.ts';
import { listPlansSharedBy } from './date-plan-shares.repository.ts';
import { datingPhotoUrl, sharedOf } from './dating-matches.service.ts';

export const PLAN_NOT_FOUND = 'Date plan not found';

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

/** Date plans as a member and the restaurant's staff see them, with each deposit's state from payments. */
export function createDatePlanViews({ db, clock }: Pick<AppDeps, 'db' | 'clock'>, payments: PaymentsService) {
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
    const [card] = await listPlanCards(db, [plan.id], memberId);
    const startsAt = asDate(plan.starts_at);
    const sharing = shareLinkWorks(plan.status, startsAt, now) && (await listPlansSharedBy(db, [plan.id], memberId)).has(plan.id);
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
        photoUrl: card.partner_photo_key && !card.blocked ? datingPhotoUrl(card.partner_photo_key) : null,
        blocked: card.blocked,
      },
      venue: {
        photoUrl: card.venue_photo_id ? restaurantPhotoUrl(card.venue_photo_id, 960) : card.hero_image_url,
        budget: card.budget as DateBudget | null,
        address: card.address,
        mapUrl: directionsUrlFor({
          directionsUrl: card.directions_url,
          address: card.address,
          name: plan.restaurant_name,
          position: card.lat !== null && card.lng !== null ? { lat: Number(card.lat), lng: Number(card.lng) } : null,
        }),
      },
      shared: sharedOf(card),
      lateCancel: { from: lateCancelFrom(startsAt).toISOString(), costPaise: plan.deposit_paise },
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
      sharing,
      // Once per match: neither this plan nor any before it replaced another.
      canAskAgain: plan.status === 'PROPOSED' && now < asDate(plan.deadline) && !pair.some((earlier) => earlier.replaces_plan_id !== null),
      cancelIsLate: isLateDateCancel(asDate(plan.starts_at), now),
      isSecondDate: pair.some((earlier) => earlier.status === 'SEATED' && asDate(earlier.created_at) < asDate(plan.created_at)),
      afterDate: { showedUp: me.showed_up, meetAgain: me.meet_again, canAnswer: plan.status === 'SEATED' && me.showed_up === null },
    };
  }

  return {
    viewOf,

    /** The plan, if `memberId` is one of its two members (anyone else is told it does not exist). */
    async planOfMember(planId: string, memberId: string): Promise<PlanRow> {
      const plan = await findPlan(db, planId);
      if (!plan || (plan.member_a !== memberId && plan.member_b !== memberId)) throw notFound(PLAN_NOT_FOUND);
      return plan;
    },

    /** One plan as `memberId` sees it (anyone else is told it does not exist). */
    async memberView(planId: string, memberId: string): Promise<DatePlan> {
      const plan = await findPlanWithRestaurant(db, planId);
      if (!plan || (plan.member_a !== memberId && plan.member_b !== memberId)) throw notFound(PLAN_NOT_FOUND);
      return viewOf(plan, await listPlanMembers(db, [plan.id]), memberId, clock.now());
    },

    /** The booked dates at a restaurant on a Kolkata day, as its staff see them. */
    async datesOfDay(restaurantId: string, date: string, onlyPlanId?: string): Promise<AdminDatesResponse> {
      const now = clock.now();
      const rows = await listDatesOfDay(db, restaurantId, date, onlyPlanId);
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
          arrivalsOpenAt: arrivalsOpenAt(asDate(row.starts_at)).toISOString(),
          members: members
            .filter((member) => member.plan_id === row.id)
            .map((member) => ({
              memberId: member.member_id,
              firstName: member.first_name,
              arrived: member.arrived_at !== null,
              // Undoable while the table is not seated yet (the other has not arrived), for 10 minutes.
              undoUntil:
                member.arrived_at !== null && row.status === 'BOOKED' && canUndoArrivalAt(asDate(member.arrived_at), now)
                  ? new Date(asDate(member.arrived_at).getTime() + DATE_ARRIVAL_UNDO_MINUTES * 60_000).toISOString()
                  : null,
            })),
        })),
      };
    },
  };
}

export type DatePlanViews = ReturnType<typeof createDatePlanViews>;
