import { z } from 'zod';
import { isClockTime, isIsoDate } from '../domain/time.ts';

/** Every error the API answers: a sentence a person can read, optionally with details. */
export const errorResponse = z.object({
  error: z.string(),
  details: z.unknown().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/**
 * These shapes are shared by many fields, so their message names the field it is used for
 * ("date: Use a date written YYYY-MM-DD"), as every 400 must (decision 005).
 */
const namingTheField = (message: string) => (issue: { path?: PropertyKey[] }) =>
  issue.path && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${message}` : message;

/** A control character (C0, DEL or C1) or a Unicode line or paragraph separator. */
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** True when a text is one line of printable characters, as a name or a title must be (decision 203). */
export function isOneLine(value: string): boolean {
  return !NOT_ONE_LINE.test(value);
}

/**
 * The check of a name people type (a restaurant's, a diner's, a drop's title): one line, so it can
 * never break the line of a calendar file, an email's subject or a CSV row it is written into.
 * Use as `.refine(...oneLineName('name'))` after the string's own trim and length checks.
 */
export function oneLineName(field: string) {
  return [isOneLine, { message: `${field} must be one line, without line breaks or control characters` }] as const;
}

export const isoDate = z.string().refine(isIsoDate, { error: namingTheField('Use a date written YYYY-MM-DD') });
export const clockTime = z.string().refine(isClockTime, { error: namingTheField('Use a time written HH:MM (24-hour)') });
export const uuid = z.uuid({ error: namingTheField('Not a valid id') });

/**
 * An empty JSON body ({}), as the spec's confirm call sends. Nullish so a bare POST works too:
 * Fastify hands a POST with no body to the validator as null, not undefined.
 */
export const emptyBody = z.object({}).strict().nullish();

/** Error replies shared by most routes, for the OpenAPI document. */
export const standardErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
} as const;

/** A slot as answers name it: its Kolkata date (YYYY-MM-DD) and time (HH:MM). */
export const slotRef = z.object({ date: z.string(), time: z.string() });
export type SlotRef = z.infer<typeof slotRef>;
