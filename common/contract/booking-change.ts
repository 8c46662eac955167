import { z } from 'zod';
import { clockTime, isoDate } from './common.ts';
import { dinerReservation } from './reservations.ts';
import { paymentToApprove } from './payments.ts';
import { partySize } from './restaurants.ts';

/** A diner's change of a booking (decisions 280-284): another time and/or party size at the same restaurant. */
export const changeBookingBody = z.object({
  date: isoDate,
  time: clockTime,
  partySize,
});
export type ChangeBookingBody = z.infer<typeof changeBookingBody>;

/** GET /api/reservations/{id}/change-terms: the same fields, as a query. */
export const changeTermsQuery = changeBookingBody;

/** What a change costs or releases, read before the diner confirms (common/domain/booking-change.ts). */
export const changeTerms = z.object({
  kind: z.enum(['free', 'pay_extra', 'release']),
  depositPaise: z.number().int(),
  extraPaise: z.number().int(),
  releasedPaise: z.number().int(),
  freeCancelUntil: z.string().nullable(),
  words: z.string(),
});
export type ChangeTermsView = z.infer<typeof changeTerms>;

/**
 * POST /api/reservations/{id}/change: the booking as it is now (changed, or unchanged while an
 * extra deposit waits), the terms, and the payment to approve when the change asks one.
 */
export const changeBookingResponse = z.object({
  reservation: dinerReservation,
  terms: changeTerms,
  applied: z.boolean(),
  payment: paymentToApprove.nullable(),
});
export type ChangeBookingResponse = z.infer<typeof changeBookingResponse>;

/** One change of a booking, as staff and the diner read it. */
export const bookingChangeView = z.object({
  id: z.string(),
  status: z.enum(['awaiting_payment', 'applied', 'refused']),
  description: z.string(),
  fromStartsAt: z.string(),
  toStartsAt: z.string(),
  fromPartySize: z.number().int(),
  toPartySize: z.number().int(),
  extraPaise: z.number().int(),
  releasedPaise: z.number().int(),
  actor: z.enum(['diner', 'staff', 'system']),
  createdAt: z.string(),
  appliedAt: z.string().nullable(),
});
export type BookingChangeView = z.infer<typeof bookingChangeView>;
