import type { TextTemplate } from '#server/modules/notifications/drivers.ts';

/**
 * Every reminder and calendar text in one place (decision 153), worded as fixed templates with
 * numbered slots, so that an SMS sender registration or a WhatsApp business account can register
 * them as they are, and the email says the same words with its links labelled.
 */

export interface ReminderFacts {
  restaurantName: string;
  /** The Kolkata date as diners read it: 'Tue, 24 Nov'. */
  date: string;
  /** The Kolkata time as diners read it: '7:30 PM'. */
  time: string;
  partySize: number;
  offsetMinutes: number;
  /** What the diner told the restaurant, in one line (decision 260), or null. */
  request?: string | null;
}

/** The reminder's signed links (decision 152). */
export interface ReminderLinks {
  coming: string;
  release: string;
  calendar: string;
}

/** The words on the reminder's two buttons, as decision 152 and the pages name them. */
export const COMING_LABEL = "I'm coming";
export const RELEASE_LABEL = 'Release my table';

/** "in 2 hours", "tomorrow" (24 h), "in 90 minutes". */
export function whenWords(offsetMinutes: number): string {
  if (offsetMinutes === 1440) return 'tomorrow';
  if (offsetMinutes % 60 === 0) return offsetMinutes === 60 ? 'in 1 hour' : `in ${offsetMinutes / 60} hours`;
  return `in ${offsetMinutes} minutes`;
}

/**
 * The registered template: {{1}} restaurant, {{2}} when, {{3}} date, {{4}} time, {{5}} covers,
 * {{6}} the "I'm coming" link, {{7}} the "Release my table" link.
 */
export const REMINDER_TEMPLATE = {
  name: 'tablefair_reservation_reminder_v2',
  language: 'en',
  text:
    'Reminder from Tablefair: your table at {{1}} is {{2}}, {{3}} at {{4}}, for {{5}}. ' +
    "Coming? Tap {{6}} Can't make it? Release the table for someone waiting: {{7}}",
} as const;

function fill(template: string, values: string[]): string {
  return template.replace(/\{\{(\d)\}\}/g, (_whole, index: string) => values[Number(index) - 1] ?? '');
}

const guests = (partySize: number) => (partySize === 1 ? '1 guest' : `${partySize} guests`);

function templateValues(facts: ReminderFacts, links: ReminderLinks): string[] {
  return [facts.restaurantName, whenWords(facts.offsetMinutes), facts.date, facts.time, guests(facts.partySize), links.coming, links.release];
}

/** The reminder as a text (SMS or WhatsApp): the filled template, and the template with its values. */
export function reminderText(facts: ReminderFacts, links: ReminderLinks): { body: string; template: TextTemplate } {
  const values = templateValues(facts, links);
  return { body: fill(REMINDER_TEMPLATE.text, values), template: { name: REMINDER_TEMPLATE.name, language: REMINDER_TEMPLATE.language, values } };
}

export function reminderEmail(facts: ReminderFacts, links: ReminderLinks): { subject: string; body: string } {
  return {
    subject: `Reminder: ${facts.restaurantName} ${whenWords(facts.offsetMinutes)} at ${facts.time}`,
    body:
      `Reminder from Tablefair: your table at ${facts.restaurantName} is ${whenWords(facts.offsetMinutes)}, ${facts.date} at ${facts.time}, for ${guests(facts.partySize)}.\n\n` +
      `One tap tells the restaurant, no sign-in needed:\n` +
      `${COMING_LABEL}: ${links.coming}\n` +
      `${RELEASE_LABEL}: ${links.release}\n\n` +
      `Releasing hands the table to the next diner on the waitlist at once.\n\n` +
      `Add it to your calendar: ${links.calendar}`,
  };
}

/** What a calendar update email says, for a reservation the restaurant accepted or that was cancelled. */
/** A diner's words as one plain-text line: no control characters, so they cannot add lines or headers to the email. */
function plainLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

export function calendarUpdateEmail(
  change: 'accepted' | 'cancelled',
  facts: Omit<ReminderFacts, 'offsetMinutes'>,
  calendarUrl: string,
): { subject: string; body: string } {
  const when = `${facts.date} at ${facts.time}, for ${guests(facts.partySize)}`;
  return change === 'accepted'
    ? {
        subject: `Accepted: your table at ${facts.restaurantName}, ${facts.date} at ${facts.time}`,
        body:
          `${facts.restaurantName} has accepted your reservation: ${when}.\n\n` +
          (facts.request ? `You told the restaurant: ${plainLine(facts.request)}\n\n` : '') +
          `Add it to your calendar: ${calendarUrl}`,
      }
    : {
        subject: `Cancelled: your table at ${facts.restaurantName}, ${facts.date} at ${facts.time}`,
        body: `Your reservation at ${facts.restaurantName} on ${when} is cancelled.\n\n` + `If it is in your calendar, this file removes it: ${calendarUrl}`,
      };
}

/**
 * The email a diner's change of a booking sends (decision 284): what changed, what the money did
 * (in the money sentences' own words, or null for a booking without a deposit), and the calendar
 * file, whose SEQUENCE rose with the change so a calendar moves the same entry.
 */
export function bookingChangedEmail(
  facts: Omit<ReminderFacts, 'offsetMinutes'>,
  words: { headline: string; money: string | null },
  calendarUrl: string,
): { subject: string; body: string } {
  return {
    subject: `Changed: your table at ${facts.restaurantName}, now ${facts.time} for ${guests(facts.partySize)}`,
    body:
      `${words.headline}\n\n` +
      `Your booking is now ${facts.date} at ${facts.time}, for ${guests(facts.partySize)}.\n\n` +
      (words.money ? `${words.money}\n\n` : '') +
      (facts.request ? `You told the restaurant: ${plainLine(facts.request)}\n\n` : '') +
      `This file updates the entry in your calendar: ${calendarUrl}`,
  };
}
