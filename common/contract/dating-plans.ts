import { z } from 'zod';
import { datePlanStatuses } from '../domain/dating-plan.ts';
import { isIsoDate } from '../domain/time.ts';
import { restaurantRef } from './restaurants.ts';
import { paymentToApprove } from './payments.ts';
import { datingShared } from './dating.ts';
import { dateBudgets } from '../domain/dating-profile.ts';

/**
 * Date plans (decision 184): what a member sees of a plan, what they can do
 * with it, and the staff's view of the dates at their tables. One schema for the server, OpenAPI
 * and the web.
 */

/** What a member's deposit is, in their words. */
export const dateDepositStates = [
  /** Not asked for yet (the member has not accepted). */
  'none',
  /** Accepted; the payment is waiting for the member's approval. */
  'awaiting_payment',
  /** Blocked on the member's card until the date. */
  'held',
  /** Taken as credit on the bill at the table. */
  'credit_at_table',
  /** Captured and paid out to the partner, because this member flaked. */
  'paid_to_partner',
  /** Given back in full. */
  'released',
  /** Kept by the restaurant under its no-show policy (both flaked). */
  'kept',
] as const;
export type DateDepositState = (typeof dateDepositStates)[number];

export const datePlanParams = z.object({ planId: z.uuid({ message: 'Date plan not found' }) });

/** One plan as one of its two members sees it. */
export const datePlan = z.object({
  id: z.string(),
  status: z.enum(datePlanStatuses),
  restaurant: restaurantRef,
  /** The start, and its Kolkata date and time. */
  startsAt: z.string(),
  date: z.string(),
  time: z.string(),
  /** Both must have paid by then. */
  deadline: z.string(),
  depositPaise: z.number(),
  partner: z.object({
    memberId: z.string(),
    firstName: z.string(),
    accepted: z.boolean(),
    paid: z.boolean(),
    arrived: z.boolean(),
    /** Their first photo (null once either has blocked the other). */
    photoUrl: z.string().nullable(),
    /** Either has blocked the other: nothing more to block or report (decision 251). */
    blocked: z.boolean(),
  }),
  /** The table's place as the plan card shows it (decision 254). */
  venue: z.object({
    /** The restaurant's first photo, else its hero image; null when it has neither. */
    photoUrl: z.string().nullable(),
    /** What a date for two costs there, in the members' budget bands (from its date-partner profile). */
    budget: z.enum(dateBudgets).nullable(),
    address: z.string().nullable(),
    mapUrl: z.string().nullable(),
  }),
  /** "Why you two" (decision 254). */
  shared: datingShared,
  /** What cancelling a booked date late costs, and from when it is late (decision 252), before anyone pays. */
  lateCancel: z.object({ from: z.string(), costPaise: z.number() }),
  me: z.object({
    answer: z.enum(['ACCEPTED', 'DECLINED']).nullable(),
    paid: z.boolean(),
    arrived: z.boolean(),
    deposit: z.enum(dateDepositStates),
    /** Where to approve the deposit while it waits for approval (the sandbox page, or the gateway's). */
    approvalUrl: z.string().nullable(),
  }),
  /** What the member was paid because the partner flaked: the amount and whether it has reached them. */
  payoutToMe: z.object({ amountPaise: z.number(), status: z.enum(['PENDING', 'PAID', 'FAILED']) }).nullable(),
  /** Who flaked, from the member's side. */
  flaked: z.enum(['me', 'partner', 'both']).nullable(),
  /** The member has a share link for this plan that still works: "Stop sharing" ends it (decision 208). */
  sharing: z.boolean(),
  /** Whether "Another option" is still open on this plan (once per match). */
  canAskAgain: z.boolean(),
  /** Whether cancelling now would count as a flake (within 24 hours of the start). */
  cancelIsLate: z.boolean(),
  /** The pair met before (a plan of theirs was seated): this is the second date two yeses asked for. */
  isSecondDate: z.boolean(),
  /** After a date both came to: "Did they show up?" and "Would you meet again?", and whether they can be answered now. */
  afterDate: z.object({ showedUp: z.boolean().nullable(), meetAgain: z.boolean().nullable(), canAnswer: z.boolean() }),
});
export type DatePlan = z.infer<typeof datePlan>;

