import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPostgres } from '#server/db/client.ts';
import { createTestApp, type TestApp } from '#server/test/app.ts';
import { eventually } from '#server/test/eventually.ts';
import { TcpProxy } from '#server/test/tcp-proxy.ts';

/**
 * The database going away: calls answer 503 {error} with Retry-After (never a 500 or a hang),
 * /api/ready and /health/ready say so, and the app recovers by itself, change feed included,
 * when the database is back. This needs a PostgreSQL server (PGlite runs in-process and cannot
 * go away): DATABASE_URL, else the machine's 127.0.0.1:5432. Under CI a missing server fails
 * the run.
 */
const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');

async function isReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: url.hostname, port: Number(url.port || 5432) }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe('when the database goes away', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let schema: string;
  let reachable = true;

  beforeAll(async () => {
    reachable = await isReachable();
    if (!reachable) {
      if (process.env.CI === 'true') throw new Error(`PostgreSQL is not reachable at ${url.host}`);
      return;
    }
    proxy = new TcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    const port = await proxy.start();
    schema = `outage_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const proxied = new URL(url.toString());
    proxied.hostname = '127.0.0.1';
    proxied.port = String(port);
    const database = await openPostgres({ url: proxied.toString(), poolSize: 4, searchPath: schema, connectTimeoutMs: 1000 });
    await database.migrate();
    t = await createTestApp({ database });
  });

  afterAll(async () => {
    if (!reachable) return;
    await proxy.restore();
    await t.close();
    await proxy.cut();
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });

  it('answers 503 with {error} while it is gone and recovers without a restart', async (context) => {
    if (!reachable) context.skip();
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/restaurants' })).statusCode).toBe(200);

    await proxy.cut();
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ error: expect.any(String) });
    const list = await t.app.inject({ method: 'GET', url: '/api/restaurants' });
    expect(list.statusCode).toBe(503);
    expect(list.json().error).toMatch(/unavailable/i);
    expect(list.body).not.toMatch(/at .*\.ts|ECONNREFUSED|stack/i);

    await proxy.restore();
    expect(await eventually(async () => (await t.app.inject({ method: 'GET', url: '/api/restaurants' })).statusCode === 200, 5_000)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  const readyStatus = async () => (await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode;

  it('keeps readiness false while the database is gone and true again without a restart', async (context) => {
    if (!reachable) context.skip();
    // The change feed's listening connection opens in the background.
    expect(await eventually(async () => (await readyStatus()) === 200, 10_000)).toBe(true);

    await proxy.cut();
    const started = Date.now();
    const down = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(down.statusCode).toBe(503);
    expect(down.json().checks).toMatchObject({ database: false, notShuttingDown: true });
    const list = await t.app.inject({ method: 'GET', url: '/api/restaurants' });
    expect(list.statusCode).toBe(503);
    expect(list.headers['retry-after']).toBe('2');
    expect(list.body).not.toMatch(/ECONNREFUSED|at .*\.ts|terminated/i);
    expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);

    await proxy.restore();
    expect(await eventually(async () => (await readyStatus()) === 200, 20_000)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/restaurants' })).statusCode).toBe(200);
  }, 60_000);
});
