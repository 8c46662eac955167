import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff } from '#server/test/factories.ts';

/**
 * Hostile input against every endpoint in the OpenAPI document (so new endpoints are
 * fuzzed without anyone listing them): random and malformed bodies, query strings,
 * headers and path ids. Never a 5xx, never a stack trace, always `{error}` on a 4xx;
 * and afterwards no slot holds more covers than it has.
 */
let t: TestApp;
let dinerToken: string;
let staffToken: string;
let routes: { method: string; path: string }[];

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 60);
/** Streams never end on their own; they are exercised by their own tests. */
const isStream = (path: string) => /\/events$/.test(path);

beforeAll(async () => {
  t = await createTestApp();
  const restaurant = await buildRestaurant(t.database.db, { slug: 'fuzz-target' });
  await buildSlot(t.database.db, restaurant.id, { date: '2026-11-23', time: '19:00', capacity: 4 });
  dinerToken = (await buildDiner(t.database.db)).token;
  staffToken = (await buildStaff(t.database.db, restaurant.id)).token;
  const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => ({ method: method.toUpperCase(), path })),
  );
}, 120_000);
afterAll(() => t.close());

const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    "' OR 1=1 --",
    '"; DROP TABLE reservations; --',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '\u0000',
    '😀'.repeat(50),
    'a'.repeat(5000),
    '00000000-0000-0000-0000-000000000000',
    '2026-02-30',
    '25:99',
    '-1',
    '1e309',
    'NaN',
    '{}',
    '[]',
    'null',
  ),
);
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(
    fc.constantFrom(
      'username',
      'password',
      'restaurantSlug',
      'date',
      'time',
      'partySize',
      'status',
      'phone',
      'name',
      'email',
      'capacity',
      'interval',
      'start',
      'end',
      'count',
      'contentTypes',
      'photos',
      'dob',
    ),
    fc.oneof(nastyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(nastyString, { maxLength: 4 })),
  ),
);
const credential = fc.constantFrom<'none' | 'diner' | 'staff' | 'garbage'>('none', 'diner', 'staff', 'garbage');
const contentType = fc.constantFrom(
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'image/png',
  'application/json; charset=utf-8',
  '',
);

function headersFor(kind: 'none' | 'diner' | 'staff' | 'garbage'): Record<string, string> {
  if (kind === 'diner') return bearer(dinerToken);
  if (kind === 'staff') return bearer(staffToken);
  if (kind === 'garbage') return { authorization: 'Bearer x'.repeat(3) };
  return {};
}

function fillPath(path: string, value: string): string {
  return path.replace(/\{[^}]+\}/g, () => encodeURIComponent(value));
}

const STACK_TRACE = /\bat [\w.<>]+ \(|\.ts:\d+:\d+|node_modules|Error: /;

describe('every endpoint survives hostile input', () => {
  it('found the documented endpoints', () => {
    expect(routes.length).toBeGreaterThan(10);
  });

  it('answers random requests with a 2xx/3xx, or a 4xx carrying {error}; never 5xx or a stack', async () => {
    for (const route of routes.filter((r) => !isStream(r.path))) {
      await fc.assert(
        fc.asyncProperty(
          nastyString,
          anyJson,
          fc.option(nastyString),
          credential,
          contentType,
          fc.boolean(),
          async (pathValue, body, query, who, type, rawBody) => {
            const url =
              fillPath(route.path, pathValue) +
              (query === null ? '' : `?date=${encodeURIComponent(query)}&partySize=${encodeURIComponent(query)}&${encodeURIComponent(query)}=1`);
            const hasBody = !['GET', 'DELETE'].includes(route.method);
            const response = await t.app.inject({
              method: route.method as 'GET',
              url,
              headers: { ...headersFor(who), ...(hasBody && type ? { 'content-type': type } : {}) },
              payload: hasBody ? (rawBody ? String(JSON.stringify(body)).slice(0, -1) : JSON.stringify(body)) : undefined,
            });
            const context = `${route.method} ${url} (${who}, ${type}) → ${response.statusCode} ${response.body.slice(0, 200)}`;
            expect(response.statusCode, context).toBeLessThan(500);
            expect(response.body, context).not.toMatch(STACK_TRACE);
            if (response.statusCode >= 400) {
              const parsed = JSON.parse(response.body) as { error?: unknown };
              expect(typeof parsed.error, context).toBe('string');
            }
          },
        ),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
  }, 300_000);

  it('leaves no slot holding more covers than its capacity', async () => {
    const oversold = await queryRows<{ id: string }>(
      t.database.db,
      sql`SELECT s.id FROM slots s
          JOIN reservations r ON r.slot_id = s.id AND r.status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED')
          GROUP BY s.id, s.capacity HAVING sum(r.party_size) > s.capacity`,
    );
    expect(oversold).toEqual([]);
  });
});
