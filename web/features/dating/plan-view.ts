import type { DateDepositState, DatePlan } from '#common/contract/dating-plans.ts';
import { endSentence } from '#common/domain/sentences.ts';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import { openDatePlanStatuses } from '#common/domain/dating-plan.ts';
import { formatDateShort, formatInstantKolkata, formatTime12h } from '#common/domain/time.ts';

/**
 * What a member sees of a date plan (decision 184), as pure functions of the
 * plan: which buttons it shows, and the words for its status, the deposit and any payout. The
 * screen (Plans.tsx) only lays them out.
 */

/** Which of the member's actions a plan offers now. */
export interface PlanActions {
  /** "Accept and pay": the member has not answered yet. */
  accept: boolean;
  /** "Pay": accepted, and the deposit still waits for the member's approval. */
  pay: boolean;
  /** "Decline": open to either member while the plan is proposed (a paid deposit is released). */
  decline: boolean;
  /** "Another option": once per match, while the plan is open for answers (the server says). */
  another: boolean;
  /** "Cancel date": the table is booked. */
  cancel: boolean;
}

export function planActions(plan: DatePlan): PlanActions {
  const isProposed = plan.status === 'PROPOSED';
  return {
    accept: isProposed && plan.me.answer === null,
    pay: isProposed && plan.me.answer === 'ACCEPTED' && !plan.me.paid && plan.me.deposit === 'awaiting_payment',
    decline: isProposed && plan.me.answer !== 'DECLINED',
    another: isProposed && plan.canAskAgain,
    cancel: plan.status === 'BOOKED',
  };
}

/** A plan still in play (proposed or booked); the others are history and shown compact. */
export function isOpenPlan(plan: DatePlan): boolean {
  return openDatePlanStatuses.includes(plan.status);
}

/** Open plans first, then the rest, each group in the server's order (newest first). */
export function sortPlans(plans: readonly DatePlan[]): DatePlan[] {
  return [...plans.filter(isOpenPlan), ...plans.filter((plan) => !isOpenPlan(plan))];
}

/**
 * While the member's deposit waits for its webhook, the list is read this often. GET /dating/plans
 * shares the per-member "booking" rate limit (20 a minute by default) with accept, decline and
 * cancel, so polling stays well under it.
 */
export const PAYMENT_POLL_MS = 6_000;
/** While the member has paid and waits for the partner. */
export const PARTNER_POLL_MS = 20_000;
/** While a proposal waits for the member's own answer: the partner's progress shows without a reload. */
export const PROPOSED_POLL_MS = 30_000;
/** After coming back from the payment page, the list is read often for this long whatever it says. */
export const RETURN_POLL_WINDOW_MS = 60_000;

/**
 * How often to read the plans again: often while a proposed plan the member accepted waits for the
 * payment's webhook (or just after the payment page), less often while it waits for the partner,
 * seldom while a proposal waits for the member, and not at all otherwise.
 */
export function plansPollInterval(plans: readonly DatePlan[] | undefined, msSinceReturn: number | null): number | false {
  if (msSinceReturn !== null && msSinceReturn < RETURN_POLL_WINDOW_MS) return PAYMENT_POLL_MS;
  const accepted = (plans ?? []).filter((plan) => plan.status === 'PROPOSED' && plan.me.answer === 'ACCEPTED');
  if (accepted.some((plan) => !plan.me.paid)) return PAYMENT_POLL_MS;
  if (accepted.length > 0) return PARTNER_POLL_MS;
  if ((plans ?? []).some((plan) => plan.status === 'PROPOSED')) return PROPOSED_POLL_MS;
  return false;
}

/** "Sat, 28 Nov at 7:30 PM". */
export function planWhen(plan: Pick<DatePlan, 'date' | 'time'>): string {
  return `${formatDateShort(plan.date)} at ${formatTime12h(plan.time)}`;
}

/** What the partner has done on a proposed plan. */
export function partnerProgress(plan: DatePlan): string {
  const name = plan.partner.firstName;
  if (plan.partner.paid) return `${name} has accepted and paid`;
  if (plan.partner.accepted) return `${name} has accepted`;
  return `Waiting for ${name}`;
}

/** What the member has done on a proposed plan, or '' before they answer. */
export function myProgress(plan: DatePlan): string {
  if (plan.me.answer !== 'ACCEPTED') return '';
  if (plan.me.paid) return `You have accepted and your ${formatRupees(plan.depositPaise)} is held.`;
  if (plan.me.deposit === 'awaiting_payment') return `You have accepted. Pay ${formatRupees(plan.depositPaise)} to hold your place.`;
  return 'You have accepted. Your payment is being confirmed.';
}

