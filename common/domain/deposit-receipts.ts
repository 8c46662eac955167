/**
 * Where a booking's deposit stands, in the words a diner and the portal show (docs/payments.md),
 * read from its payment intent. The words themselves are money-sentences.ts's (decision 220).
 */
import { depositFigures, moneySentence, type IntentFigures } from './money-sentences.ts';

export { depositStateLabels, depositStates, type DepositState, type IntentFigures } from './money-sentences.ts';

export function depositStateOf(intent: IntentFigures) {
  return depositFigures({ ...intent, amountPaise: intent.authorisedPaise }).state;
}

/** The receipt's sentence for a deposit of `amountPaise`. */
export function depositReceipt(intent: IntentFigures & { amountPaise: number }): string {
  return moneySentence(depositFigures(intent));
}
