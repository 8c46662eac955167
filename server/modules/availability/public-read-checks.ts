import type { FastifySchemaCompiler } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { MAX_PARTY_SIZE } from '#common/domain/restaurants.ts';
import { isIsoDate } from '#common/domain/time.ts';

/**
 * A precompiled check of one part of a request: the value the Zod contract would give, for the
 * input it surely accepts; undefined for anything else, which the contract then decides.
 */
export type FastCheck = (data: unknown) => unknown;

/**
 * A route's validator compiler (decision 186): each part of the request (params, querystring)
 * is checked first by its fast check, and only what the fast check does not vouch for goes to
 * the Zod contract, so every refused request is refused by Zod itself, with the same 400
 * sentences as any other route. A part without a fast check is Zod's alone.
 */
export function fastChecksFirst<Schema>(checks: Partial<Record<'params' | 'querystring', FastCheck>>): FastifySchemaCompiler<Schema> {
  return (routeSchema) => {
    const zod = validatorCompiler(routeSchema as FastifyRouteSchemaDef<ZodType>);
    const fast = checks[routeSchema.httpPart as 'params' | 'querystring'];
    if (!fast) return zod;
    return (data) => {
      const value = fast(data);
      return value === undefined ? zod(data) : { value };
    };
  };
}

/** A party size as Fastify's query parser hands it over: digits only, no sign, space or leading zero. */
const PLAIN_PARTY_SIZE = /^[1-9][0-9]?$/;

/** restaurantKeyParams: a slug of 1–120 characters (Zod keeps only `slug`). */
export const checkRestaurantKey: FastCheck = (data) => {
  const slug = (data as { slug?: unknown } | null)?.slug;
  return typeof slug === 'string' && slug.length >= 1 && slug.length <= 120 ? { slug } : undefined;
};

/** availabilityQuery: a real YYYY-MM-DD date and a whole party size of 1–MAX_PARTY_SIZE, as Zod would coerce it. */
export const checkAvailabilityQuery: FastCheck = (data) => {
  const query = data as { date?: unknown; partySize?: unknown } | null;
  const date = query?.date;
  const partySize = query?.partySize;
  if (typeof date !== 'string' || typeof partySize !== 'string' || !PLAIN_PARTY_SIZE.test(partySize) || !isIsoDate(date)) return undefined;
  const size = Number(partySize);
  return size <= MAX_PARTY_SIZE ? { date, partySize: size } : undefined;
};
