/**
 * Every reminder text in one place, worded as fixed templates with numbered slots so that an SMS
 * sender registration or a WhatsApp business account can register them as they are.
 */

export interface ReminderFacts {
  restaurantName: string;
  /** Kolkata date, YYYY-MM-DD. */
  date: string;
  /** Kolkata time, HH:MM. */
  time: string;
  partySize: number;
  offsetMinutes: number;
}

/** "in 2 hours", "tomorrow" (24 h), "in 90 minutes". */
export function whenWords(offsetMinutes: number): string {
  if (offsetMinutes === 1440) return 'tomorrow';
  if (offsetMinutes % 60 === 0) return offsetMinutes === 60 ? 'in 1 hour' : `in ${offsetMinutes / 60} hours`;
  return `in ${offsetMinutes} minutes`;
}

/** The registered template: {{1}} restaurant, {{2}} when, {{3}} date, {{4}} time, {{5}} covers. */
export const REMINDER_TEMPLATE = {
  name: 'tablefair_reservation_reminder',
  language: 'en',
  text: 'Reminder from Tablefair: your table at {{1}} is {{2}}, {{3}} at {{4}}, for {{5}}. Running late or not coming? Please tell the restaurant so the table can go to someone waiting.',
} as const;

function fill(template: string, values: string[]): string {
  return template.replace(/\{\{(\d)\}\}/g, (_whole, index: string) => values[Number(index) - 1] ?? '');
}

function templateValues(facts: ReminderFacts): string[] {
  const covers = facts.partySize === 1 ? '1 guest' : `${facts.partySize} guests`;
  return [facts.restaurantName, whenWords(facts.offsetMinutes), facts.date, facts.time, covers];
}

export function reminderText(facts: ReminderFacts): string {
  return fill(REMINDER_TEMPLATE.text, templateValues(facts));
}

export function reminderEmail(facts: ReminderFacts): { subject: string; body: string } {
  return {
    subject: `Reminder: ${facts.restaurantName} ${whenWords(facts.offsetMinutes)} at ${facts.time}`,
    body: reminderText(facts),
  };
}
