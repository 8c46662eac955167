import type { DinerReservation } from '#common/contract/reservations.ts';
import { checkTransition, dinerStatusLabels, movesFrom } from '#common/domain/reservation-status.ts';
import { formatCountdown } from '#common/domain/time.ts';

/** The spec's words for the diner's confirm dialog on the home panel. */
export const CANCEL_RESERVATION_QUESTION = 'Are you sure you want to cancel this reservation? This action cannot be undone.';
export const CANCEL_HOLD_QUESTION = 'Are you sure you want to cancel this hold?';

/** 'Accepted' for CONFIRMED, and so on (common/domain). */
export function statusLabel(reservation: Pick<DinerReservation, 'status' | 'expired'>): string {
  return reservation.expired ? 'Expired' : dinerStatusLabels[reservation.status];
}

/** The hold screen's address: /r/{slug}/hold/{id}. */
export function holdPath(reservation: Pick<DinerReservation, 'id' | 'restaurant'>): string {
  return `/r/${encodeURIComponent(reservation.restaurant.slug)}/hold/${encodeURIComponent(reservation.id)}`;
}

function context(reservation: DinerReservation, now: Date) {
  return {
    now,
    holdExpiresAt: reservation.holdExpiresAt ? new Date(reservation.holdExpiresAt) : null,
    startsAt: new Date(reservation.startsAt),
  };
}

/**
 * What the diner can do with a reservation in a list, from the state machine
 * (movesFrom / checkTransition), never from a hand-written status list:
 * - completeBooking: a live hold, finished on the hold screen (Confirm / Cancel Hold live there);
 * - cancel: a diner move to CANCELLED whose guard holds now (PENDING; CONFIRMED 2 h ahead).
 */
export function dinerActions(reservation: DinerReservation, now: Date): { completeBooking: boolean; cancel: boolean } {
  const moves = movesFrom(reservation.status, 'diner');
  if (reservation.status === 'HELD') {
    const canConfirm = moves.some((move) => move.to === 'PENDING') && checkTransition('HELD', 'PENDING', 'diner', context(reservation, now)).allowed;
    return { completeBooking: canConfirm, cancel: false };
  }
  const cancel = moves.some((move) => move.to === 'CANCELLED') && checkTransition(reservation.status, 'CANCELLED', 'diner', context(reservation, now)).allowed;
  return { completeBooking: false, cancel };
}

/** True for a reservation that has not ended (for grouping /me into upcoming and past). */
export function isUpcoming(reservation: DinerReservation, now: Date): boolean {
  if (reservation.status === 'HELD') return reservation.holdExpiresAt !== null && Date.parse(reservation.holdExpiresAt) > now.getTime();
  return ['PENDING', 'CONFIRMED', 'SEATED'].includes(reservation.status);
}

/**
 * What the hold countdown says to screen readers: it changes once a minute (and at the
 * last minute and at zero), so a polite live region announces it without chattering.
 */
export function countdownAnnouncement(secondsLeft: number): string {
  if (secondsLeft <= 0) return 'Your hold has expired.';
  const minutes = Math.ceil(secondsLeft / 60);
  return minutes === 1 ? '1 minute left to confirm your table.' : `${minutes} minutes left to confirm your table.`;
}

/** The visible countdown with its unit, e.g. '9:41'. */
export function countdownText(secondsLeft: number): string {
  return formatCountdown(Math.max(0, secondsLeft));
}

/** '2 guests' / '1 guest'. */
export function partyLabel(partySize: number): string {
  return partySize === 1 ? '1 guest' : `${partySize} guests`;
}

/** What a failed confirm of a held table says (spec section 8), wherever the diner confirms it: hold screen, drop, waitlist offer. */
export const CONFIRM_FALLBACKS = { server: 'Confirmation failed', network: 'Failed to confirm reservation' };
