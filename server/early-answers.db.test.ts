import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOKS_AN_EARLY_ANSWER_STANDS_FOR } from '#server/early-answers.ts';
import { createTestApp, requestHold, TEST_TOMORROW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * Decision 285: a kept availability or calendar answer is sent before Fastify routes the request. Whichever
 * path answers, the diner, the operator's log and the metrics must not be able to tell: the same
 * head in the same order, the same body, the same access line and the same histogram.
 */

interface RawAnswer {
  status: number;
  /** Header names and values as they came on the wire, in order. */
  rawHeaders: string[];
  body: string;
}

type LogLine = Record<string, unknown>;

const METRICS_TOKEN = 'early-answers-metrics-token-0123456789';
const AVAILABILITY_ROUTE = '/api/restaurants/:slug/availability';
const CALENDAR_ROUTE = '/api/restaurants/:slug/calendar';
const durationCountLine = (route: string) => `tablefair_http_request_duration_seconds_count{method="GET",route="${route}",status_code="200"}`;

let t: TestApp;
let restaurant: BuiltRestaurant;
let baseUrl: string;
const logLines: LogLine[] = [];

function get(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers: options.headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, rawHeaders: response.rawHeaders, body }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

/** The answers sent early so far. */
const answeredEarly = () => t.app.earlyAnswers.answered();

async function durationCount(route = AVAILABILITY_ROUTE): Promise<number> {
  const scrape = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const line = scrape.body.split('\n').find((candidate) => candidate.startsWith(durationCountLine(route)));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/** The access line of the request that went out with this x-request-id. */
function accessLineOf(answer: RawAnswer): LogLine {
  const id = header(answer, 'x-request-id');
  const lines = logLines.filter((line) => line.msg === 'request completed' && line.reqId === id);
  expect(lines).toHaveLength(1);
  return lines[0];
}

function header(answer: RawAnswer, name: string): string | undefined {
  const index = answer.rawHeaders.findIndex((candidate, at) => at % 2 === 0 && candidate.toLowerCase() === name);
  return index < 0 ? undefined : answer.rawHeaders[index + 1];
}

/** The hooks Fastify lists for a route, as "<hook> <function name>" (printRoutes with includeHooks). */
function routeHooks(routeLine: string): string[] {
  const lines = t.app.printRoutes({ includeHooks: true, commonPrefix: false, method: 'GET' }).split('\n');
  const starts = lines.flatMap((line, index) => (line.endsWith(routeLine) ? [index] : []));
  expect(starts, routeLine).toHaveLength(1);
  const hooks: string[] = [];
  for (const line of lines.slice(starts[0] + 1)) {
    const match = /• \((\w+)\) (\[.*\])$/.exec(line);
    if (!match) break;
    for (const name of JSON.parse(match[2]) as string[]) hooks.push(`${match[1]} ${name.replace(/\(\)$/, '')}`);
  }
  return hooks;
}

beforeAll(async () => {
  t = await createTestApp({
    env: { LOG_LEVEL: 'info', METRICS_TOKEN, TRUST_PROXY: '127.0.0.1' },
    logDestination: { write: (line) => void logLines.push(JSON.parse(line) as LogLine) },
  });
  restaurant = await buildRestaurant(t.database.db);
  for (const [time, capacity] of [
    ['19:00', 4],
    ['20:30', 2],
  ] as const) {
    await buildSlot(t.database.db, restaurant.id, { date: TEST_TOMORROW, time, capacity });
  }
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

describe('kept availability answers leave before routing (decision 285)', () => {
  it.each([
    { route: AVAILABILITY_ROUTE, path: () => `/api/restaurants/${restaurant.slug}/availability?date=${TEST_TOMORROW}&partySize=2` },
    { route: CALENDAR_ROUTE, path: () => `/api/restaurants/${restaurant.slug}/calendar` },
  ])('answers a URL of $route Fastify answered before with the same head, body, access line and metrics', async ({ route, path }) => {
    const countBefore = await durationCount(route);
    const early = answeredEarly();
    const byFastify = await get(path());
    expect(answeredEarly()).toBe(early);
    const sentEarly = await get(path());
    expect(answeredEarly()).toBe(early + 1);

    expect(byFastify.status).toBe(200);
    expect(sentEarly.status).toBe(200);
    expect(sentEarly.body).toBe(byFastify.body);
    expect(sentEarly.body).toMatch(route === CALENDAR_ROUTE ? /"days":\[/ : /"time":"19:00"/);
    // The same names in the same order, and the same values but for the request's id and date.
    const names = (answer: RawAnswer) => answer.rawHeaders.filter((_, at) => at % 2 === 0);
    expect(names(sentEarly)).toEqual(names(byFastify));
    expect(names(sentEarly)).toEqual(expect.arrayContaining(['x-request-id', 'content-security-policy', 'x-frame-options', 'content-type', 'content-length']));
    for (const name of names(byFastify).filter((candidate) => !['x-request-id', 'date'].includes(candidate))) {
      expect(header(sentEarly, name), name).toBe(header(byFastify, name));
    }
    expect(header(sentEarly, 'x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(header(sentEarly, 'x-request-id')).not.toBe(header(byFastify, 'x-request-id'));

    // One access line each, the same fields in the same order, differing only where requests do.
    const lineByFastify = accessLineOf(byFastify);
    const lineSentEarly = accessLineOf(sentEarly);
    expect(Object.keys(lineSentEarly)).toEqual(Object.keys(lineByFastify));
    const { time: _t1, reqId: _r1, ms: msByFastify, ...restByFastify } = lineByFastify;
    const { time: _t2, reqId: _r2, ms: msEarly, ...restEarly } = lineSentEarly;
    expect(restEarly).toEqual(restByFastify);
    expect(restEarly).toMatchObject({ method: 'GET', route, status: 200 });
    expect(msEarly).toBeGreaterThanOrEqual(0);
    expect(msByFastify).toBeGreaterThanOrEqual(0);

    // Each answer observed once in the route's histogram series.
    expect(await durationCount(route)).toBe(countBefore + 2);
  });

  it('names the request by a trusted proxy’s id, as Fastify does', async () => {
    const path = `/api/restaurants/${restaurant.slug}/availability?date=${TEST_TOMORROW}&partySize=3`;
    await get(path);
    const early = answeredEarly();
    const answer = await get(path, { headers: { 'x-request-id': 'proxy-given-id-42' } });
    expect(answeredEarly()).toBe(early + 1);
    expect(header(answer, 'x-request-id')).toBe('proxy-given-id-42');
    expect(accessLineOf(answer)).toMatchObject({ route: AVAILABILITY_ROUTE, status: 200 });
  });

  it('sends the new availability once a hold changes it, and then keeps that', async () => {
    const path = `/api/restaurants/${restaurant.slug}/availability?date=${TEST_TOMORROW}&partySize=2`;
    await get(path);
    const freeAt2030 = (answer: RawAnswer) =>
      (JSON.parse(answer.body) as { time: string; available: boolean }[]).find((slot) => slot.time === '20:30')?.available;
    expect(freeAt2030(await get(path))).toBe(true);
    const diner = await buildDiner(t.database.db);
    const held = await requestHold(t.app, diner.token, { restaurantSlug: restaurant.slug, date: TEST_TOMORROW, time: '20:30', partySize: 2 });
    expect(held.statusCode, held.body).toBe(201);

    const early = answeredEarly();
    const afterHold = await get(path);
    expect(answeredEarly()).toBe(early);
    expect(freeAt2030(afterHold)).toBe(false);
    const keptAfterHold = await get(path);
    expect(answeredEarly()).toBe(early + 1);
    expect(keptAfterHold.body).toBe(afterHold.body);
  });

  it('leaves to Fastify what it has not answered as it stands: other methods, bodies, unseen URLs and refusals', async () => {
    const path = `/api/restaurants/${restaurant.slug}/availability?date=${TEST_TOMORROW}&partySize=4`;
    await get(path);
    const early = answeredEarly();
    expect((await get(path, { method: 'HEAD' })).status).toBe(200);
    expect(answeredEarly()).toBe(early);
    expect((await get(path, { headers: { 'content-type': 'text/plain', 'content-length': '6' }, body: 'a body' })).status).toBe(200);
    expect(answeredEarly()).toBe(early);
    // The same values asked another way are another URL: Fastify answers it first.
    expect((await get(`/api/restaurants/${restaurant.slug}/availability?partySize=4&date=${TEST_TOMORROW}`)).status).toBe(200);
    // A refused URL is never learned: Fastify refuses it each time, with its sentence.
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await get(`/api/restaurants/${restaurant.slug}/availability?date=${TEST_TOMORROW}&partySize=0`);
      expect(refused.status).toBe(400);
    }
    const unknown = await get(`/api/restaurants/no-such-place/availability?date=${TEST_TOMORROW}&partySize=2`);
    expect(unknown.status).toBe(404);
    expect(answeredEarly()).toBe(early);
  });

  it.each(['/availability (GET)', '/calendar (GET)'])('runs no hook of %s that it does not stand for', (routeLine) => {
    const hooks = routeHooks(routeLine);
    expect(hooks).toEqual(expect.arrayContaining(['onRequest sendRequestId', 'onRequest sendSecurityHeaders', 'onResponse recordDuration']));
    // A hook added for every request must be done by the early answers too (and listed), or the route must stop answering early.
    expect(hooks.filter((hook) => !(hook in HOOKS_AN_EARLY_ANSWER_STANDS_FOR))).toEqual([]);
  });

  it('stops once the app closes, so Fastify answers as it does while closing', async () => {
    const path = `/api/restaurants/${restaurant.slug}/availability?date=${TEST_TOMORROW}&partySize=1`;
    await get(path);
    expect(t.app.earlyAnswers.size()).toBeGreaterThan(0);
    const closing = t.app.close();
    await closing;
    expect(t.app.earlyAnswers.size()).toBe(0);
    const early = answeredEarly();
    expect(t.app.earlyAnswers.answer({ method: 'GET', url: path, headers: {} } as never, {} as never)).toBe(false);
    expect(answeredEarly()).toBe(early);
  });
});

describe('which routes may answer early', () => {
  it('refuses a route whose config has hooks an early answer would skip, or that is not a public read', async () => {
    const { createEarlyAnswers } = await import('#server/early-answers.ts');
    const early = createEarlyAnswers();
    const kept = () => undefined;
    expect(() => early.route('/a', { publicRead: true, rateLimitGroup: 'booking' }, kept)).toThrow(/cannot answer early/);
    expect(() => early.route('/b', { publicRead: true, etag: true }, kept)).toThrow(/cannot answer early/);
    expect(() => early.route('/c', { publicRead: true, sharedAnswerSeconds: 15 }, kept)).toThrow(/cannot answer early/);
    expect(() => early.route('/d', {}, kept)).toThrow(/cannot answer early/);
    expect(() => early.route('/e', { publicRead: true }, kept)).not.toThrow();
  });
});
