import { formatRupees, type DepositRequirement } from './deposit-policy.ts';
import { formatDateShort, formatTime12h, toKolkata } from './time.ts';

/** Statuses a diner may change a booking in (decision 280): a request sent, or a booking accepted. */
export const changeableStatuses = ['PENDING', 'CONFIRMED'] as const;

/** A booking's paid deposit as the change rule reads it (null: the booking carries none). */
export interface PaidDeposit {
  amountPaise: number;
  freeCancelUntil: Date;
}

/**
 * What a change costs or releases (decisions 281, 282), told to the diner before they confirm:
 * - `free`: nothing moves;
 * - `pay_extra`: the new terms ask more than is paid; `extraPaise` is exactly the difference, paid
 *   through payments before the change is applied;
 * - `release`: the new terms ask less; `releasedPaise` is exactly the difference, inside the
 *   free-cancel window only (after it, the booking keeps its deposit and `releasedPaise` is 0).
 */
export interface ChangeTerms {
  kind: 'free' | 'pay_extra' | 'release';
  /** What the booking's deposit is after the change (0 without one). */
  depositPaise: number;
  extraPaise: number;
  releasedPaise: number;
  /** The free-cancel deadline after the change: never later than the booking's own (decision 282). */
  freeCancelUntil: Date | null;
  /** One sentence the diner reads before confirming. */
  words: string;
}

/**
 * The terms of changing a booking that carries `paid` to one that policy prices as `next`, at
 * `now`: the difference and only the difference moves; a change inside the free window costs
 * nothing beyond it, and after the window a smaller party releases nothing.
 */
export function changeTermsFor(paid: PaidDeposit | null, next: DepositRequirement, now: Date): ChangeTerms {
  const paidPaise = paid?.amountPaise ?? 0;
  const askedPaise = next.kind === 'none' ? 0 : next.amountPaise;
  const deadlines = [paid?.freeCancelUntil, next.kind === 'none' ? undefined : next.freeCancelUntil].filter((d): d is Date => d !== undefined);
  const freeCancelUntil = deadlines.length > 0 ? new Date(Math.min(...deadlines.map((d) => d.getTime()))) : null;
  const difference = askedPaise - paidPaise;
  // The deposit stays what was paid: a change that asks the same, or a smaller one once the free-cancel time has passed.
  const unchanged = (words: string): ChangeTerms => ({ kind: 'free', depositPaise: paidPaise, extraPaise: 0, releasedPaise: 0, freeCancelUntil, words });
  if (difference > 0) {
    return {
      kind: 'pay_extra',
      depositPaise: askedPaise,
      extraPaise: difference,
      releasedPaise: 0,
      freeCancelUntil,
      words: `Pay ${formatRupees(difference)} more: your deposit becomes ${formatRupees(askedPaise)}. Your booking stays as it is until the payment is approved.`,
    };
  }
  if (difference < 0) {
    const windowOpen = paid !== null && now.getTime() < paid.freeCancelUntil.getTime();
    if (windowOpen) {
      return {
        kind: 'release',
        depositPaise: askedPaise,
        extraPaise: 0,
        releasedPaise: -difference,
        freeCancelUntil,
        words: `No charge: ${formatRupees(-difference)} of your deposit is released, and it becomes ${formatRupees(askedPaise)}.`,
      };
    }
    return unchanged(`No charge. The free-cancel time has passed, so your deposit stays ${formatRupees(paidPaise)}.`);
  }
  return unchanged(paidPaise > 0 ? `No charge: your deposit stays ${formatRupees(paidPaise)}.` : 'No charge.');
}

/** "Changed from 7:00 PM to 8:30 PM, party 2 → 4": what staff and the diner read of one change. */
export function describeChange(change: { fromStartsAt: Date; toStartsAt: Date; fromPartySize: number; toPartySize: number }): string {
  const from = toKolkata(change.fromStartsAt);
  const to = toKolkata(change.toStartsAt);
  const parts: string[] = [];
  if (from.date !== to.date) parts.push(`${formatDateShort(from.date)} ${formatTime12h(from.time)} to ${formatDateShort(to.date)} ${formatTime12h(to.time)}`);
  else if (from.time !== to.time) parts.push(`${formatTime12h(from.time)} to ${formatTime12h(to.time)}`);
  const time = parts.length > 0 ? `Changed from ${parts[0]}` : 'Changed';
  return change.fromPartySize !== change.toPartySize ? `${time} (party ${change.fromPartySize} → ${change.toPartySize})` : time;
}

const guestsWord = (count: number) => (count === 1 ? '1 guest' : `${count} guests`);

/**
 * The first line of a change's email: "Your table at Coastal moved from 7:00 PM to 8:30 PM, 2 → 4
 * guests." (the date too when it changed); a party-only change keeps the time and names the party.
 */
export function changeHeadline(restaurantName: string, change: { fromStartsAt: Date; toStartsAt: Date; fromPartySize: number; toPartySize: number }): string {
  const from = toKolkata(change.fromStartsAt);
  const to = toKolkata(change.toStartsAt);
  const party = change.fromPartySize === change.toPartySize ? guestsWord(change.toPartySize) : `${change.fromPartySize} → ${guestsWord(change.toPartySize)}`;
  if (from.date !== to.date) {
    return `Your table at ${restaurantName} moved from ${formatDateShort(from.date)} at ${formatTime12h(from.time)} to ${formatDateShort(to.date)} at ${formatTime12h(to.time)}, ${party}.`;
  }
  if (from.time !== to.time) return `Your table at ${restaurantName} moved from ${formatTime12h(from.time)} to ${formatTime12h(to.time)}, ${party}.`;
  return `Your table at ${restaurantName} on ${formatDateShort(to.date)} at ${formatTime12h(to.time)} is now for ${guestsWord(change.toPartySize)} (was ${change.fromPartySize}).`;
}
