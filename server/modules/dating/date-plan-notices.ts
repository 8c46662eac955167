import type { DatePlanEvent } from '#common/domain/dating-plan.ts';
import { formatDateShort, formatTime12h, toKolkata } from '#common/domain/time.ts';
import { asDate, type Db } from '#server/db/client.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import { findPlanNoticeFacts, type PlanNoticeRow } from './date-plans.repository.ts';

/** What changed on a plan, in the words of its push. */
export type PlanChange =
  'proposed' | 'replaced' | 'accepted' | 'booked' | 'declined' | 'expired' | 'cancelled' | 'cancelledLate' | 'closed' | 'restaurantCancelled';

/** A change to tell, and the member whose doing it was (they know already: they are not told). */
export interface PlanNotice {
  change: PlanChange;
  by?: string | null;
}

/** The plan's screen: the dating home, scrolled to this plan's card (web/features/dating/Plans.tsx). */
export function planLink(planId: string): string {
  return `/dating/app?plan=${planId}`;
}

/**
 * What a plan's own moves tell both members when the caller names nothing else: the table booked,
 * the deadline passed, and the table's moves that did not come from a member (the restaurant
 * cancelled; a proposed hold went another way). A member's own decline, cancel or block names its
 * notice and its member; arrivals and a replaced plan tell nothing here (the new plan does).
 */
export function noticeOfEvent(event: DatePlanEvent): PlanNotice | null {
  const byEvent: Partial<Record<DatePlanEvent, PlanChange>> = {
    bothPaid: 'booked',
    deadlinePassed: 'expired',
    cancelledInTime: 'restaurantCancelled',
    declined: 'closed',
  };
  const change = byEvent[event];
  return change ? { change } : null;
}

function words(change: PlanChange, other: string, facts: PlanNoticeRow): { title: string; body: string } {
  const { date, time } = toKolkata(asDate(facts.starts_at));
  const when = `${formatDateShort(date)} at ${formatTime12h(time)}`;
  const place = facts.restaurant;
  switch (change) {
    case 'proposed':
      return { title: `A date plan for you and ${other}`, body: `${place}, ${when}. Say yes by paying the deposit, or decline, before it lapses.` };
    case 'replaced':
      return { title: `${other} asked for another table`, body: `Your date is now at ${place}, ${when}. The earlier plan is off.` };
    case 'accepted':
      return { title: `${other} said yes to your date`, body: `${place}, ${when}. Pay your deposit and the table is booked.` };
    case 'booked':
      return { title: `Your date with ${other} is booked`, body: `${place}, ${when}. Your deposit is credit on your bill at the table.` };
    case 'declined':
      return { title: `Your date plan at ${place} is off`, body: `${other} declined it. Any deposit you paid is released.` };
    case 'expired':
      return { title: `Your date plan at ${place} has lapsed`, body: 'You did not both say yes in time. Any deposit paid is released.' };
    case 'cancelled':
      return { title: `${other} cancelled your date`, body: `${place}, ${when}, is off. Your deposit is released.` };
    case 'cancelledLate':
      return { title: `${other} cancelled your date`, body: `${place}, ${when}, is off. They cancelled late, so their deposit is paid to you.` };
    case 'closed':
      return { title: `Your date plan at ${place} is off`, body: `${place}, ${when}, has been closed. Any deposit paid is released.` };
    case 'restaurantCancelled':
      return { title: `${place} cancelled your date`, body: `${when} is off. Your deposits are released.` };
  }
}

/**
 * Date-plan changes reach the members' browsers by push (decisions 219, 227): written in the
 * transaction that changed the plan, through the one outbox and delivery policy, once per member
 * and change (the idempotency key), sent after that transaction commits. A member with no
 * subscribed browser, or with push turned off, gets nothing new: the plans card shows the change
 * whenever they open it, as before.
 */
export function createDatePlanNotices(notifications: Pick<NotificationsService, 'queuePush' | 'deliverSoon'>) {
  return {
    /** Writes each member's push of `notice` on `planId` in `tx`; the message ids, to deliver once `tx` commits. */
    async tell(tx: Db, planId: string, notice: PlanNotice): Promise<string[]> {
      const facts = await findPlanNoticeFacts(tx, planId);
      if (!facts) return [];
      const ids: string[] = [];
      const members = [
        { id: facts.member_a, other: facts.first_b },
        { id: facts.member_b, other: facts.first_a },
      ];
      for (const member of members) {
        if (member.id === notice.by) continue;
        const id = await notifications.queuePush(
          tx,
          { datingUserId: member.id },
          {
            kind: 'datePlan',
            ...words(notice.change, member.other, facts),
            link: planLink(planId),
            idempotencyKey: `date-plan:${planId}:${notice.change}:${notice.by ?? 'plan'}:${member.id}`,
          },
        );
        if (id) ids.push(id);
      }
      return ids;
    },

    /** Sends what `tell` wrote, once its transaction committed; the outbox sweep sends anything left. */
    deliver(ids: readonly string[]): void {
      notifications.deliverSoon([...ids]);
    },
  };
}

export type DatePlanNotices = ReturnType<typeof createDatePlanNotices>;
