import { describe, expect, it } from 'vitest';
import { depositReceipt, depositStateOf, type IntentFigures } from './deposit-receipts.ts';

const intent = (figures: Partial<IntentFigures>): IntentFigures & { amountPaise: number } => ({
  status: 'AUTHORISED',
  authorisedPaise: 100_000,
  capturedPaise: 0,
  refundedPaise: 0,
  capturePurpose: null,
  amountPaise: 100_000,
  ...figures,
});

describe('deposit receipts', () => {
  it('names each state and its receipt', () => {
    expect(depositStateOf(intent({ status: 'CREATED', authorisedPaise: 0 }))).toBe('awaiting_payment');
    expect(depositStateOf(intent({ status: 'FAILED', authorisedPaise: 0 }))).toBe('not_paid');
    expect(depositStateOf(intent({ status: 'CAPTURE_PENDING' }))).toBe('held');
    expect(depositReceipt(intent({}))).toBe('₹1,000 blocked on your account until your visit; nothing taken.');
    expect(depositReceipt(intent({ status: 'CAPTURED', capturedPaise: 100_000, capturePurpose: 'credit_at_table' }))).toBe('₹1,000 credited on your bill.');
    expect(depositReceipt(intent({ status: 'CAPTURED', capturedPaise: 50_000, capturePurpose: 'keep' }))).toBe('₹500 kept as a fee; ₹500 released.');
    expect(depositReceipt(intent({ status: 'RELEASED' }))).toBe('₹1,000 released in full; nothing taken.');
    expect(depositReceipt(intent({ status: 'REFUNDED', capturedPaise: 50_000, refundedPaise: 50_000 }))).toBe(
      'Fee of ₹500 waived and refunded; ₹500 released.',
    );
  });
});
