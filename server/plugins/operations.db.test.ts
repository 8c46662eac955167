import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, requestHold, type TestApp } from '#server/test/app.ts';
import { createTestDatabase } from '#server/test/database.ts';
import { buildDiner, buildRestaurant, buildSlot } from '#server/test/factories.ts';
import { currentRequestId } from './request-id.ts';

type LogLine = { msg?: string; reqId?: string; route?: string | null; url?: string; level: number };

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const DATE = '2026-11-24';

/** Health, readiness, metrics and request ids on the embedded engine (and on PostgreSQL when DATABASE_URL is set). */
describe('health, metrics and request ids', () => {
  let t: TestApp;
  const lines: LogLine[] = [];
  const rawLines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      env: { LOG_LEVEL: 'info', METRICS_TOKEN, TRUST_PROXY: '10.0.0.0/8' },
      logDestination: {
        write: (line) => {
          rawLines.push(line);
          lines.push(JSON.parse(line) as LogLine);
        },
      },
    });
  });
  afterAll(async () => t.close());

  it('answers liveness and readiness without a session, and logs nothing while healthy', async () => {
    lines.length = 0;
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'live' });
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: true, writable: true, migrations: true, changeFeed: true, notShuttingDown: true } });
    expect(ready.statusCode).toBe(200);
    expect(lines).toEqual([]);
    // A request that is not a health check is logged as usual (the capture works).
    await t.app.inject({ method: 'GET', url: '/api/restaurants' });
    expect(lines.length).toBeGreaterThan(0);
  });

  it('exposes metrics only with the token, with the listed series', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong-token-0123456789' } })).statusCode).toBe(401);

    const restaurant = await buildRestaurant(t.database.db);
    await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '19:00', capacity: 2 });
    const [a, b] = [await buildDiner(t.database.db), await buildDiner(t.database.db)];
    expect((await requestHold(t.app, a.token, { restaurantSlug: restaurant.slug, date: DATE, time: '19:00', partySize: 2 })).statusCode).toBe(201);
    expect((await requestHold(t.app, b.token, { restaurantSlug: restaurant.slug, date: DATE, time: '19:00', partySize: 2 })).statusCode).toBe(409);
    await t.app.inject({ method: 'GET', url: `/api/restaurants/${restaurant.slug}/availability?date=${DATE}&partySize=2` });
    await t.app.inject({ method: 'GET', url: `/api/restaurants/${restaurant.slug}/availability?date=${DATE}&partySize=2` });

    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    const text = metrics.body;
    expect(text).toMatch(/tablefair_http_request_duration_seconds_count\{method="POST",route="\/api\/reservations",status_code="201"\} 1\n/);
    expect(text).toMatch(/tablefair_http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/api\/restaurants\/:slug\/availability"/);
    expect(text).toContain('tablefair_reservation_moves_total{move="hold"} 1\n');
    expect(text).toContain('tablefair_slot_full_refusals_total 1\n');
    expect(text).toMatch(/tablefair_availability_cache_lookups_total\{result="hit"\} [1-9]/);
    expect(text).toMatch(/tablefair_availability_cache_lookups_total\{result="miss"\} [1-9]/);
    expect(text).toContain('tablefair_event_streams_open 0\n');
    expect(text).toContain('tablefair_outbox_unsent_messages ');
    expect(text).toContain('tablefair_outbox_lag_seconds ');
    expect(text).toContain('tablefair_outbox_send_failures_total 0\n');
    expect(text).toContain('# TYPE tablefair_drop_draw_duration_seconds histogram');
    expect(text).toContain('# TYPE tablefair_db_pool_connections gauge');
    // Raw paths never become labels (one series per template, not per restaurant).
    expect(text).not.toContain(restaurant.slug);
  });

  it('returns a request id on every answer, in every log line of the request, and believes one only from a trusted proxy', async () => {
    lines.length = 0;
    const own = await t.app.inject({ method: 'GET', url: '/api/restaurants', headers: { 'x-request-id': 'chosen-by-client' }, remoteAddress: '203.0.113.9' });
    const ownId = own.headers['x-request-id'] as string;
    expect(ownId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.reqId === ownId)).toBe(true);
    // Named once per line, not twice (the request's logger and the async context agree).
    expect(rawLines.slice(-lines.length).every((line) => line.split('"reqId"').length === 2)).toBe(true);

    // A service logging through the app's logger while serving a request names it too.
    lines.length = 0;
    currentRequestId.run('req-from-context', () => t.app.log.info('written by a service'));
    expect(lines).toEqual([expect.objectContaining({ msg: 'written by a service', reqId: 'req-from-context' })]);
    lines.length = 0;
    t.app.log.info('written outside any request');
    expect(lines[0].reqId).toBeUndefined();

    const proxied = await t.app.inject({ method: 'GET', url: '/api/restaurants', headers: { 'x-request-id': 'lb-7f3a-42' }, remoteAddress: '10.1.2.3' });
    expect(proxied.headers['x-request-id']).toBe('lb-7f3a-42');

    const traced = await t.app.inject({
      method: 'GET',
      url: '/api/nope',
      headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      remoteAddress: '10.9.9.9',
    });
    expect(traced.statusCode).toBe(404);
    expect(traced.headers['x-request-id']).toBe('4bf92f3577b34da6a3ce929d0e0e4736');

    // Nothing that could break a log line or a header is believed, even from the proxy.
    const hostile = await t.app.inject({ method: 'GET', url: '/api/restaurants', headers: { 'x-request-id': 'a b\u0000c' }, remoteAddress: '10.1.2.3' });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs where a signed link went, never its token', async () => {
    lines.length = 0;
    const token = 'AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ';
    await t.app.inject({ method: 'GET', url: `/api/reminder-links/${token}` });
    await t.app.inject({ method: 'GET', url: `/api/calendar/${token}` });
    await t.app.inject({ method: 'GET', url: `/reminder/${token}?from=email` });
    await t.app.inject({ method: 'PUT', url: `/dating/uploads/00000000-0000-4000-8000-000000000000?grant=${token}` });
    // Each request's access line names its route's pattern; one without a pattern of its own
    // says which path it asked for, with the token taken out (decision 270).
    const said = lines.filter((line) => line.msg === 'request completed').map((line) => line.url ?? line.route);
    expect(said).toEqual([
      '/api/reminder-links/:token',
      '/api/calendar/:token',
      '/reminder/…?from=email',
      '/dating/uploads/00000000-0000-4000-8000-000000000000?grant=…',
    ]);
    expect(rawLines.some((line) => line.includes(token))).toBe(false);
  });

  it('turns readiness false on shutdown, before anything drains', async () => {
    t.app.markShuttingDown();
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.json()).toMatchObject({ error: expect.any(String), checks: { notShuttingDown: false, database: true } });
    // Still serving meanwhile: the balancer takes it out, nobody is cut off.
    expect((await t.app.inject({ method: 'GET', url: '/api/restaurants' })).statusCode).toBe(200);
  });
});

describe('metrics guard without a token', () => {
  it('answers 404 on the public port when no token is set, and serves the separate port without one', async () => {
    const t = await createTestApp({ env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' } });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      const listener = t.app.metricsListener!;
      const scraped = await listener.inject({ method: 'GET', url: '/metrics' });
      expect(scraped.statusCode).toBe(200);
      expect(scraped.body).toContain('# TYPE tablefair_reservation_moves_total counter');
    } finally {
      await t.close();
    }
  });
});

describe('readiness while the database is gone', () => {
  it('is false, naming the database, when the engine does not answer', async () => {
    const database = await createTestDatabase();
    const t = await createTestApp({ database });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
      if (database.pglite) await database.pglite.close();
      else await (database.db as unknown as { $client: { end(): Promise<void> } }).$client.end();
      const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks).toMatchObject({ database: false, writable: false, migrations: false });
      expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    } finally {
      await t.app.close();
    }
  });
});
