import { z } from 'zod';
import { slotRef, uuid } from './common.ts';
import { restaurantRef } from './restaurants.ts';
import { DISPUTE_REASON_MAX } from '../domain/strikes.ts';

/** No-show strikes and their disputes (decision 122). */

export const disputeStatuses = ['open', 'upheld', 'rejected'] as const;
export const disputeStatus = z.enum(disputeStatuses);

/** A strike as its diner sees it on /me. */
export const myStrike = z.object({
  id: z.string(),
  restaurant: restaurantRef,
  slot: slotRef,
  recordedAt: z.string(),
  /** Until when a dispute may be sent (14 days after the strike). */
  disputeUntil: z.string(),
  canDispute: z.boolean(),
  dispute: z.object({ status: disputeStatus, reason: z.string(), createdAt: z.string(), resolvedAt: z.string().nullable() }).nullable(),
  /** False once an upheld dispute removed it. */
  counts: z.boolean(),
});
export type MyStrike = z.infer<typeof myStrike>;

export const myStrikesResponse = z.object({
  strikes: z.array(myStrike),
  /** How many strikes block bookings, over how many days (STRIKE_LIMIT, STRIKE_WINDOW_DAYS). */
  limit: z.number(),
  windowDays: z.number(),
  /** While blocked: when the block lifts, and the sentence holds and drop entries are refused with. */
  blockedUntil: z.string().nullable(),
  blockMessage: z.string().nullable(),
});
export type MyStrikesResponse = z.infer<typeof myStrikesResponse>;

export const strikeIdParams = z.object({ id: uuid });

export const disputeStrikeBody = z.object({
  reason: z
    .string({ message: 'reason is required' })
    .trim()
    .min(1, { message: 'reason: say what happened' })
    .max(DISPUTE_REASON_MAX, { message: `reason must be at most ${DISPUTE_REASON_MAX} characters` }),
});
export type DisputeStrikeBody = z.infer<typeof disputeStrikeBody>;

/** A dispute as the restaurant's staff see it in the portal. */
export const adminStrikeDispute = z.object({
  id: z.string(),
  strikeId: z.string(),
  reservationId: z.string(),
  diner: z.object({ name: z.string() }),
  slot: slotRef,
  partySize: z.number(),
  reason: z.string(),
  status: disputeStatus,
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type AdminStrikeDispute = z.infer<typeof adminStrikeDispute>;
export const adminStrikeDisputeList = z.array(adminStrikeDispute);

export const disputeIdParams = z.object({ id: uuid });
export const resolveDisputeBody = z.object({
  outcome: z.enum(['uphold', 'reject'], { message: 'outcome must be uphold or reject' }),
});
export type ResolveDisputeBody = z.infer<typeof resolveDisputeBody>;
