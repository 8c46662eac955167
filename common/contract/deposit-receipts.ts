import { z } from 'zod';
import { depositStates } from '#common/domain/deposit-receipts.ts';
import { isoDate, slotRef } from './common.ts';
import { restaurantRef } from './restaurants.ts';

/** The diner's deposits with their receipts (/me) and the portal's deposit day (docs/payments.md). */

export const depositState = z.enum(depositStates);

export const myDeposit = z.object({
  reservationId: z.string(),
  restaurant: restaurantRef,
  slot: slotRef,
  amountPaise: z.number().int(),
  state: depositState,
  receipt: z.string(),
  updatedAt: z.string(),
  /** The receipt a person can keep: our payment id, how it was paid, when it was blocked (ISO; shown in IST). */
  paymentId: z.string(),
  method: z.string(),
  paidAt: z.string().nullable(),
  /** What is still blocked, and what the booking agreed, so a cancel can say what it does to the money. */
  blockedPaise: z.number().int(),
  terms: z.object({
    kind: z.enum(['deposit', 'prepayment']),
    amountPaise: z.number().int(),
    perCoverPaise: z.number().int(),
    freeCancelUntil: z.string(),
    lateCancelKeepPaise: z.number().int(),
    noShowKeepPaise: z.number().int(),
  }),
});
export const myDepositsResponse = z.object({ deposits: z.array(myDeposit) });
export type MyDeposit = z.infer<typeof myDeposit>;
export type MyDepositsResponse = z.infer<typeof myDepositsResponse>;

export const depositDayQuery = z.object({ date: isoDate });
export const depositDayResponse = z.object({
  date: z.string(),
  /** Each booking of the day that asked a deposit, and where its money stands. */
  bookings: z.array(
    z.object({
      reservationId: z.string(),
      amountPaise: z.number().int(),
      state: depositState,
      /** A Tablefair date's booking: both members' deposits together, and what to credit on the bill. */
      forDate: z.boolean().optional(),
      creditPaise: z.number().int().optional(),
    }),
  ),
  totals: z.object({ heldPaise: z.number().int(), capturedPaise: z.number().int(), releasedPaise: z.number().int() }),
});
export type DepositDayResponse = z.infer<typeof depositDayResponse>;

export const ledgerMonthQuery = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'month: Use a month written YYYY-MM' }),
});
