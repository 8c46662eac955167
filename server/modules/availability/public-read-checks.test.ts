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

describe('the availability query', () => {
  const { fast, zod } = part('querystring', availabilityQuery);
  it.each<Record<string, string | string[]>>([
    { date: '2026-11-24', partySize: '2' },
    { date: '2026-11-24', partySize: '20' },
    { date: '2028-02-29', partySize: '1' },
    { date: '2026-11-24', partySize: '2', extra: 'ignored' },
    { date: '2026-11-24', partySize: '21' },
    { date: '2026-11-24', partySize: '0' },
    { date: '2026-11-24', partySize: '02' },
    { date: '2026-11-24', partySize: ' 2' },
    { date: '2026-11-24', partySize: '2.0' },
    { date: '2026-11-24', partySize: '2.5' },
    { date: '2026-11-24', partySize: '-2' },
    { date: '2026-11-24', partySize: '1e1' },
    { date: '2026-11-24', partySize: '' },
    { date: '2026-11-24', partySize: 'abc' },
    { date: '2026-02-30', partySize: '2' },
    { date: '24-11-2026', partySize: '2' },
    { date: '', partySize: '2' },
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
