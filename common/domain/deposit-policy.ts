/**
 * A restaurant's deposit policy and what it asks of one booking (decision 120).
 * Pure: the server stores the policy, the web shows its answer, and both call
 * `depositRequirementFor` so the amount a diner is told is the amount the server asks for.
 * Every amount is an integer number of paise; rupees exist only in forms and in words.
 */
import { formatDateShort, formatTime12h, isClockTime, minutesOfDay, toKolkata } from './time.ts';

/** What a slot asks for: nothing, a deposit that becomes credit on the bill, or the meal paid ahead. */
export const depositKinds = ['none', 'deposit', 'prepayment'] as const;
export type DepositKind = (typeof depositKinds)[number];

/** The free-cancel window when a restaurant has not set one: the terms' "cancel at least 2 hours ahead". */
export const DEFAULT_FREE_CANCEL_MINUTES = 120;
/** Upper bounds the form and the contract share. */
export const MAX_PER_COVER_PAISE = 5_000_000; // ₹50,000 a guest
export const MAX_FREE_CANCEL_MINUTES = 7 * 24 * 60;
export const MAX_DEPOSIT_RULES = 20;

/** Day numbers as JavaScript counts them: 0 is Sunday. */
export const weekdayNames = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** What one slot costs to hold, before the party size is known. */
export interface DepositCharge {
  kind: DepositKind;
  /** Per guest; 0 when kind is 'none'. */
  perCoverPaise: number;
}

/** A charge for some days of the week and a range of start times (both ends included). */
export interface DepositRule extends DepositCharge {
  /** Days of the week in Kolkata, 0 = Sunday … 6 = Saturday. */
  days: number[];
  /** HH:MM, the first slot start the rule covers. */
  fromTime: string;
  /** HH:MM, the last slot start the rule covers. */
  untilTime: string;
}

export interface DepositPolicy {
  /** The charge when no rule matches. */
  defaultCharge: DepositCharge;
  /** Tried in order; the first rule that matches the slot's day and time wins. */
  rules: DepositRule[];
  /** A cancel at least this many minutes before the start releases everything. */
  freeCancelMinutes: number;
  /** Share of the deposit kept on a cancel after the window (100 = all of it). */
  lateCancelKeepPercent: number;
  /** Share of the deposit kept when the diner does not come (100 = all of it). */
  noShowKeepPercent: number;
}

/** A restaurant that never set a policy: nothing is asked, the terms' window and shares apply. */
export const noDepositPolicy: DepositPolicy = {
  defaultCharge: { kind: 'none', perCoverPaise: 0 },
  rules: [],
  freeCancelMinutes: DEFAULT_FREE_CANCEL_MINUTES,
  lateCancelKeepPercent: 100,
  noShowKeepPercent: 100,
};

/** A drop's own ask: a deposit per guest on every table it gives out. */
export interface DropDepositRequirement {
  perCoverPaise: number;
}

/** What a deposit agrees for one booking: its amount, and what a late cancel or a no-show keeps of it, from when. */
export interface DepositTerms {
  kind: 'deposit' | 'prepayment';
  amountPaise: number;
  perCoverPaise: number;
  freeCancelUntil: Date;
  lateCancelKeepPaise: number;
  noShowKeepPaise: number;
}

/** The agreed answer for one booking (what the deposits service reads): no money, or the terms and their words. */
export type DepositRequirement = { kind: 'none' } | (DepositTerms & { plainWords: string });

/** A requirement that asks for money. */
export type MoneyRequirement = Exclude<DepositRequirement, { kind: 'none' }>;

export interface BookingForDeposit {
  startsAt: Date;
  covers: number;
  dropRequirement?: DropDepositRequirement | null;
  /** When the diner is told: decides whether the words say the free-cancel window has closed (omitted: still open). */
  now?: Date;
}

/** True when `rule` covers a slot starting at `startsAt` (its Kolkata weekday and wall-clock time). */
export function ruleMatches(rule: DepositRule, startsAt: Date): boolean {
  const { date, time } = toKolkata(startsAt);
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (!rule.days.includes(weekday)) return false;
  const minute = minutesOfDay(time);
  return minute >= minutesOfDay(rule.fromTime) && minute <= minutesOfDay(rule.untilTime);
}

/** The charge a slot carries under `policy`, before a drop's own ask and the party size. */
export function chargeForSlot(policy: DepositPolicy, startsAt: Date): DepositCharge {
  const rule = policy.rules.find((candidate) => ruleMatches(candidate, startsAt));
  const charge = rule ?? policy.defaultCharge;
  if (charge.kind === 'none' || charge.perCoverPaise <= 0) return { kind: 'none', perCoverPaise: 0 };
  return { kind: charge.kind, perCoverPaise: charge.perCoverPaise };
}

/**
 * The charge for a slot, a drop's ask included: a drop that asks for a deposit sets the amount
 * per guest, unless the restaurant already takes full prepayment for that time (the meal paid
 * ahead covers any deposit).
 */
