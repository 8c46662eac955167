import { describe, expect, it } from 'vitest';
import {
  chargeForBooking,
  chargeForSlot,
  DEFAULT_FREE_CANCEL_MINUTES,
  depositRequirementFor,
  formatRupees,
  isWellFormedRule,
  keptShare,
  noDepositPolicy,
  paiseToRupeesInput,
  rupeesToPaise,
  type DepositPolicy,
} from './deposit-policy.ts';
import { kolkataInstant } from './time.ts';

// 2026-11-25 is a Wednesday; 2026-11-27 a Friday.
const wednesdayAt = (time: string) => kolkataInstant('2026-11-25', time);
const fridayAt = (time: string) => kolkataInstant('2026-11-27', time);

const policy: DepositPolicy = {
  defaultCharge: { kind: 'deposit', perCoverPaise: 25_000 },
  rules: [
    { days: [5, 6], fromTime: '19:00', untilTime: '22:30', kind: 'prepayment', perCoverPaise: 150_000 },
    { days: [1, 2, 3, 4], fromTime: '12:00', untilTime: '15:00', kind: 'none', perCoverPaise: 0 },
    { days: [5], fromTime: '18:00', untilTime: '23:00', kind: 'deposit', perCoverPaise: 99_900 },
  ],
  freeCancelMinutes: DEFAULT_FREE_CANCEL_MINUTES,
  lateCancelKeepPercent: 100,
  noShowKeepPercent: 100,
};

describe('the charge a slot carries', () => {
  it('falls back to the default when no rule matches', () => {
    expect(chargeForSlot(policy, wednesdayAt('19:30'))).toEqual({ kind: 'deposit', perCoverPaise: 25_000 });
  });

  it('takes the first rule that matches the Kolkata weekday and time, ends included', () => {
    expect(chargeForSlot(policy, fridayAt('19:00'))).toEqual({ kind: 'prepayment', perCoverPaise: 150_000 });
    expect(chargeForSlot(policy, fridayAt('22:30'))).toEqual({ kind: 'prepayment', perCoverPaise: 150_000 });
    // 22:45 is outside the first rule, inside the third.
    expect(chargeForSlot(policy, fridayAt('22:45'))).toEqual({ kind: 'deposit', perCoverPaise: 99_900 });
    expect(chargeForSlot(policy, wednesdayAt('12:00'))).toEqual({ kind: 'none', perCoverPaise: 0 });
  });

  it('reads the weekday in Kolkata, not UTC (00:30 Saturday in Kolkata is Friday in UTC)', () => {
    const saturdayEarly = kolkataInstant('2026-11-28', '00:30');
    expect(saturdayEarly.getUTCDay()).toBe(5);
    const onlySaturday: DepositPolicy = {
      ...noDepositPolicy,
      rules: [{ days: [6], fromTime: '00:00', untilTime: '01:00', kind: 'deposit', perCoverPaise: 100 }],
    };
    expect(chargeForSlot(onlySaturday, saturdayEarly)).toEqual({ kind: 'deposit', perCoverPaise: 100 });
  });

  it('treats a zero amount as no charge', () => {
    expect(chargeForSlot({ ...noDepositPolicy, defaultCharge: { kind: 'deposit', perCoverPaise: 0 } }, wednesdayAt('19:30'))).toEqual({
      kind: 'none',
      perCoverPaise: 0,
    });
  });

  it("lets a drop's deposit set the amount, except where the meal is already prepaid", () => {
    expect(chargeForBooking(noDepositPolicy, wednesdayAt('19:30'), { perCoverPaise: 40_000 })).toEqual({ kind: 'deposit', perCoverPaise: 40_000 });
    expect(chargeForBooking(policy, wednesdayAt('19:30'), { perCoverPaise: 40_000 })).toEqual({ kind: 'deposit', perCoverPaise: 40_000 });
    expect(chargeForBooking(policy, fridayAt('20:00'), { perCoverPaise: 40_000 })).toEqual({ kind: 'prepayment', perCoverPaise: 150_000 });
    expect(chargeForBooking(policy, wednesdayAt('19:30'), null)).toEqual({ kind: 'deposit', perCoverPaise: 25_000 });
  });
});

