import { z } from 'zod';
import { dinerReservation } from './reservations.ts';

/** Reminders before a reservation (decisions 150–153). */

/** A restaurant's reminder setting as staff see and change it. */
export const reminderSetting = z.object({
  /** Whether its diners get reminders before their reservations. */
  remindersOn: z.boolean(),
});
export type ReminderSetting = z.infer<typeof reminderSetting>;

/** The two one-tap answers a reminder carries. */
export const reminderLinkActions = ['coming', 'release'] as const;
export type ReminderLinkAction = (typeof reminderLinkActions)[number];

/** The diner's answer as staff see it: confirmed, released, or a reminder sent and no answer yet. */
export const reminderReplies = ['coming', 'released', 'unanswered'] as const;
export type ReminderReply = (typeof reminderReplies)[number];

/** A signed link's token, as it sits in the URL (one base64url string of about 50 characters). */
export const linkTokenParams = z.object({
  token: z
    .string()
    .max(100, { message: 'The link is not valid' })
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'The link is not valid' }),
});

/**
 * Where a reminder link stands (GET /api/reminder-links/{token}, and the answer to POST):
 * - `ready`: nothing done yet; the page asks once more;
 * - `done`: this answer is recorded (now, or by an earlier tap of the same link);
 * - `cancelled`: the reservation is cancelled (released by this diner or otherwise), so nothing changes;
 * - `closed`: the reservation is past answering (seated, completed, a no-show);
 * - `expired`: the reservation's start has passed, or it was moved to another time.
 */
export const reminderLinkStates = ['ready', 'done', 'cancelled', 'closed', 'expired'] as const;
export type ReminderLinkState = (typeof reminderLinkStates)[number];

export const reminderLinkView = z.object({
  action: z.enum(reminderLinkActions),
  state: z.enum(reminderLinkStates),
  /** One sentence for the diner: what the button will do, or what happened. */
  message: z.string(),
  /** What a release now keeps of the deposit, in paise (0 when nothing is kept or there is no deposit). */
  releaseFeePaise: z.number().int().min(0),
  reservation: dinerReservation,
  /** The signed path of this reservation's calendar file on this server, for the page's "Add to calendar". */
  calendarPath: z.string(),
});
export type ReminderLinkView = z.infer<typeof reminderLinkView>;

/** GET /api/reservations/{id}/calendar-link: the signed path of the reservation's .ics file on this server. */
export const calendarLink = z.object({ path: z.string() });
export type CalendarLink = z.infer<typeof calendarLink>;
