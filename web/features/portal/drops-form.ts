import { createDropBody, DROP_DAYS_MAX, type CreateDropBody } from '#common/contract/drops.ts';
import {
  addDays,
  daysBetween,
  formatDateShort,
  formatTime12h,
  HOUR_MS,
  isClockTime,
  isIsoDate,
  kolkataInstant,
  todayInKolkata,
  toKolkata,
} from '#common/domain/time.ts';

/**
 * The portal's create-drop form, as pure functions: Bengaluru wall-clock date-times to
 * instants, the defaults, and validation with the contract's own schema and the server's
 * own cross-field rules (server/modules/drops/drops.service.ts createDrop), so the form
 * refuses what the server would refuse, with the same sentences (decision 045).
 */

export interface DropFormValues {
  title: string;
  description: string;
  /** YYYY-MM-DD (Kolkata). */
  dateFrom: string;
  dateTo: string;
  /** HH:MM, 24-hour (Kolkata). */
  times: string[];
  /** As typed; a whole number of covers. */
  capacity: string;
  /** YYYY-MM-DDTHH:MM as a datetime-local input holds it, read as Bengaluru wall clock. */
  entryOpensAt: string;
  entryClosesAt: string;
  releaseAt: string;
  /** Take times the restaurant already offers into the drop, when nothing is booked on them (decision 226). */
  takeExistingTimes: boolean;
}
export type DropField = keyof DropFormValues;
export type DropFormErrors = Partial<Record<DropField, string>>;

/** The order fields appear in the form (the first error gets the focus). */
export const DROP_FIELDS: DropField[] = ['title', 'description', 'dateFrom', 'dateTo', 'times', 'capacity', 'entryOpensAt', 'entryClosesAt', 'releaseAt'];

/** The form's labels; the contract's and the server's messages name fields by these. */
export const DROP_FIELD_LABELS: Record<DropField, string> = {
  title: 'Title',
  description: 'Description',
  dateFrom: 'First date',
  dateTo: 'Last date',
  times: 'Times',
  capacity: 'Capacity',
  entryOpensAt: 'Entries open',
  entryClosesAt: 'Entries close',
  releaseAt: 'Release',
  takeExistingTimes: 'Take times we already offer',
};

const LOCAL_PATTERN = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;

/**
 * A datetime-local value ('2026-11-30T19:00', seconds optional) read as Bengaluru wall clock,
 * as an instant with its offset: '2026-11-30T19:00:00+05:30'. Built from the text alone, so the
 * machine's own zone never enters. null when the value is not a real date and time.
 */
export function kolkataLocalToIso(value: string): string | null {
  const match = LOCAL_PATTERN.exec(value.trim());
  if (!match) return null;
  const [, date, time, seconds = '00'] = match;
  if (!isIsoDate(date) || !isClockTime(time) || Number(seconds) > 59) return null;
  return `${date}T${time}:${seconds}+05:30`;
}

/** The datetime-local value ('YYYY-MM-DDTHH:MM', Bengaluru wall clock) of an instant. */
export function instantToKolkataLocal(instant: Date | string): string {
  const { date, time } = toKolkata(typeof instant === 'string' ? new Date(instant) : instant);
  return `${date}T${time}`;
}

/**
 * Sensible defaults: entries open now and close 24 hours later, the release at the close, and
 * the dates a week from today (today + 7 to today + 13). Times are the staff's
 * choice: a drop's times must be ones the restaurant has no slot at on those dates.
 */
export function defaultDropForm(now: Date): DropFormValues {
  const today = todayInKolkata(now);
  const closes = instantToKolkataLocal(new Date(now.getTime() + 24 * HOUR_MS));
  return {
    title: '',
    description: '',
    dateFrom: addDays(today, 7),
    dateTo: addDays(today, 13),
    times: [],
    capacity: '4',
    entryOpensAt: instantToKolkataLocal(now),
    entryClosesAt: closes,
    releaseAt: closes,
    takeExistingTimes: false,
  };
}

const IDENTIFIERS = new RegExp(`\\b(${DROP_FIELDS.join('|')})\\b`, 'g');

