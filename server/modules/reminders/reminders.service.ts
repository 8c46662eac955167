import type { ReminderSetting } from '#common/contract/reminders.ts';
import type { AppDeps } from '#server/deps.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { createNotificationsService } from '#server/modules/notifications/notifications.service.ts';
import { claimDueReminders, remindersAreOff, setRemindersOff, type ClaimedReminder } from './reminders.repository.ts';
import { reminderEmail, reminderText, type ReminderFacts } from './reminder-messages.ts';

type Notifications = ReturnType<typeof createNotificationsService>;

/** Reminders claimed and written to the outbox per transaction; a sweep takes batches until none is left. */
export const REMINDER_BATCH = 500;
/** A sweep stops after this many batches, leaving the rest to the next sweep, so it never runs unbounded. */
const MAX_BATCHES_PER_SWEEP = 100;

function factsOf(row: ClaimedReminder): ReminderFacts {
  return {
    restaurantName: row.restaurant_name,
    date: row.slot_date,
    time: row.slot_time,
    partySize: row.party_size,
    offsetMinutes: row.offset_minutes,
  };
}

/**
 * Reminders before a reservation (issue 16): at each of REMINDER_OFFSETS_MINUTES before its start,
 * an email and (to a verified phone) a text through the outbox. Claimed in SQL by a unique row per
 * reservation, offset and start, in the transaction that writes the messages, so each reminder is
 * sent once across restarts and instances, and none after a cancel, a no-show or a move.
 */
export function createRemindersService(deps: AppDeps, notifications: Notifications) {
  const { db, clock, config, log } = deps;

  const service = {
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

    /** Claims and queues what is due now; returns how many reminders were queued. Idempotent. */
    async sendDue(): Promise<number> {
      const offsets = config.reminderOffsetsMinutes;
      if (offsets.length === 0) return 0;
      let queued = 0;
      for (let batch = 0; batch < MAX_BATCHES_PER_SWEEP; batch++) {
        const now = clock.now();
        const { count, messageIds } = await db.transaction(async (tx) => {
          const claimed = await claimDueReminders(tx, now, offsets, REMINDER_BATCH);
          const ids: (string | null)[] = [];
          for (const row of claimed) {
            const facts = factsOf(row);
            ids.push(await notifications.queueEmailToUser(tx, row.user_id, reminderEmail(facts)));
            if (row.verified_phone) {
              const phone = row.verified_phone;
              // A text refused by the SMS policy (a cap reached) leaves the email to stand alone.
              const smsId = await tx
                .transaction((savepoint) => notifications.queueSms(savepoint, { userId: row.user_id, to: phone, body: reminderText(facts) }))
                .catch((error: unknown) => {
                  log.warn({ err: error, reservationId: row.reservation_id }, 'reminder text not queued');
                  return null;
                });
              ids.push(smsId);
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
