import { describe, expect, it } from 'vitest';
import { cancelMoneySentences, depositFigures, moneyEmail, moneySentence, type IntentFigures } from './money-sentences.ts';

const intent = (figures: Partial<IntentFigures>): IntentFigures & { amountPaise: number } => ({
  status: 'AUTHORISED',
  authorisedPaise: 40_000,
  capturedPaise: 0,
  refundedPaise: 0,
  capturePurpose: null,
  amountPaise: 40_000,
  ...figures,
});

describe('money sentences', () => {
  it('a settled deposit email says what happened and never that the money is still blocked or kept', () => {
    const released = moneyEmail(depositFigures(intent({ status: 'RELEASED' })), 'Vino Veritas')!;
    expect(released.subject).toBe('₹400 released');
    expect(released.withTerms).toBe(false);
    expect(released.sentence).not.toMatch(/is blocked|is kept/);
    const credited = moneyEmail(depositFigures(intent({ status: 'CAPTURED', capturedPaise: 40_000, capturePurpose: 'credit_at_table' })), 'Vino Veritas')!;
    expect(credited.subject).toBe('₹400 credited on your bill');
    expect(credited.withTerms).toBe(false);
    expect(credited.sentence).not.toMatch(/is kept/);
  });

  it('names a late-cancel fee and a no-show fee, with what was released', () => {
    const late = depositFigures(intent({ status: 'CAPTURED', capturedPaise: 20_000, capturePurpose: 'keep' }), { feeReason: 'late_cancel' });
    expect(moneySentence(late)).toBe('₹200 kept as a late-cancel fee; ₹200 released.');
    const noShow = depositFigures(intent({ status: 'CAPTURED', capturedPaise: 40_000, capturePurpose: 'keep' }), { feeReason: 'no_show' });
    expect(moneySentence(noShow)).toBe('₹400 kept as a no-show fee.');
    expect(moneyEmail(noShow, 'X')!.subject).toBe('₹400 kept as a no-show fee');
  });

  it('a decided release reads as under way before the provider answers', () => {
    const figures = depositFigures(intent({}), { decided: { move: 'release', paise: 0 } });
    expect(figures.state).toBe('releasing');
    expect(moneySentence(figures)).toBe('₹400 being released in full; nothing taken.');
  });

  it('the cancel dialog says what a cancel does, by the same table the server runs', () => {
    const terms = {
      kind: 'deposit' as const,
      amountPaise: 40_000,
      perCoverPaise: 20_000,
      freeCancelUntil: new Date('2026-11-27T12:00:00Z'),
      lateCancelKeepPaise: 20_000,
      noShowKeepPaise: 40_000,
    };
    const held = depositFigures(intent({}));
    expect(cancelMoneySentences('CONFIRMED', terms, held, new Date('2026-11-27T11:00:00Z'))!.before).toBe(
      'Your ₹400 deposit will be released in full; nothing is kept.',
    );
    expect(cancelMoneySentences('CONFIRMED', terms, held, new Date('2026-11-27T13:00:00Z'))!.before).toBe(
      '₹200 of your ₹400 deposit will be kept as a late-cancel fee; ₹200 will be released.',
    );
    // Not accepted yet: the restaurant had not agreed, so no fee whenever the diner cancels.
    expect(cancelMoneySentences('PENDING', terms, held, new Date('2026-11-27T13:00:00Z'))!.before).toBe(
      'Your ₹400 deposit will be released in full; nothing is kept.',
    );
    expect(cancelMoneySentences('CONFIRMED', terms, depositFigures(intent({ status: 'RELEASED' })), new Date())).toBeNull();
  });
});
