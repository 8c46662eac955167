import type { CalendarLink, ReminderLinkView, ReminderReply, ReminderSetting } from '#common/contract/reminders.ts';
import { changeHeadline } from '#common/domain/booking-change.ts';
import { describeRequest } from '#common/domain/guests.ts';
import { changeMoneySentence } from '#common/domain/money-sentences.ts';
import type { DinerReservation } from '#common/contract/reservations.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { asDate, iso, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, badInput, notFound } from '#server/errors.ts';
import { requireDiner, requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { createNotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { DepositsService } from '#server/modules/reservations/deposits.service.ts';
import type { AppliedChange } from '#server/modules/reservations/change-booking.ts';
import type { MoveStep, ReservationMove } from '#server/modules/reservations/move-reservation.ts';
import type { LinkedReservation } from '#server/modules/reservations/reservation-reads.ts';
import { RESERVATION_NOT_FOUND } from '#server/modules/reservations/reservation-view.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import { createSigningKey } from '#server/signing.ts';
import { reservationCalendarFile } from './calendar-file.ts';
import { readAnswerLink, readCalendarLink, signAnswerLink, signCalendarLink, type AnswerLink } from './reminder-links.ts';
import { bookingChangedEmail, calendarUpdateEmail, reminderEmail, reminderText, type ReminderFacts, type ReminderLinks } from './reminder-messages.ts';
import {
  claimDueReminders,
  findReply,
  someoneWasWaitingFor,
  insertComingReply,
  listReplies,
  remindersAreOff,
  setRemindersOff,
  upsertReleasedReply,
  type ClaimedReminder,
  type StoredReply,
} from './reminders.repository.ts';

type Notifications = ReturnType<typeof createNotificationsService>;

/** Reminders claimed and written to the outbox per transaction; a sweep takes batches until none is left. */
export const REMINDER_BATCH = 500;
/** A sweep stops after this many batches, leaving the rest to the next sweep, so it never runs unbounded. */
const MAX_BATCHES_PER_SWEEP = 100;
/** How long a table is, for the calendar entry's end (the product books slots, not durations). */
const CALENDAR_ENTRY_MINUTES = 120;

/** A link that is not one of ours, was altered, or is cut short. */
export const LINK_NOT_VALID = 'This link is not valid. Open it from the message exactly as it was sent, or see your reservations on Tablefair.';

/** What each link page says, by the link's action and where the reservation stands. */
const linkMessages = {
  coming: {
    ready: "Tap the button to tell the restaurant you're coming. Nothing changes until you do.",
    done: "The restaurant knows you're coming. See you there!",
  },
  release: {
    ready: 'Releasing cancels your reservation and offers the table to the next diner on the waitlist straight away. It cannot be undone.',
    done: 'Your table is released and has gone to the next diner waiting. Thank you for letting the restaurant know.',
    /** Released with nobody waiting for that time: it is open to anyone again (decision 221). */
    doneNobodyWaiting: 'Your table is released and open for others to book. Thank you for letting the restaurant know.',
  },
  cancelled: 'This reservation is already cancelled, so this link changes nothing.',
  closed: 'The restaurant has already seated you, closed the table or marked it a no-show, so this link changes nothing.',
  expired: 'This link has expired: it worked until the reservation started, for the time it was sent for. Nothing was changed.',
} as const;

/**
 * Where a link stands, decided in this order: a cancelled reservation says so before an expiry
 * would, and a link changes anything only while it is `ready`.
 */
function linkStateOf(link: AnswerLink, reservation: DinerReservation, reply: StoredReply | undefined): ReminderLinkView['state'] {
  if (reservation.status === 'CANCELLED') return link.action === 'release' && reply === 'released' ? 'done' : 'cancelled';
  if (reservation.status !== 'PENDING' && reservation.status !== 'CONFIRMED') return 'closed';
  const movedSinceSent = new Date(reservation.startsAt).getTime() !== link.startsAt.getTime();
  if (link.expired || movedSinceSent) return 'expired';
  return link.action === 'coming' && reply === 'coming' ? 'done' : 'ready';
}

function factsOf(row: ClaimedReminder): ReminderFacts {
  return {
    restaurantName: row.restaurant_name,
    date: formatDateShort(row.slot_date),
    time: formatTime12h(row.slot_time),
    partySize: row.party_size,
    offsetMinutes: row.offset_minutes,
  };
}

function factsOfReservation(reservation: DinerReservation): Omit<ReminderFacts, 'offsetMinutes'> {
  return {
    restaurantName: reservation.restaurant.name,
    date: formatDateShort(reservation.slot.date),
    time: formatTime12h(reservation.slot.time),
    partySize: reservation.partySize,
    request: reservation.request ? describeRequest(reservation.request) : null,
  };
}

/**
 * Reminders before a reservation: at each of REMINDER_OFFSETS_MINUTES before its start,
 * an email and (to a verified phone) a text through the outbox. Claimed in SQL by a unique row per
 * reservation, offset and start, in the transaction that writes the messages, so each reminder is
 * sent once across restarts and instances, and none after a cancel, a no-show or a move
 * (decision 150). Each carries signed one-tap links, "I'm coming" and "Release my table"
 * (decision 152), and a calendar file's link (decision 151); acceptances and cancellations send
 * the calendar update in the move's own transaction.
 */
export function createRemindersService(deps: AppDeps, notifications: Notifications, reservations: ReservationsService, deposits: DepositsService) {
  const { db, clock, config, log, events } = deps;
  const signingKey = createSigningKey(deps);
  const address = (path: string) => `${config.publicUrl}${path}`;

  /** The reminder's links as paths on this app; messages put PUBLIC_URL before them, pages use them as they are. */
  async function linkPathsFor(reservationId: string, startsAt: Date, tx?: Db): Promise<ReminderLinks> {
    const secret = await signingKey(tx);
    return {
      coming: `/reminder/${signAnswerLink('coming', reservationId, startsAt, secret)}`,
      release: `/reminder/${signAnswerLink('release', reservationId, startsAt, secret)}`,
      calendar: `/api/calendar/${signCalendarLink(reservationId, startsAt, secret)}`,
    };
  }

  /** The links as a message carries them: full addresses at PUBLIC_URL. */
  async function linksFor(reservationId: string, startsAt: Date, tx?: Db): Promise<ReminderLinks> {
    const paths = await linkPathsFor(reservationId, startsAt, tx);
    return { coming: address(paths.coming), release: address(paths.release), calendar: address(paths.calendar) };
  }

  /** The answer link `token` stands for; a refusal the page can show when it is not a genuine one. */
  async function answerLinkOf(token: string): Promise<{ link: AnswerLink; linked: LinkedReservation }> {
    const link = readAnswerLink(token, await signingKey(), clock.now());
    if (!link) throw badInput(LINK_NOT_VALID);
    const linked = await reservations.findForLink(link.reservationId);
    if (!linked) throw notFound(RESERVATION_NOT_FOUND);
    return { link, linked };
  }

  /** What the page shows for the link and the reservation as they are now. */
  async function viewOf(link: AnswerLink, linked: LinkedReservation): Promise<ReminderLinkView> {
    const { reservation } = linked;
    const state = linkStateOf(link, reservation, await findReply(db, reservation.id));
    let message: string = state === 'ready' || state === 'done' ? linkMessages[link.action][state] : linkMessages[state];
    if (link.action === 'release' && state === 'done' && !(await someoneWasWaitingFor(db, reservation.id))) message = linkMessages.release.doneNobodyWaiting;
    const releaseFeePaise = link.action === 'release' && state === 'ready' ? await deposits.releaseFeeNow(link) : 0;
    const { calendar } = await linkPathsFor(reservation.id, link.startsAt);
    return { action: link.action, state, message, releaseFeePaise, reservation, calendarPath: calendar };
  }

  /** Queues the calendar update a move calls for, in the move's transaction: acceptance, or a cancel of a booked table. */
  async function queueCalendarUpdate(tx: Db, move: ReservationMove): Promise<(() => void) | void> {
    const change =
      move.to === 'CONFIRMED' && move.from === 'PENDING'
        ? 'accepted'
        : move.to === 'CANCELLED' && (move.from === 'PENDING' || move.from === 'CONFIRMED')
          ? 'cancelled'
          : null;
    if (!change) return;
    const linked = await reservations.findForLink(move.id, tx);
    if (!linked) return;
    const { calendar } = await linksFor(move.id, new Date(linked.reservation.startsAt), tx);
    const messageId = await notifications.queueEmailToUser(tx, move.userId, calendarUpdateEmail(change, factsOfReservation(linked.reservation), calendar));
    // Sent once the move commits; a failed send is retried by the outbox sweep.
    return () => notifications.deliverSoon([messageId]);
  }

  /**
   * Queues the email of a diner's applied change in the change's transaction (decision 284): read
   * after the booking was rewritten, so the calendar link is signed for the new start and the
   * file's SEQUENCE counts the change.
   */
  async function queueChangeEmail(tx: Db, change: AppliedChange): Promise<(() => void) | void> {
    const linked = await reservations.findForLink(change.reservationId, tx);
    if (!linked) return;
    const { reservation } = linked;
    const { calendar } = await linksFor(change.reservationId, new Date(reservation.startsAt), tx);
    const words = { headline: changeHeadline(reservation.restaurant.name, change), money: changeMoneySentence(change.money) };
    const messageId = await notifications.queueEmailToUser(tx, change.userId, bookingChangedEmail(factsOfReservation(reservation), words, calendar));
    return () => notifications.deliverSoon([messageId]);
  }

  /** Tells the restaurant's dashboard that an answer came in. */
  function announceReply(linked: LinkedReservation): void {
    const { reservation } = linked;
    events.publish('reservation.changed', {
      reservationId: reservation.id,
      restaurantId: reservation.restaurant.id,
      userId: linked.userId,
      status: reservation.status,
    });
  }

  const service = {
    /** Move step of every reservation move (wired in server/composition.ts): the calendar update an acceptance or a cancel calls for. */
    calendarUpdateStep: (async () => ({ afterMove: queueCalendarUpdate })) satisfies MoveStep,

    /** Listener of bookingChanges.onChangeApplied (server/composition.ts): the diner's email of what changed. */
    queueChangeEmail,

    /** GET /api/admin/reminders: the staff's own restaurant's setting. */
    async getOwnSetting(principal: Principal): Promise<ReminderSetting> {
      requireStaff(principal);
      return { remindersOn: !(await remindersAreOff(db, principal.restaurantId)) };
    },

    /** PUT /api/admin/reminders: turns reminders on or off for the staff's own restaurant only. */
    async updateOwnSetting(principal: Principal, setting: ReminderSetting): Promise<ReminderSetting> {
      requireStaff(principal);
      await setRemindersOff(db, principal.restaurantId, !setting.remindersOn, clock.now());
      return service.getOwnSetting(principal);
    },

    /**
     * The dashboard's column (decision 152): for the staff's own bookings among `reservationIds`,
     * the diner's answer, or `unanswered` once a reminder went out; bookings with neither are absent.
     */
    async repliesForStaff(principal: Principal, reservationIds: readonly string[]): Promise<Map<string, ReminderReply>> {
      requireStaff(principal);
      const replies = await listReplies(db, reservationIds);
      return new Map([...replies].map(([id, reply]) => [id, reply ?? 'unanswered']));
    },

    /** GET /api/reminder-links/{token}: what the link will do, or what it did; changes nothing (a mail scanner may open it). */
    async readLink(token: string): Promise<ReminderLinkView> {
      const { link, linked } = await answerLinkOf(token);
      return viewOf(link, linked);
    },

    /**
     * POST /api/reminder-links/{token}: the diner's answer. Access is the signed link: it names one
     * reservation, one start and one purpose. Only a `ready` link changes anything; any other
     * answers with where the link stands, so a second tap, an expired link or a cancelled
     * reservation change nothing.
     */
    async answerLink(token: string): Promise<ReminderLinkView> {
      const { link, linked } = await answerLinkOf(token);
      const before = await viewOf(link, linked);
      if (before.state !== 'ready') return before;
      if (link.action === 'coming') {
        await insertComingReply(db, link.reservationId, clock.now());
        announceReply(linked);
      } else {
        try {
          await reservations.releaseFromReminder(link, (tx) => upsertReleasedReply(tx, link.reservationId, clock.now()));
        } catch (error) {
          // Cancelled or started in the meantime: the page then says where the reservation stands.
          if (!(error instanceof AppError) || error.code !== 'CONFLICT') throw error;
        }
      }
      const after = await reservations.findForLink(link.reservationId);
      return viewOf(link, after ?? linked);
    },

    /** GET /api/reservations/{id}/calendar-link: the signed .ics path of the diner's own reservation. */
    async calendarLinkForDiner(principal: Principal, reservationId: string): Promise<CalendarLink> {
      requireDiner(principal);
      const linked = await reservations.findForLink(reservationId);
      if (!linked || linked.userId !== principal.userId) throw notFound(RESERVATION_NOT_FOUND);
      return { path: (await linkPathsFor(reservationId, new Date(linked.reservation.startsAt))).calendar };
    },

    /**
     * GET /api/calendar/{token}: the reservation's calendar file as it is now (decision 151): its
     * SEQUENCE is the count of its changes, and a cancelled one is METHOD:CANCEL.
     */
    async calendarFile(token: string): Promise<{ filename: string; body: string }> {
      const reservationId = readCalendarLink(token, await signingKey(), clock.now());
      if (!reservationId) throw badInput(LINK_NOT_VALID);
      const linked = await reservations.findForLink(reservationId);
      if (!linked) throw notFound(RESERVATION_NOT_FOUND);
      const { reservation } = linked;
      const body = reservationCalendarFile({
        reservationId,
        restaurantName: reservation.restaurant.name,
        address: `${reservation.restaurant.neighborhood}, Bengaluru`,
        startsAt: new Date(reservation.startsAt),
        durationMinutes: CALENDAR_ENTRY_MINUTES,
        partySize: reservation.partySize,
        url: address('/me'),
        sequence: linked.changes,
        cancelled: reservation.status === 'CANCELLED',
        now: clock.now(),
      });
      return { filename: `tablefair-${reservation.slot.date}-${reservation.restaurant.slug}.ics`, body };
    },

    /** Claims and queues what is due now; returns how many reminders were queued. Idempotent. */
    async sendDue(): Promise<number> {
      const offsets = config.reminderOffsetsMinutes;
      if (offsets.length === 0) return 0;
      // Loaded before the transactions below, which must not wait on another connection.
      await signingKey();
      let queued = 0;
      for (let batch = 0; batch < MAX_BATCHES_PER_SWEEP; batch++) {
        const now = clock.now();
        const { count, messageIds } = await db.transaction(async (tx) => {
          const claimed = await claimDueReminders(tx, now, offsets, REMINDER_BATCH);
          const ids: (string | null)[] = [];
          for (const row of claimed) {
            const facts = factsOf(row);
            const links = await linksFor(row.reservation_id, asDate(row.starts_at), tx);
            const email = reminderEmail(facts, links);
            ids.push(await notifications.queueEmailToUser(tx, row.user_id, email));
            // Once per reminder per person (decision 213), whichever instance claims it.
            const idempotencyKey = `reminder:${row.reservation_id}:${row.offset_minutes}:${iso(row.starts_at)}`;
            const text = reminderText(facts, links);
            // The diner's subscribed browsers come first; without a verified phone they are the only text (decision 212).
            const push = { title: email.subject, link: '/me' };
            if (!row.verified_phone)
              ids.push(await notifications.queuePush(tx, { userId: row.user_id }, { kind: 'reminder', body: text.body, idempotencyKey, ...push }));
            if (row.verified_phone) {
              const phone = row.verified_phone;
              // A text refused by the SMS policy (a cap reached) leaves the email to stand alone.
              const textId = await tx
                .transaction((savepoint) =>
                  notifications.queueSms(savepoint, {
                    userId: row.user_id,
                    to: phone,
                    body: text.body,
                    template: text.template,
                    channel: config.reminderTextChannel,
                    kind: 'reminder',
                    idempotencyKey,
                    push,
                  }),
                )
                .catch((error: unknown) => {
                  log.warn({ err: error, reservationId: row.reservation_id }, 'reminder text not queued');
                  return null;
                });
              ids.push(textId);
            }
          }
          return { count: claimed.length, messageIds: ids };
        });
        queued += count;
        notifications.deliverSoon(messageIds);
        if (count === 0) break;
      }
      return queued;
    },
  };
  return service;
}

export type RemindersService = ReturnType<typeof createRemindersService>;