export const datePlansResponse = z.object({
  plans: z.array(datePlan),
  /** The member's strikes for flaked dates. */
  strikes: z.number(),
});
export type DatePlansResponse = z.infer<typeof datePlansResponse>;

/** POST /dating/plans/{planId}/accept: the plan, and the deposit's approval page. */
export const acceptDatePlanResponse = z.object({
  plan: datePlan,
  payment: paymentToApprove,
});
export type AcceptDatePlanResponse = z.infer<typeof acceptDatePlanResponse>;

/** GET /api/admin/dates?date=: the Tablefair dates at the staff's restaurant on a Kolkata day. */
export const adminDatesQuery = z.object({
  date: z.string().refine(isIsoDate, { message: 'date: use YYYY-MM-DD' }),
});

/** One date at the restaurant, as its staff see it: party of 2, both first names, who has arrived. */
export const adminDate = z.object({
  planId: z.string(),
  reservationId: z.string(),
  status: z.enum(datePlanStatuses),
  startsAt: z.string(),
  time: z.string(),
  /** From when staff can mark arrivals (30 minutes before the start, decision 253). */
  arrivalsOpenAt: z.string(),
  members: z.array(
    z.object({
      memberId: z.string(),
      firstName: z.string(),
      arrived: z.boolean(),
      /** Until when this arrival can be undone (null: not arrived, or no longer undoable). */
      undoUntil: z.string().nullable(),
    }),
  ),
});
export type AdminDate = z.infer<typeof adminDate>;

export const adminDatesResponse = z.object({ date: z.string(), dates: z.array(adminDate) });
export type AdminDatesResponse = z.infer<typeof adminDatesResponse>;

/** POST /api/admin/dates/{planId}/arrivals: one member is at the table. */
export const dateArrivalBody = z.object({ memberId: z.uuid({ message: 'memberId: not a member of this date' }) });
export type DateArrivalBody = z.infer<typeof dateArrivalBody>;

/** DELETE /api/admin/dates/{planId}/arrivals/{memberId}: an arrival marked by mistake, undone. */
export const dateArrivalParams = z.object({
  planId: z.uuid({ message: 'Date plan not found' }),
  memberId: z.uuid({ message: 'memberId: not a member of this date' }),
});

/** PUT /dating/plans/{planId}/after-date: the two questions after a date, answered once. */
export const afterDateBody = z.object({
  showedUp: z.boolean({ message: 'showedUp: answer yes or no' }),
  meetAgain: z.boolean({ message: 'meetAgain: answer yes or no' }),
});
export type AfterDateBody = z.infer<typeof afterDateBody>;

/** POST /dating/plans/{planId}/share: a link a trusted contact can open until the end of the date. */
export const datePlanShareLink = z.object({ path: z.string(), expiresAt: z.string() });
export type DatePlanShareLink = z.infer<typeof datePlanShareLink>;

export const DATE_SHARE_MESSAGES = {
  invalid: 'This is not a Tablefair date link. Ask for the link again.',
  expired: 'This link has expired: it worked until the end of the date.',
  ended: 'This date plan has ended, so this link no longer works.',
  revoked: 'This link no longer works: the person who shared it has stopped sharing.',
} as const;

export const dateShareParams = z.object({
  token: z.string().min(20, { message: DATE_SHARE_MESSAGES.invalid }).max(200, { message: DATE_SHARE_MESSAGES.invalid }),
});

/** GET /api/date-share/{token}: what a trusted contact sees: where, when, first names; nothing to reach the members by. */
export const sharedDatePlan = z.object({
  restaurant: restaurantRef,
  startsAt: z.string(),
  date: z.string(),
  time: z.string(),
  firstNames: z.array(z.string()),
  status: z.enum(datePlanStatuses),
  expiresAt: z.string(),
});
export type SharedDatePlan = z.infer<typeof sharedDatePlan>;