export function chargeForBooking(policy: DepositPolicy, startsAt: Date, dropRequirement?: DropDepositRequirement | null): DepositCharge {
  const slotCharge = chargeForSlot(policy, startsAt);
  if (slotCharge.kind === 'prepayment' || !dropRequirement || dropRequirement.perCoverPaise <= 0) return slotCharge;
  return { kind: 'deposit', perCoverPaise: dropRequirement.perCoverPaise };
}

/** A share of an amount in whole paise, rounded down so the diner never pays a fraction more. */
export function keptShare(amountPaise: number, percent: number): number {
  return Math.floor((amountPaise * percent) / 100);
}

/** The instant the free-cancel window closes. */
export function freeCancelDeadline(policy: DepositPolicy, startsAt: Date): Date {
  return new Date(startsAt.getTime() - policy.freeCancelMinutes * 60_000);
}

/** What `policy` asks of one booking, with the words the diner reads. */
export function depositRequirementFor(policy: DepositPolicy, booking: BookingForDeposit): DepositRequirement {
  const charge = chargeForBooking(policy, booking.startsAt, booking.dropRequirement);
  if (charge.kind === 'none') return { kind: 'none' };
  const amountPaise = charge.perCoverPaise * booking.covers;
  const requirement = {
    kind: charge.kind,
    amountPaise,
    perCoverPaise: charge.perCoverPaise,
    freeCancelUntil: freeCancelDeadline(policy, booking.startsAt),
    lateCancelKeepPaise: keptShare(amountPaise, policy.lateCancelKeepPercent),
    noShowKeepPaise: keptShare(amountPaise, policy.noShowKeepPercent),
  };
  return { ...requirement, plainWords: describeRequirement(requirement, booking.covers, booking.now) };
}

/** 50000 → '₹500'; 12345678 → '₹1,23,456.78' (Indian grouping; paise shown only when there are some). */
export function formatRupees(paise: number): string {
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  const digits = String(rupees);
  const lastThree = digits.slice(-3);
  const leading = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  const grouped = leading ? `${leading},${lastThree}` : lastThree;
  return `₹${grouped}${rest ? `.${String(rest).padStart(2, '0')}` : ''}`;
}

/** A rupee amount typed in a form ('500', '249.50') as paise, or null when it is not one. */
export function rupeesToPaise(rupees: string): number | null {
  const trimmed = rupees.trim();
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(trimmed)) return null;
  const [whole, fraction = ''] = trimmed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Paise as the form shows them: 50000 → '500', 24950 → '249.50'. */
export function paiseToRupeesInput(paise: number): string {
  const rest = paise % 100;
  return rest ? `${Math.floor(paise / 100)}.${String(rest).padStart(2, '0')}` : String(paise / 100);
}

/** '7:30 PM on Wed, 25 Nov', in Kolkata. */
function formatDeadline(instant: Date): string {
  const { date, time } = toKolkata(instant);
  return `${formatTime12h(time)} on ${formatDateShort(date)}`;
}

/** '₹500 is kept' or 'nothing is kept'. */
function keptWords(paise: number): string {
  return paise === 0 ? 'nothing is kept' : `${formatRupees(paise)} is kept`;
}

type PricedRequirement = Omit<MoneyRequirement, 'plainWords'>;

function describeRequirement(requirement: PricedRequirement, covers: number, now: Date | undefined): string {
  const amount = formatRupees(requirement.amountPaise);
  const each = covers > 1 ? ` (${formatRupees(requirement.perCoverPaise)} a guest)` : '';
  const opening =
    requirement.kind === 'deposit'
      ? `A deposit of ${amount}${each} is blocked on your card or UPI now. It becomes credit on your bill when you are seated.`
      : `A prepayment of ${amount}${each} is blocked on your card or UPI now. It pays for your meal when you are seated.`;
  const { lateCancelKeepPaise: late, noShowKeepPaise: noShow } = requirement;
  const windowClosed = now !== undefined && now.getTime() >= requirement.freeCancelUntil.getTime();
  const lead = windowClosed ? 'The free-cancel time has passed:' : `Cancel before ${formatDeadline(requirement.freeCancelUntil)} and it is released in full;`;
  const cancelling = windowClosed ? 'if you cancel' : 'if you cancel after that';
  const consequences =
    late === noShow
      ? `${windowClosed ? 'if you cancel or do not come' : 'after that, or if you do not come'}, ${keptWords(late)}`
      : `${cancelling}, ${keptWords(late)}, and if you do not come, ${keptWords(noShow)}`;
  return `${opening} ${lead} ${consequences}.`;
}

/** True for a rule whose range reads forwards and whose days are real weekdays (the contract's check too). */
export function isWellFormedRule(rule: Pick<DepositRule, 'days' | 'fromTime' | 'untilTime'>): boolean {
  return (
    rule.days.length > 0 &&
    rule.days.every((day) => Number.isInteger(day) && day >= 0 && day <= 6) &&
    isClockTime(rule.fromTime) &&
    isClockTime(rule.untilTime) &&
    minutesOfDay(rule.fromTime) <= minutesOfDay(rule.untilTime)
  );
}
