import { describe, expect, it } from 'vitest';
import {
  canMove,
  paymentIntentEvents,
  paymentIntentStatuses,
  paymentIntentTransitions,
  payoutStatusAfter,
  postingLines,
  settledPaymentStatuses,
  transitionFor,
} from './payment-intent.ts';

const sum = (lines: { amountPaise: number }[]) => lines.reduce((total, line) => total + line.amountPaise, 0);

describe('the payment intent state machine', () => {
  it('has at most one move per status and event, so a webhook always means one thing', () => {
    const keys = paymentIntentTransitions.map((t) => `${t.from}:${t.event}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('moves an authorisation forward and refuses what does not fit', () => {
    expect(canMove('CREATED', 'authorised')).toBe(true);
    expect(canMove('AUTHORISED', 'capture_requested')).toBe(true);
    expect(canMove('CAPTURE_PENDING', 'captured')).toBe(true);
    // A late or duplicated 'authorised' after a capture changes nothing.
    expect(canMove('CAPTURED', 'authorised')).toBe(false);
    expect(canMove('CAPTURE_PENDING', 'authorised')).toBe(false);
    // Capture and release exclude each other: whichever is asked first wins.
    expect(canMove('CAPTURE_PENDING', 'release_requested')).toBe(false);
    expect(canMove('RELEASE_PENDING', 'capture_requested')).toBe(false);
    expect(canMove('CREATED', 'capture_requested')).toBe(false);
    expect(canMove('RELEASED', 'refund_requested')).toBe(false);
  });

  it('releases at once an authorisation that arrives after the intent expired, and takes a retry after a decline', () => {
    expect(transitionFor('EXPIRED', 'authorised')?.releaseAtOnce).toBe(true);
    expect(transitionFor('FAILED', 'authorised')?.releaseAtOnce).toBeUndefined();
    expect(transitionFor('CREATED', 'authorised')?.releaseAtOnce).toBeUndefined();
  });

  it('leaves the final statuses only by the documented exits', () => {
    const exits = paymentIntentTransitions.filter((t) => settledPaymentStatuses.includes(t.from)).map((t) => `${t.from}:${t.event}`);
    expect(exits.sort()).toEqual(['CAPTURED:refund_requested', 'EXPIRED:authorised', 'FAILED:authorised']);
    expect(paymentIntentTransitions.some((t) => t.from === 'RELEASED' || t.from === 'REFUNDED')).toBe(false);
  });

  it('names only known statuses and events', () => {
    for (const t of paymentIntentTransitions) {
      expect(paymentIntentStatuses).toContain(t.from);
      expect(paymentIntentStatuses).toContain(t.to);
      expect(paymentIntentEvents).toContain(t.event);
    }
  });

  it('posts money only when the provider says it moved', () => {
    for (const t of paymentIntentTransitions) {
      if (t.actor === 'service') expect(t.posting).toBe('none');
    }
  });
});

describe('postings', () => {
  it('balance to zero whatever the amounts', () => {
    for (const [authorised, captured, refunded] of [
      [50_000, 50_000, 50_000],
      [50_000, 20_000, 1],
      [1, 1, 0],
      [99_999, 0, 0],
    ]) {
      expect(sum(postingLines('authorise', { authorisedPaise: authorised }))).toBe(0);
      expect(sum(postingLines('release', { authorisedPaise: authorised }))).toBe(0);
      expect(sum(postingLines('capture', { authorisedPaise: authorised, capturedPaise: captured }))).toBe(0);
      expect(sum(postingLines('capture', { authorisedPaise: authorised, capturedPaise: captured, capturePurpose: 'credit_at_table' }))).toBe(0);
      expect(sum(postingLines('refund', { authorisedPaise: authorised, refundedPaise: refunded }))).toBe(0);
      expect(sum(postingLines('capture', { authorisedPaise: authorised, capturedPaise: captured, capturePurpose: 'pay_member' }))).toBe(0);
      expect(sum(postingLines('payout', { authorisedPaise: authorised, capturedPaise: captured }))).toBe(0);
    }
  });

  it('keeps a flake’s deposit for the member who came in member_payable, then pays it out to money outside us', () => {
    expect(postingLines('capture', { authorisedPaise: 30_000, capturePurpose: 'pay_member' })).toEqual([
      { account: 'member_payable', amountPaise: 30_000 },
      { account: 'diner_authorised', amountPaise: -30_000 },
    ]);
    expect(postingLines('payout', { authorisedPaise: 30_000 })).toEqual([
      { account: 'diner_funds', amountPaise: 30_000 },
      { account: 'member_payable', amountPaise: -30_000 },
    ]);
    // The payout pays what it sent, not what was authorised, when they differ.
    expect(postingLines('payout', { authorisedPaise: 30_000, capturedPaise: 20_000, paidOutPaise: 20_000 })[0]).toEqual({
      account: 'diner_funds',
      amountPaise: 20_000,
    });
  });

  it('nets to nothing over a whole pay-to-member flow: the money left one person outside us and reached another', () => {
    const flow = [
      ...postingLines('authorise', { authorisedPaise: 30_000 }),
      ...postingLines('capture', { authorisedPaise: 30_000, capturePurpose: 'pay_member' }),
      ...postingLines('payout', { authorisedPaise: 30_000 }),
    ];
    const byAccount = (account: string) => sum(flow.filter((line) => line.account === account));
    expect(byAccount('member_payable')).toBe(0);
    expect(byAccount('diner_authorised')).toBe(0);
    expect(byAccount('diner_funds')).toBe(0);
  });

  it('has no refund of a deposit paid out to a member', () => {
    expect(() => postingLines('refund', { authorisedPaise: 30_000, refundedPaise: 1, capturePurpose: 'pay_member' })).toThrow(/no refund/);
  });

  it('sends what a partial capture does not keep back to the diner', () => {
    expect(postingLines('capture', { authorisedPaise: 50_000, capturedPaise: 20_000 })).toEqual([
      { account: 'restaurant_receivable', amountPaise: 20_000 },
      { account: 'diner_authorised', amountPaise: -50_000 },
      { account: 'diner_funds', amountPaise: 30_000 },
    ]);
    expect(postingLines('capture', { authorisedPaise: 50_000, capturePurpose: 'credit_at_table' })[0]).toEqual({
      account: 'restaurant_credit_at_table',
      amountPaise: 50_000,
    });
  });
});

describe('payouts', () => {
  it('settle once from PENDING, and nothing moves a settled payout', () => {
    expect(payoutStatusAfter('PENDING', 'processed')).toBe('PAID');
    expect(payoutStatusAfter('PENDING', 'failed')).toBe('FAILED');
    expect(payoutStatusAfter('PENDING', 'reversed')).toBe('FAILED');
    expect(payoutStatusAfter('PAID', 'processed')).toBeUndefined();
    expect(payoutStatusAfter('PAID', 'reversed')).toBeUndefined();
    expect(payoutStatusAfter('FAILED', 'processed')).toBeUndefined();
  });
});
