import { DATE_SHARE_MESSAGES, type DatePlan, type DatePlanShareLink, type SharedDatePlan } from '#common/contract/dating-plans.ts';
import { datePlanStatusesEndingShares, shareLinkExpiry } from '#common/domain/dating-plan.ts';
import { toKolkata } from '#common/domain/time.ts';
import { asDate, iso } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, notFound } from '#server/errors.ts';
import { requireDating, type Principal } from '#server/modules/accounts/principal.ts';
import { toRestaurantRef } from '#server/modules/restaurants/restaurant-sql.ts';
import { createSigningKey, readRecordLink, signRecordLink } from '#server/signing.ts';
import { notNow } from './date-plan-table.ts';
import type { DatePlanViews } from './date-plan-views.ts';
import { findPlanShare, insertPlanShare, revokePlanShares } from './date-plan-shares.repository.ts';
import { findPlanWithRestaurant, listPlanMembers } from './date-plans.repository.ts';

/**
 * A date shared with a trusted contact (decision 184): a signed link that works until the end of
 * the date; the link is the access. Each link is a row whose id it signs (decision 208), so it ends
 * with its plan, and when the member who made it stops sharing.
 */
export function createDatePlanSharing(deps: AppDeps, views: DatePlanViews) {
  const { db, clock } = deps;
  const signingKey = createSigningKey(deps);

  return {
    /** POST /dating/plans/{planId}/share: a link for a trusted contact, working until the end of the date. */
    async shareLink(principal: Principal, planId: string): Promise<DatePlanShareLink> {
      requireDating(principal);
      const plan = await views.planOfMember(planId, principal.datingUserId);
      if (plan.status !== 'PROPOSED' && plan.status !== 'BOOKED') throw notNow(plan.status, 'shared');
      const expiresAt = shareLinkExpiry(asDate(plan.starts_at));
      const shareId = await insertPlanShare(db, { planId: plan.id, memberId: principal.datingUserId, now: clock.now() });
      return { path: `/dating/share/${signRecordLink('datePlanShare', shareId, expiresAt, await signingKey())}`, expiresAt: expiresAt.toISOString() };
    },

    /** DELETE /dating/plans/{planId}/share: "Stop sharing": every link the member made for the plan ends now (decision 208). */
    async stopSharing(principal: Principal, planId: string): Promise<DatePlan> {
      requireDating(principal);
      const plan = await views.planOfMember(planId, principal.datingUserId);
      await revokePlanShares(db, plan.id, principal.datingUserId, clock.now());
      return views.memberView(plan.id, principal.datingUserId);
    },

    /** GET /api/date-share/{token}: the plan as a trusted contact sees it. */
    async readSharedPlan(token: string): Promise<SharedDatePlan> {
      const link = readRecordLink(token, await signingKey());
      if (!link || link.purpose !== 'datePlanShare') throw badInput(DATE_SHARE_MESSAGES.invalid);
      if (link.instant.getTime() <= clock.now().getTime()) throw notFound(DATE_SHARE_MESSAGES.expired);
      const share = await findPlanShare(db, link.id);
      if (!share) throw notFound(DATE_SHARE_MESSAGES.ended);
      if (share.revoked_at !== null) throw notFound(DATE_SHARE_MESSAGES.revoked);
      const plan = await findPlanWithRestaurant(db, share.plan_id);
      // A link ends with its plan: declined, lapsed, replaced or cancelled (decision 208).
      if (!plan || datePlanStatusesEndingShares.has(plan.status)) throw notFound(DATE_SHARE_MESSAGES.ended);
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
  };
}
