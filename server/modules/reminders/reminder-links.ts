import type { ReminderLinkAction } from '#common/contract/reminders.ts';
import { readRecordLink, signRecordLink, type LinkPurpose } from '#server/signing.ts';

/**
 * The signed links a reminder and a calendar email carry (decision 152). Each token names its
 * purpose inside what is signed, so an "I'm coming" token can never release a table nor a
 * calendar token answer anything. Answer links are bound to the reservation and to the start
 * they were sent for, and expire at that start; calendar links last a week past it.
 *
 * A token is a record link (server/signing.ts): 21 signed bytes (purpose, reservation id, start in
 * seconds) and a 128-bit signature, in base64url: 50 characters, short enough for a text message
 * and for one path segment.
 */

const CALENDAR_LINK_SECONDS_AFTER_START = 7 * 86_400;
const answerPurposes = { coming: 'reminderComing', release: 'reminderRelease' } as const satisfies Record<ReminderLinkAction, LinkPurpose>;

export function signAnswerLink(action: ReminderLinkAction, reservationId: string, startsAt: Date, secret: string): string {
  return signRecordLink(answerPurposes[action], reservationId, startsAt, secret);
}

export function signCalendarLink(reservationId: string, startsAt: Date, secret: string): string {
  return signRecordLink('calendar', reservationId, startsAt, secret);
}

/** A genuine answer link: what it does, for which reservation and start, and whether it has expired at `now`. */
export interface AnswerLink {
  action: ReminderLinkAction;
  reservationId: string;
  startsAt: Date;
  expired: boolean;
}

/** The answer link `token` stands for, or undefined when it is not one (tampered, another kind, garbage). */
export function readAnswerLink(token: string, secret: string, now: Date): AnswerLink | undefined {
  const link = readRecordLink(token, secret);
  const action = link && (Object.keys(answerPurposes) as ReminderLinkAction[]).find((name) => answerPurposes[name] === link.purpose);
  if (!link || !action) return undefined;
  return { action, reservationId: link.id, startsAt: link.instant, expired: link.instant.getTime() <= now.getTime() };
}

/** The reservation a calendar link stands for, or undefined when it is not a genuine, unexpired one. */
export function readCalendarLink(token: string, secret: string, now: Date): string | undefined {
  const link = readRecordLink(token, secret);
  if (!link || link.purpose !== 'calendar') return undefined;
  return link.instant.getTime() + CALENDAR_LINK_SECONDS_AFTER_START * 1000 > now.getTime() ? link.id : undefined;
}
