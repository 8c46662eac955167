import { describe, expect, it } from 'vitest';
import { changeHeadline, changeTermsFor, describeChange } from './booking-change.ts';
import { changeMoneySentence } from './money-sentences.ts';
import type { DepositRequirement } from './deposit-policy.ts';
import { kolkataInstant } from './time.ts';

const start = kolkataInstant('2026-12-04', '19:00');
const deadline = new Date(start.getTime() - 120 * 60_000);
const asks = (amountPaise: number): DepositRequirement => ({
  kind: 'deposit',
  amountPaise,
  perCoverPaise: amountPaise / 4,
  freeCancelUntil: new Date(deadline.getTime() + 90 * 60_000),
  lateCancelKeepPaise: 0,
  noShowKeepPaise: amountPaise,
  plainWords: '',
});
const before = new Date(deadline.getTime() - 60_000);
const after = new Date(deadline.getTime() + 60_000);

describe('changeTermsFor', () => {
  it('asks exactly the difference for a larger party, and keeps the earlier free-cancel deadline', () => {
    const terms = changeTermsFor({ amountPaise: 100_000, freeCancelUntil: deadline }, asks(200_000), before);
    expect(terms).toMatchObject({ kind: 'pay_extra', extraPaise: 100_000, releasedPaise: 0, depositPaise: 200_000 });
    expect(terms.freeCancelUntil).toEqual(deadline);
    expect(terms.words).toContain('₹1,000 more');
  });

  it('releases exactly the difference for a smaller party inside the free window, and nothing after it', () => {
    expect(changeTermsFor({ amountPaise: 200_000, freeCancelUntil: deadline }, asks(150_000), before)).toMatchObject({
      kind: 'release',
      releasedPaise: 50_000,
      depositPaise: 150_000,
    });
    expect(changeTermsFor({ amountPaise: 200_000, freeCancelUntil: deadline }, asks(150_000), after)).toMatchObject({
      kind: 'free',
      releasedPaise: 0,
      depositPaise: 200_000,
    });
  });

  it('costs nothing when the terms stay the same, with or without a deposit', () => {
    expect(changeTermsFor({ amountPaise: 100_000, freeCancelUntil: deadline }, asks(100_000), before)).toMatchObject({
      kind: 'free',
      extraPaise: 0,
      releasedPaise: 0,
    });
    expect(changeTermsFor(null, { kind: 'none' }, before)).toMatchObject({ kind: 'free', depositPaise: 0, words: 'No charge.' });
  });
});

describe('describeChange', () => {
  it('names the old and new time and party', () => {
    expect(describeChange({ fromStartsAt: start, toStartsAt: kolkataInstant('2026-12-04', '20:30'), fromPartySize: 2, toPartySize: 4 })).toBe(
      'Changed from 7:00 PM to 8:30 PM (party 2 → 4)',
    );
  });
});

describe("a change's email words", () => {
  const to = (date: string, time: string) => kolkataInstant(date, time);
  it('names what changed: the time and party, the date when it moved, or the party alone', () => {
    expect(changeHeadline('Coastal', { fromStartsAt: start, toStartsAt: to('2026-12-04', '20:30'), fromPartySize: 2, toPartySize: 4 })).toBe(
      'Your table at Coastal moved from 7:00 PM to 8:30 PM, 2 → 4 guests.',
    );
    expect(changeHeadline('Coastal', { fromStartsAt: start, toStartsAt: to('2026-12-05', '19:00'), fromPartySize: 2, toPartySize: 2 })).toBe(
      'Your table at Coastal moved from Fri, 4 Dec at 7:00 PM to Sat, 5 Dec at 7:00 PM, 2 guests.',
    );
    expect(changeHeadline('Coastal', { fromStartsAt: start, toStartsAt: start, fromPartySize: 4, toPartySize: 1 })).toBe(
      'Your table at Coastal on Fri, 4 Dec at 7:00 PM is now for 1 guest (was 4).',
    );
  });

  it("says what the money did in the receipt's words, and nothing for a booking without a deposit", () => {
    expect(changeMoneySentence({ kind: 'pay_extra', depositPaise: 200_000, extraPaise: 100_000, releasedPaise: 0 })).toBe(
      '₹1,000 blocked on your account until your visit; nothing taken. Your deposit is now ₹2,000.',
    );
    expect(changeMoneySentence({ kind: 'release', depositPaise: 150_000, extraPaise: 0, releasedPaise: 50_000 })).toBe(
      '₹500 of your deposit released. ₹1,500 blocked on your account until your visit; nothing taken.',
    );
    expect(changeMoneySentence({ kind: 'free', depositPaise: 100_000, extraPaise: 0, releasedPaise: 0 })).toBe(
      'No money moved. ₹1,000 blocked on your account until your visit; nothing taken.',
    );
    expect(changeMoneySentence({ kind: 'free', depositPaise: 0, extraPaise: 0, releasedPaise: 0 })).toBeNull();
  });
});