/** The deposit promise shown on a proposed plan. */
export function depositPromise(depositPaise: number): string {
  return `${formatRupees(depositPaise)}, credit on your bill at the table; paid to you if your date does not come`;
}

/** The plan's state in one sentence, from the member's side. */
export function planHeadline(plan: DatePlan): string {
  const name = plan.partner.firstName;
  switch (plan.status) {
    case 'PROPOSED':
      return `A table for two, held for you and ${name}`;
    case 'BOOKED':
      return 'Your table is booked';
    case 'SEATED':
      return endSentence(`You and ${name} met at ${plan.restaurant.name}`);
    case 'FLAKED':
      if (plan.flaked === 'me') return 'You did not make it to this date, so it counts as a missed date.';
      return `${name} did not come to this date.`;
    case 'NO_SHOW':
      return 'Neither of you came to this date.';
    case 'DECLINED':
      return plan.me.answer === 'DECLINED' ? 'You declined this plan.' : `${name} declined this plan.`;
    case 'EXPIRED':
      return 'This plan ran out of time before you both paid.';
    case 'REPLACED':
      return 'This plan was swapped for another option.';
    case 'CANCELLED':
      return 'This date was cancelled in good time.';
  }
}

const depositSentences: Record<DateDepositState, (amount: string, partner: string) => string> = {
  none: () => 'No deposit was taken.',
  awaiting_payment: (amount) => `Your ${amount} deposit is waiting for your approval.`,
  held: (amount) => `Your ${amount} deposit is held on your account until the date.`,
  credit_at_table: (amount) => `Your ${amount} deposit was credit on your bill at the table.`,
  paid_to_partner: (amount, partner) => `Your ${amount} deposit was paid to ${partner}, and a strike was recorded.`,
  released: (amount) => `Your ${amount} deposit was given back in full.`,
  kept: () => 'Your deposit was kept by the restaurant under its no-show policy.',
};

/** What happened (or is happening) to the member's own deposit. */
export function depositWords(plan: DatePlan): string {
  return depositSentences[plan.me.deposit](formatRupees(plan.depositPaise), plan.partner.firstName);
}

/** What the member was paid because the partner flaked, or null. */
export function payoutWords(plan: DatePlan): string | null {
  const payout = plan.payoutToMe;
  if (!payout) return null;
  const amount = formatRupees(payout.amountPaise);
  const name = plan.partner.firstName;
  switch (payout.status) {
    case 'PAID':
      return `${amount} paid to you because ${name} did not come.`;
    case 'PENDING':
      return `${amount} is on its way to you because ${name} did not come.`;
    case 'FAILED':
      return `We owe you ${amount} because ${name} did not come, but the transfer failed; we will try again.`;
  }
}

/** What cancelling a booked plan now does, in plain words for the confirm step. */
export function cancelConsequence(plan: DatePlan): string {
  const amount = formatRupees(plan.depositPaise);
  const name = plan.partner.firstName;
  if (plan.cancelIsLate) {
    return `Your date starts in less than 24 hours, so cancelling now counts as not coming: your ${amount} deposit is paid to ${name} and a strike is recorded on your account.`;
  }
  return `It is more than 24 hours before the date, so both deposits are given back in full and nothing is recorded against you.`;
}

/** Time left until an answer is due, in words that change once a minute: "3 h 5 min left". */
export function timeLeftWords(seconds: number): string {
  if (seconds <= 0) return 'Time is up';
  if (seconds < 60) return 'Under a minute left';
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${minutes} min left`;
  return rest === 0 ? `${hours} h left` : `${hours} h ${rest} min left`;
}

/** "Answer by Sat, 28 Nov, 5:30 PM". */
export function answerBy(deadline: string): string {
  return `Answer by ${formatInstantKolkata(deadline)}`;
}

/** The member's strikes in a sentence, or null at none. */
export function strikesWords(strikes: number): string | null {
  if (strikes <= 0) return null;
  return `You have ${strikes} ${strikes === 1 ? 'strike' : 'strikes'} for missed dates. Each missed date or late cancel adds one.`;
}

/** The payment page's address with the way back to the dating app (its own query kept). */
export function withReturnTo(approvalUrl: string, returnTo: string): string {
  return `${approvalUrl}${approvalUrl.includes('?') ? '&' : '?'}returnTo=${encodeURIComponent(returnTo)}`;
}

/** The id of the "Your dates" section, so a match card can point to its plan. */
export const PLANS_SECTION_ID = 'your-dates';
