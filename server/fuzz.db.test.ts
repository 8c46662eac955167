import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff } from '#server/test/factories.ts';

/**
 * Hostile input against every endpoint in the OpenAPI document (so new endpoints are
 * fuzzed without anyone listing them): random and malformed bodies, query strings,
 * headers and path ids. Every answer is checked as it comes (never a 5xx, never a stack trace,
 * always an `{error}` sentence on a 4xx) and tallied by route and caller; the tests after the
 * fuzzing read the tally: every route answered every request, and no route that needs a
 * credential, or another kind of account, ever answered 2xx without it. Afterwards no slot
 * holds more covers than it has.
 */
let t: TestApp;
let dinerToken: string;
let staffToken: string;
type Route = { method: string; path: string; security: Array<Record<string, string[]>> };
let routes: Route[];

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 60);
/** Streams never end on their own; they are exercised by their own tests (the authorisation matrix, events.db.test.ts). */
const isStream = (path: string) => /\/events$/.test(path);
const routeName = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
/** Signing out, and deleting the account (decision 266), end the sign-in a request carries. */
const signsOut = (route: { method?: string; path: string }) =>
  route.path.endsWith('/logout') || (route.method?.toUpperCase() === 'DELETE' && route.path === '/api/auth/me');

type Credential = 'none' | 'diner' | 'staff' | 'garbage';
/** What the fuzzing saw: per route, each answer's status with the credential its request sent. */
const answers = new Map<string, { who: Credential; status: number }[]>();
/** The routes whose OpenAPI `security` admits no anonymous caller. */
const needsCredential = (route: Route) => route.security.length > 0 && !route.security.some((scheme) => Object.keys(scheme).length === 0);
/** An `{error}` that reads as a sentence: at least two words, not an empty string or an object dumped as `[object Object]`. */
const isSentence = (error: unknown) => typeof error === 'string' && /\w{2,}\W+\w{2,}/.test(error) && !/\[object \w+\]/.test(error);

beforeAll(async () => {
  t = await createTestApp();
  const restaurant = await buildRestaurant(t.database.db, { slug: 'fuzz-target' });
  await buildSlot(t.database.db, restaurant.id, { date: '2026-11-23', time: '19:00', capacity: 4 });
  dinerToken = (await buildDiner(t.database.db)).token;
  staffToken = (await buildStaff(t.database.db, restaurant.id)).token;
  const document = t.app.swagger() as { paths: Record<string, Record<string, { security?: Route['security'] }>> };
  routes = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, security: operation.security ?? [] })),
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
const credential = fc.constantFrom<Credential>('none', 'diner', 'staff', 'garbage');
const contentType = fc.constantFrom(
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'image/png',
  'application/json; charset=utf-8',
  '',
);

function headersFor(kind: Credential): Record<string, string> {
  if (kind === 'diner') return bearer(dinerToken);
  if (kind === 'staff') return bearer(staffToken);
  if (kind === 'garbage') return { authorization: 'Bearer x'.repeat(3) };
  return {};
}

/**
 * The route's path with each parameter set to `value`. A parameter of `.` or `..` is a dot segment
 * that every URL parser resolves before routing (RFC 3986 §5.2.4; `/dating/photos/..` is
 * `/dating/`), so the request would name another path, not this route: such a value is sent with
 * two more dots (`...`, `....`), which stay a parameter.
 */
function fillPath(path: string, value: string): string {
  const segment = encodeURIComponent(value);
  return path.replace(/\{[^}]+\}/g, () => (segment === '.' || segment === '..' ? `${segment}..` : segment));
}

const STACK_TRACE = /\bat [\w.<>]+ \(|\.ts:\d+:\d+|node_modules|Error: /;

describe('every endpoint survives hostile input', () => {
  it('answers random requests with a 2xx/3xx, or a 4xx carrying an {error} sentence; never 5xx or a stack', async () => {
    // Signing out revokes the token a request carries: those routes go last, so that every other
    // route is fuzzed with the diner's and the staff's live sign-ins, as checked before them.
    const fuzzed = routes.filter((route) => !isStream(route.path));
    const inOrder = [...fuzzed.filter((route) => !signsOut(route)), ...fuzzed.filter(signsOut)];
    let signInsChecked = false;
    for (const route of inOrder) {
      if (signsOut(route) && !signInsChecked) {
        signInsChecked = true;
        expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: headersFor('diner') })).statusCode, "the diner's sign-in").toBe(200);
        expect((await t.app.inject({ method: 'GET', url: '/api/admin/restaurant', headers: headersFor('staff') })).statusCode, "the staff's sign-in").toBe(200);
      }
      answers.set(routeName(route), []);
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
            answers.get(routeName(route))!.push({ who, status: response.statusCode });
            expect(response.statusCode, context).toBeLessThan(500);
            expect(response.body, context).not.toMatch(STACK_TRACE);
            if (response.statusCode >= 400) {
              expect(response.headers['content-type'], context).toMatch(/^application\/json/);
              const parsed = JSON.parse(response.body) as { error?: unknown };
              expect(isSentence(parsed.error), context).toBe(true);
            }
          },
        ),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
  }, 300_000);

  it('fuzzed every documented endpoint but the two live streams, each with every request answered', () => {
    const streams = routes.filter((route) => isStream(route.path)).map(routeName);
    expect(streams.sort()).toEqual(['GET /api/admin/events', 'GET /api/me/events']);
    expect([...answers.keys()].sort()).toEqual(
      routes
        .filter((route) => !isStream(route.path))
        .map(routeName)
        .sort(),
    );
    const shortOf = [...answers].filter(([, seen]) => seen.length !== RUNS_PER_ROUTE).map(([route, seen]) => `${route}: ${seen.length}`);
    expect(shortOf, `each route gets ${RUNS_PER_ROUTE} requests`).toEqual([]);
    const serverErrors = [...answers].filter(([, seen]) => seen.some(({ status }) => status >= 500)).map(([route]) => route);
    expect(serverErrors).toEqual([]);
  });

  it('never answered 2xx without the credential a route needs', () => {
    const routesNeedingOne = routes.filter((route) => !isStream(route.path) && needsCredential(route));
    expect(routesNeedingOne.length, 'the document names routes that need a credential').toBeGreaterThan(40);
    // Dating routes take the dating cookie, which the fuzzing never sends: no bearer token may open them either.
    const acceptedWithout = routesNeedingOne.flatMap((route) =>
      answers
        .get(routeName(route))!
        .filter(({ who, status }) => status < 300 && (who === 'none' || who === 'garbage' || route.security.every((scheme) => !('bearer' in scheme))))
        .map(({ who, status }) => `${routeName(route)} as ${who} → ${status}`),
    );
    expect(acceptedWithout).toEqual([]);
  });

  it("never answered 2xx on the portal's routes to a diner, nor on the moderation list to a diner or staff", () => {
    const wrongKind = [...answers].flatMap(([route, seen]) =>
      seen
        .filter(
          ({ who, status }) =>
            status < 300 &&
            ((route.includes(' /api/admin/') && who === 'diner') || (/ \/api\/moderation\/(?!auth\/)/.test(route) && (who === 'diner' || who === 'staff'))),
        )
        .map(({ who, status }) => `${route} as ${who} → ${status}`),
    );
    expect(wrongKind).toEqual([]);
  });

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
