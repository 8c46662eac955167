import { randomBytes } from 'node:crypto';
import { DINER_CANCEL_NOTICE_MINUTES } from '#common/domain/reservation-status.ts';
import { formatDateShort, formatTime12h, MINUTE_MS } from '#common/domain/time.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, sessionExpired } from '#server/errors.ts';
import type { DropsService } from '#server/modules/drops/drops.service.ts';
import type { WaitlistService } from '#server/modules/waitlist/waitlist.service.ts';
import type { DatingErasure } from '#server/modules/dating/dating-erasure.ts';
import type { GuestsService } from '#server/modules/guests/guests.service.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import { emptyUser, findContactsOfUser } from './accounts.repository.ts';
import { requireDiner, type Principal } from './principal.ts';

/** Bookings still ahead that the deletion cancels (a hold, a request, an accepted table). */
const UPCOMING = new Set(['HELD', 'PENDING', 'CONFIRMED']);

/**
 * "Delete my account" (decision 266, docs/security.md): the diner's upcoming bookings are
 * cancelled through the diner's own cancel (the deposit rules as for any cancel), then in one
 * transaction everything personal goes: the profile, what they told restaurants, every
 * restaurant's notes about them, the messages sent to them, and the dating profile and photos on
 * their verified phone. The payment ledger stays, as the law requires, pointing at an account
 * that no longer says who it was.
 */
export function createAccountDeletion(
  { db, clock, log }: AppDeps,
  services: {
    reservations: ReservationsService;
    guests: GuestsService;
    notifications: NotificationsService;
    datingErasure: DatingErasure;
    waitlist: WaitlistService;
    drops: DropsService;
  },
) {
  const { reservations, guests, notifications, datingErasure, waitlist, drops } = services;
  return {
    async deleteMyAccount(principal: Principal): Promise<{ cancelledBookings: number }> {
      requireDiner(principal);
      const now = clock.now();
      const upcoming = (await reservations.listMyReservations(principal)).filter(
        (reservation) => UPCOMING.has(reservation.status) && Date.parse(reservation.startsAt) > now.getTime(),
      );
      // An accepted table within the notice is not the diner's to cancel: the account waits for it.
      const tooClose = upcoming.find(
        (reservation) => reservation.status === 'CONFIRMED' && Date.parse(reservation.startsAt) - now.getTime() < DINER_CANCEL_NOTICE_MINUTES * MINUTE_MS,
      );
      if (tooClose) {
        throw conflict(
          `Your table at ${tooClose.restaurant.name} on ${formatDateShort(tooClose.slot.date)} at ${formatTime12h(tooClose.slot.time)} is less than 2 hours away, so it can no longer be cancelled. You can delete your account after it, or ask the restaurant to cancel it.`,
        );
      }
      for (const reservation of upcoming) await reservations.cancelReservation(principal, reservation.id);

      const photoKeys = await db.transaction(async (tx) => {
        const contacts = await findContactsOfUser(tx, principal.userId);
        if (!contacts) throw sessionExpired();
        await waitlist.leaveAllLines(tx, principal.userId, now);
        await drops.withdrawAllEntries(tx, principal.userId);
        await reservations.eraseRequestsOf(tx, principal.userId);
        await guests.eraseNotesAbout(tx, principal.userId);
        const recipients = [contacts.email, contacts.phone, contacts.verified_phone].filter((value): value is string => Boolean(value));
        await notifications.eraseMessagesOf(tx, principal.userId, recipients);
        const keys = contacts.verified_phone ? await datingErasure.eraseMemberOnPhone(tx, contacts.verified_phone, now) : [];
        await emptyUser(tx, principal.userId, `deleted_${randomBytes(8).toString('hex')}`, now);
        return keys;
      });
      await datingErasure.deletePhotoFiles(photoKeys);
      log.info({ userId: principal.userId, cancelledBookings: upcoming.length }, 'diner account deleted');
      return { cancelledBookings: upcoming.length };
    },
  };
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>;
