import { z } from 'zod';
import { clockTime } from './common.ts';
import {
  depositKinds,
  formatRupees,
  isWellFormedRule,
  MAX_DEPOSIT_RULES,
  MAX_FREE_CANCEL_MINUTES,
  MAX_PER_COVER_PAISE,
  type DepositPolicy,
  type DepositRequirement,
} from '../domain/deposit-policy.ts';

/** Deposits: the policy staff edit, and the requirement diners read. Amounts are integer paise. */

export const depositKind = z.enum(depositKinds, { message: `kind must be one of ${depositKinds.join(', ')}` });

const paise = (field: string) =>
  z
    .number({ message: `${field} must be a number of paise` })
    .int({ message: `${field} must be a whole number of paise` })
    .min(0, { message: `${field} cannot be negative` })
    .max(MAX_PER_COVER_PAISE, { message: `${field} must be at most ${formatRupees(MAX_PER_COVER_PAISE)} a guest` });

const percent = (field: string) =>
  z
    .number({ message: `${field} must be a number` })
    .int({ message: `${field} must be a whole percentage` })
    .min(0, { message: `${field} must be between 0 and 100` })
    .max(100, { message: `${field} must be between 0 and 100` });

/** A charge with an amount when it asks for money. */
function chargeIsWhole(charge: { kind: string; perCoverPaise: number }): boolean {
  return charge.kind === 'none' || charge.perCoverPaise > 0;
}
const AMOUNT_NEEDED = 'perCoverPaise: enter an amount a guest, or choose No deposit';

export const depositCharge = z
  .object({ kind: depositKind, perCoverPaise: paise('perCoverPaise') })
  .refine(chargeIsWhole, { message: AMOUNT_NEEDED, path: ['perCoverPaise'] });

export const depositRule = z
  .object({
    days: z
      .array(z.number().int().min(0).max(6), { message: 'days must be a list of weekdays' })
      .min(1, { message: 'days: choose at least one day' })
      .max(7)
      .refine((days) => new Set(days).size === days.length, { message: 'days: each day once' }),
    fromTime: clockTime,
    untilTime: clockTime,
    kind: depositKind,
    perCoverPaise: paise('perCoverPaise'),
  })
  .refine(chargeIsWhole, { message: AMOUNT_NEEDED, path: ['perCoverPaise'] })
  .refine(isWellFormedRule, { message: 'untilTime: the range must end at or after it starts', path: ['untilTime'] });

/** PUT /api/admin/deposit-policy and its answer: the whole policy, rules in the order they are tried. */
export const depositPolicyBody = z.object({
  defaultCharge: depositCharge,
  rules: z.array(depositRule).max(MAX_DEPOSIT_RULES, { message: `rules: at most ${MAX_DEPOSIT_RULES}` }),
  freeCancelMinutes: z
    .number({ message: 'freeCancelMinutes must be a number' })
    .int({ message: 'freeCancelMinutes must be a whole number of minutes' })
    .min(0, { message: `freeCancelMinutes must be between 0 and ${MAX_FREE_CANCEL_MINUTES}` })
    .max(MAX_FREE_CANCEL_MINUTES, { message: `freeCancelMinutes must be between 0 and ${MAX_FREE_CANCEL_MINUTES}` }),
  lateCancelKeepPercent: percent('lateCancelKeepPercent'),
  noShowKeepPercent: percent('noShowKeepPercent'),
}) satisfies z.ZodType<DepositPolicy>;
export type DepositPolicyBody = z.infer<typeof depositPolicyBody>;

export const adminDepositPolicy = depositPolicyBody.extend({
  /** When staff last saved it; null while the restaurant has never set one (no deposit). */
  updatedAt: z.string().nullable(),
});
export type AdminDepositPolicy = z.infer<typeof adminDepositPolicy>;

/** What one slot asks per guest, for the restaurant page. */
export const slotDeposit = z.object({ kind: z.enum(['deposit', 'prepayment']), perCoverPaise: z.number() });
export type SlotDeposit = z.infer<typeof slotDeposit>;

/** The agreed DepositRequirement (common/domain/deposit-policy.ts) as JSON: the instant as an ISO string. */
export const depositRequirement = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({
    kind: z.enum(['deposit', 'prepayment']),
    amountPaise: z.number(),
    perCoverPaise: z.number(),
    freeCancelUntil: z.string(),
    lateCancelKeepPaise: z.number(),
    noShowKeepPaise: z.number(),
    plainWords: z.string(),
  }),
]);
export type DepositRequirementView = z.infer<typeof depositRequirement>;

/** The requirement as JSON. */
export function toDepositRequirementView(requirement: DepositRequirement): DepositRequirementView {
  if (requirement.kind === 'none') return { kind: 'none' };
  return { ...requirement, freeCancelUntil: requirement.freeCancelUntil.toISOString() };
}