/**
 * A contract or server sentence with the API's field names swapped for the form's labels:
 * 'releaseAt must be at or after entryClosesAt' → 'Release must be at or after entries close'.
 */
export function humaniseDropMessage(message: string): string {
  const replaced = message.replace(IDENTIFIERS, (name) => DROP_FIELD_LABELS[name as DropField].toLowerCase());
  return replaced.charAt(0).toUpperCase() + replaced.slice(1);
}

/** The form field a contract or server sentence is about: the field it starts with, if any. */
export function fieldOfMessage(message: string): DropField | null {
  const first = /^([A-Za-z]+)\b/.exec(message)?.[1];
  return first && (DROP_FIELDS as string[]).includes(first) ? (first as DropField) : null;
}

/** Times already on the restaurant's calendar on one date (a drop may not reuse them). */
export interface TakenTimes {
  date: string;
  times: string[];
}

export interface DropValidation {
  errors: DropFormErrors;
  /** The body to send, when there are no errors. */
  body: CreateDropBody | null;
}

/** The body exactly as the server will read it (blank capacity and unreadable instants left for the schema to name). */
export function dropBodyOf(values: DropFormValues): Record<string, unknown> {
  const capacity = values.capacity.trim();
  return {
    title: values.title,
    description: values.description.trim() ? values.description : null,
    dateFrom: values.dateFrom,
    dateTo: values.dateTo,
    times: values.times,
    capacity: capacity === '' ? undefined : Number(capacity),
    entryOpensAt: kolkataLocalToIso(values.entryOpensAt) ?? values.entryOpensAt,
    entryClosesAt: kolkataLocalToIso(values.entryClosesAt) ?? values.entryClosesAt,
    releaseAt: kolkataLocalToIso(values.releaseAt) ?? values.releaseAt,
    ...(values.takeExistingTimes ? { takeExistingTimes: true } : {}),
  };
}

/**
 * Checks the form as the server would: first the contract's schema (its messages), then the
 * service's rules across fields (its messages), then the first date's existing slots.
 * Messages keep the API's wording with the form's labels (humaniseDropMessage).
 */
export function validateDropForm(values: DropFormValues, options: { now: Date; taken?: TakenTimes | null }): DropValidation {
  const raw: DropFormErrors = {};
  const set = (field: DropField, message: string) => {
    if (!raw[field]) raw[field] = message;
  };
  const parsed = createDropBody.safeParse(dropBodyOf(values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as DropField | undefined;
      if (field && (DROP_FIELDS as string[]).includes(field)) set(field, issue.message);
    }
  }
  // A date picker or a date-time picker left empty: say so, rather than describe the wire format.
  for (const field of ['dateFrom', 'dateTo'] as const) if (!values[field]) raw[field] = `${field}: choose a date`;
  for (const field of ['entryOpensAt', 'entryClosesAt', 'releaseAt'] as const) {
    if (!kolkataLocalToIso(values[field])) raw[field] = `${field}: choose a date and time`;
  }

  // The service's rules, where the fields they compare are readable.
  const today = todayInKolkata(options.now);
  const datesOk = isIsoDate(values.dateFrom) && isIsoDate(values.dateTo);
  if (isIsoDate(values.dateFrom) && values.dateFrom < today) set('dateFrom', 'dateFrom must not be in the past');
  if (datesOk && values.dateTo < values.dateFrom) set('dateTo', 'dateTo must be on or after dateFrom');
  if (datesOk && daysBetween(values.dateFrom, values.dateTo) + 1 > DROP_DAYS_MAX) set('dateTo', `dateTo: a drop spans at most ${DROP_DAYS_MAX} days`);
  if (new Set(values.times).size !== values.times.length) set('times', 'times: list each time only once');

  const opens = kolkataLocalToIso(values.entryOpensAt);
  const closes = kolkataLocalToIso(values.entryClosesAt);
  const release = kolkataLocalToIso(values.releaseAt);
  if (opens && closes && Date.parse(closes) <= Date.parse(opens)) set('entryClosesAt', 'entryClosesAt must be after entryOpensAt');
  if (closes && release && Date.parse(release) < Date.parse(closes)) set('releaseAt', 'releaseAt must be at or after entryClosesAt');
  if (closes && Date.parse(closes) <= options.now.getTime()) set('entryClosesAt', 'entryClosesAt must be in the future');
  const validTimes = values.times.filter(isClockTime).sort();
  if (release && isIsoDate(values.dateFrom) && validTimes.length > 0) {
    const first = kolkataInstant(values.dateFrom, validTimes[0]);
    // The server also keeps its booking cut-off between the two; it names the minutes when it refuses.
    if (Date.parse(release) >= first.getTime()) {
      set('releaseAt', `releaseAt must be before the drop's first slot (${formatDateShort(values.dateFrom)}, ${formatTime12h(validTimes[0])})`);
    }
  }
  const taken = options.taken;
  // Taking existing times is the server's to check: it refuses booked ones by name (decision 226).
  if (taken && taken.date === values.dateFrom && !values.takeExistingTimes) {
    const clash = validTimes.find((time) => taken.times.includes(time));
    if (clash) {
      set(
        'times',
        `There is already a slot on ${formatDateShort(taken.date)} at ${formatTime12h(clash)}: choose other dates or times, or take the times we already offer`,
      );
    }
  }

  const errors: DropFormErrors = {};
  for (const field of DROP_FIELDS) if (raw[field]) errors[field] = humaniseDropMessage(raw[field]);
  const hasErrors = Object.keys(errors).length > 0;
  return { errors, body: !hasErrors && parsed.success ? parsed.data : null };
}

