import { describe, expect, it } from 'vitest';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { availabilityQuery, restaurantKeyParams } from '#common/contract/restaurants.ts';
import { checkAvailabilityQuery, checkRestaurantKey, fastChecksFirst } from './public-read-checks.ts';

/** Decision 186: the precompiled checks give what Zod gives, and leave everything they do not vouch for to Zod. */
const part = (httpPart: 'params' | 'querystring', schema: typeof availabilityQuery | typeof restaurantKeyParams) => {
  const routeSchema = { schema, method: 'GET', url: '/x', httpPart } as never;
  return {
    fast: fastChecksFirst({ params: checkRestaurantKey, querystring: checkAvailabilityQuery })(routeSchema) as (data: unknown) => unknown,
    zod: validatorCompiler(routeSchema) as (data: unknown) => unknown,
  };
};
/** Fastify's query parser hands over an object without a prototype. */
const query = (entries: Record<string, string | string[]>) => Object.assign(Object.create(null) as object, entries);

/** Party sizes tried on a valid date: the allowed range's ends, and what only looks like a number. */
const PARTY_SIZES_TRIED = ['2', '20', '21', '0', '02', ' 2', '2.0', '2.5', '-2', '1e1', '', 'abc'];
/** Dates tried with a valid party size: no such day, the wrong order, nothing. */
const DATES_TRIED = ['2026-02-30', '24-11-2026', ''];

describe('the availability query', () => {
  const { fast, zod } = part('querystring', availabilityQuery);
  it.each<Record<string, string | string[]>>([
    ...PARTY_SIZES_TRIED.map((partySize) => ({ date: '2026-11-24', partySize })),
    ...DATES_TRIED.map((date) => ({ date, partySize: '2' })),
    { date: '2028-02-29', partySize: '1' },
    { date: '2026-11-24', partySize: '2', extra: 'ignored' },
    { date: ['2026-11-24', '2026-11-25'], partySize: '2' },
    { date: '2026-11-24', partySize: ['2', '4'] },
    { partySize: '2' },
    { date: '2026-11-24' },
  ])('%o: the same value or the same errors as Zod', (entries) => {
    expect(fast(query(entries))).toEqual(zod(query(entries)));
  });
});

describe('the restaurant key', () => {
  const { fast, zod } = part('params', restaurantKeyParams);
  it.each(['city-0001', 'a', 'x'.repeat(120), 'x'.repeat(121), ''])('%s: the same value or the same errors as Zod', (slug) => {
    expect(fast({ slug })).toEqual(zod({ slug }));
  });
});
