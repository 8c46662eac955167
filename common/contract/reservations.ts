import { z } from 'zod';
import { clockTime, isoDate, slotRef, uuid } from './common.ts';
import { depositRequirement } from './deposits.ts';
import { paymentToApprove } from './payments.ts';
import { partySize, restaurantRef } from './restaurants.ts';
import { reservationStatuses } from '../domain/reservation-status.ts';
import { occasions, requestPicks, SPECIAL_REQUEST_MAX } from '../domain/guests.ts';

export const reservationStatus = z.enum(reservationStatuses);

/**
 * What a diner tells the restaurant for one booking (decision 260): an occasion, quick picks and a
 * short request. Editable until the booking's cut-off; the diner may remove it at any time.
 */
export const bookingRequest = z.object({
  occasion: z.enum(occasions, { message: `occasion: Choose one of ${occasions.join(', ')}` }).nullable(),
  picks: z
    .array(z.enum(requestPicks, { message: `picks: Choose from ${requestPicks.join(', ')}` }))
    .max(requestPicks.length)
    .transform((picks) => [...new Set(picks)]),
  // One line (decision 203): a line break becomes a space, so the words cannot add lines to an email.
  note: z
    .string()
    .trim()
    .max(SPECIAL_REQUEST_MAX, { message: `note: At most ${SPECIAL_REQUEST_MAX} characters` })
    .transform((note) => note.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').trim()),
});
/** The request as answers carry it. */
export const bookingRequestView = z.object({
  occasion: z.enum(occasions).nullable(),
  picks: z.array(z.enum(requestPicks)),
  note: z.string(),
});
export type BookingRequest = z.infer<typeof bookingRequestView>;

export const createReservationBody = z.object({
  restaurantSlug: z.string({ message: 'restaurantSlug is required' }).min(1, { message: 'restaurantSlug is required' }).max(120),
  date: isoDate,
  time: clockTime,
  partySize,
  /** Optional: what the diner tells the restaurant (decision 260). */
  request: bookingRequest.optional(),
});
export type CreateReservationBody = z.infer<typeof createReservationBody>;

/** A reservation as its diner sees it (spec section 3, plus its cancel rule's inputs). */
export const dinerReservation = z.object({
  id: z.string(),
  status: reservationStatus,
  partySize: z.number(),
  restaurant: restaurantRef,
  slot: slotRef,
  holdExpiresAt: z.string().nullable(),
  startsAt: z.string(),
  createdAt: z.string(),
  /** Set on a hold that ran out before it was confirmed (shown as "Expired"). */
  expired: z.boolean().optional(),
  /** What the diner told the restaurant, or null (decision 260). */
  request: bookingRequestView.nullable().optional(),
  /** Until when the request may be changed: the booking's cut-off (decision 260). */
  requestEditableUntil: z.string().optional(),
});
export type DinerReservation = z.infer<typeof dinerReservation>;

/** GET /api/reservations/{id}: the reservation and what it asks as a deposit (the hold screen, decision 132). */
export const reservationDetail = dinerReservation.extend({ deposit: depositRequirement });
export type ReservationDetail = z.infer<typeof reservationDetail>;

/**
 * POST /api/reservations/{id}/confirm: the reservation, and where its slot asks a deposit, the
 * payment to approve (the hold stays HELD until the authorisation arrives, decision 130).
 */
export const confirmReservationResponse = dinerReservation.extend({
  payment: paymentToApprove.nullable(),
});
export type ConfirmReservationResponse = z.infer<typeof confirmReservationResponse>;

export const createReservationResponse = dinerReservation;
export const reservationList = z.array(dinerReservation);

export const reservationIdParams = z.object({ id: uuid });

export const reservationSummary = z.object({
  pending: z.number(),
  ongoing: z.number(),
  completed: z.number(),
});
export type ReservationSummary = z.infer<typeof reservationSummary>;