describe('depositRequirementFor', () => {
  it('asks nothing under the no-deposit policy', () => {
    expect(depositRequirementFor(noDepositPolicy, { startsAt: wednesdayAt('19:30'), covers: 4 })).toEqual({ kind: 'none' });
  });

  it('multiplies by the covers, closes the free window 2 hours ahead and says so in plain words', () => {
    const startsAt = wednesdayAt('21:30');
    const requirement = depositRequirementFor(policy, { startsAt, covers: 2 });
    expect(requirement).toEqual({
      kind: 'deposit',
      amountPaise: 50_000,
      perCoverPaise: 25_000,
      freeCancelUntil: wednesdayAt('19:30'),
      lateCancelKeepPaise: 50_000,
      noShowKeepPaise: 50_000,
      plainWords:
        'A deposit of ₹500 (₹250 a guest) is blocked on your card or UPI now. It becomes credit on your bill when you are seated. Cancel before 7:30 PM on Wed, 25 Nov and it is released in full; after that, or if you do not come, ₹500 is kept.',
    });
  });

  it('keeps shares rounded down to whole paise and names them apart when they differ', () => {
    const shares: DepositPolicy = { ...policy, lateCancelKeepPercent: 33, noShowKeepPercent: 100, freeCancelMinutes: 24 * 60 };
    const requirement = depositRequirementFor(shares, { startsAt: wednesdayAt('20:00'), covers: 1 });
    expect(requirement).toMatchObject({
      amountPaise: 25_000,
      lateCancelKeepPaise: 8_250,
      noShowKeepPaise: 25_000,
      freeCancelUntil: kolkataInstant('2026-11-24', '20:00'),
    });
    if (requirement.kind === 'none') throw new Error('expected a deposit');
    expect(requirement.plainWords).toBe(
      'A deposit of ₹250 is blocked on your card or UPI now. It becomes credit on your bill when you are seated. Cancel before 8:00 PM on Tue, 24 Nov and it is released in full; if you cancel after that, ₹82.50 is kept, and if you do not come, ₹250 is kept.',
    );
  });

  it('words a prepayment, a zero late fee, and a window that has already closed', () => {
    const lenient: DepositPolicy = { ...policy, lateCancelKeepPercent: 0, noShowKeepPercent: 50 };
    const startsAt = fridayAt('20:00');
    const late = depositRequirementFor(lenient, { startsAt, covers: 3, now: fridayAt('19:00') });
    if (late.kind === 'none') throw new Error('expected a prepayment');
    expect(late.kind).toBe('prepayment');
    expect(late.amountPaise).toBe(450_000);
    expect(late.plainWords).toBe(
      'A prepayment of ₹4,500 (₹1,500 a guest) is blocked on your card or UPI now. It pays for your meal when you are seated. The free-cancel time has passed: if you cancel, nothing is kept, and if you do not come, ₹2,250 is kept.',
    );
    const closedSame = depositRequirementFor(policy, { startsAt, covers: 1, now: fridayAt('18:30') });
    expect(closedSame.kind !== 'none' && closedSame.plainWords).toMatch(/The free-cancel time has passed: if you cancel or do not come, ₹1,500 is kept\.$/);
  });

  it('leaves out the per-guest aside for a party of one', () => {
    const one = depositRequirementFor(policy, { startsAt: wednesdayAt('21:30'), covers: 1 });
    expect(one.kind !== 'none' && one.plainWords.startsWith('A deposit of ₹250 is blocked')).toBe(true);
  });
});

describe('money in words and forms', () => {
  it('formats paise as rupees with Indian grouping', () => {
    expect(formatRupees(0)).toBe('₹0');
    expect(formatRupees(50_000)).toBe('₹500');
    expect(formatRupees(150_000)).toBe('₹1,500');
    expect(formatRupees(12_345_678)).toBe('₹1,23,456.78');
    expect(formatRupees(1_000_000_000)).toBe('₹1,00,00,000');
    expect(formatRupees(5)).toBe('₹0.05');
    expect(formatRupees(12_345)).toBe('₹123.45');
    expect(formatRupees(12_345_600)).toBe('₹1,23,456');
  });

  it('reads typed rupees as paise and refuses anything else', () => {
    expect(rupeesToPaise('500')).toBe(50_000);
    expect(rupeesToPaise(' 249.5 ')).toBe(24_950);
    expect(rupeesToPaise('0.05')).toBe(5);
    for (const bad of ['', '-5', '1e3', '12.345', 'abc', '1,000', '1234567']) expect(rupeesToPaise(bad)).toBeNull();
    expect(paiseToRupeesInput(24_950)).toBe('249.50');
    expect(paiseToRupeesInput(50_000)).toBe('500');
  });

  it('rounds kept shares down', () => {
    expect(keptShare(999, 50)).toBe(499);
    expect(keptShare(1000, 100)).toBe(1000);
    expect(keptShare(1000, 0)).toBe(0);
  });

  it('accepts only forward ranges on real weekdays', () => {
    expect(isWellFormedRule({ days: [0, 6], fromTime: '18:00', untilTime: '23:00' })).toBe(true);
    expect(isWellFormedRule({ days: [], fromTime: '18:00', untilTime: '23:00' })).toBe(false);
    expect(isWellFormedRule({ days: [7], fromTime: '18:00', untilTime: '23:00' })).toBe(false);
    expect(isWellFormedRule({ days: [1], fromTime: '23:00', untilTime: '18:00' })).toBe(false);
    expect(isWellFormedRule({ days: [1], fromTime: '7pm', untilTime: '23:00' })).toBe(false);
  });
});
