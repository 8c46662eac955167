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
