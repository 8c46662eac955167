import { z } from 'zod';
import { isClockTime, isIsoDate } from '../domain/time.ts';

/** Every error the API answers: a sentence a person can read, optionally with details. */
export const errorResponse = z.object({
  error: z.string(),
  details: z.unknown().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const isoDate = z.string().refine(isIsoDate, { message: 'Use a date written YYYY-MM-DD' });
export const clockTime = z.string().refine(isClockTime, { message: 'Use a time written HH:MM (24-hour)' });
export const uuid = z.uuid({ message: 'Not a valid id' });

/** An empty JSON body ({}), as the spec's confirm call sends. Optional so a bare POST works too. */
export const emptyBody = z.object({}).strict().optional();

/** Error replies shared by most routes, for the OpenAPI document. */
export const standardErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
} as const;
