import { z } from 'zod';
import { clockTime, isoDate, slotRef, uuid } from './common.ts';
import { depositRequirement } from './deposits.ts';
import { partySize, restaurantRef } from './restaurants.ts';
import { reservationStatuses } from '../domain/reservation-status.ts';

export const reservationStatus = z.enum(reservationStatuses);

export const createReservationBody = z.object({
  restaurantSlug: z.string({ message: 'restaurantSlug is required' }).min(1, { message: 'restaurantSlug is required' }).max(120),
  date: isoDate,
  time: clockTime,
  partySize,
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
  payment: z
    .object({
      intentId: z.string(),
      amountPaise: z.number().int(),
      /** The sandbox page (or null when the gateway's own checkout opens). */
      approvalUrl: z.string().nullable(),
    })
    .nullable(),
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