/** Adds an HH:MM time to the chips: trimmed, ignored when empty, unreadable or already there; kept in order. */
export function addDropTime(times: string[], value: string): string[] {
  const time = value.trim().slice(0, 5);
  if (!isClockTime(time) || times.includes(time)) return times;
  return [...times, time].sort();
}

/** What the form will create, in words: 'Creates 14 slots: 7 dates × 2 times, 4 covers each.' ('Puts 14 slots in the drop: …' when taking existing times). */
export function describeDropSlots(values: Pick<DropFormValues, 'dateFrom' | 'dateTo' | 'times' | 'capacity'> & { takeExistingTimes?: boolean }): string {
  if (!isIsoDate(values.dateFrom) || !isIsoDate(values.dateTo) || values.dateTo < values.dateFrom) return '';
  const days = daysBetween(values.dateFrom, values.dateTo) + 1;
  const times = values.times.filter(isClockTime).length;
  if (times === 0) return `${days} ${days === 1 ? 'date' : 'dates'}: add at least one time.`;
  const slots = days * times;
  const capacity = Number(values.capacity);
  const covers = Number.isInteger(capacity) && capacity > 0 ? `, ${capacity} ${capacity === 1 ? 'cover' : 'covers'} each` : '';
  // Taking existing times, some of the slots are moved rather than made (decision 226).
  const verb = values.takeExistingTimes ? 'Puts' : 'Creates';
  const where = values.takeExistingTimes ? ' in the drop' : '';
  return `${verb} ${slots} ${slots === 1 ? 'slot' : 'slots'}${where}: ${days} ${days === 1 ? 'date' : 'dates'} × ${times} ${times === 1 ? 'time' : 'times'}${covers}.`;
}

/**
 * Which chosen times the first date already offers, in words, when the form takes them into the
 * drop: 'Takes 7:00 PM and 9:00 PM on Mon, 30 Nov out of normal booking, and the same times on the
 * drop's other dates. A time with a booking is refused.' Empty when nothing is taken.
 */
export function describeTakenTimes(values: Pick<DropFormValues, 'dateFrom' | 'dateTo' | 'times' | 'takeExistingTimes'>, taken: TakenTimes | null): string {
  if (!values.takeExistingTimes || !taken || taken.date !== values.dateFrom) return '';
  const overlap = values.times.filter((time) => taken.times.includes(time)).sort();
  if (overlap.length === 0) return 'None of these times is on sale on the first date; any the other dates have are taken too, if nothing is booked on them.';
  const named = overlap.map(formatTime12h);
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
  const others = values.dateTo > values.dateFrom ? ", and the same times on the drop's other dates" : '';
  return `Takes ${list} on ${formatDateShort(values.dateFrom)} out of normal booking${others}. A time with a booking is refused.`;
}
