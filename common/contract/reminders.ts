import { z } from 'zod';

/** Reminders before a reservation (issue 16, decision 150). */

/** A restaurant's reminder setting as staff see and change it. */
export const reminderSetting = z.object({
  /** Whether its diners get reminders before their reservations. */
  remindersOn: z.boolean(),
});
export type ReminderSetting = z.infer<typeof reminderSetting>;
