import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { DEMO_STAFF_PASSWORD } from '#server/db/seed/seed.ts';
import { freePort, startServerProcess, type ServerProcess } from '#server/test/server-process.ts';

/**
 * Crash safety of the real server process: SIGKILL in the middle of a booking race, then
 * restart on the same data. Runs on the engine of this pass: the embedded PGlite (DATA_DIR)
 * without DATABASE_URL, PostgreSQL (its own schema) with it.
 */
const databaseUrl = process.env.DATABASE_URL;
const engine = databaseUrl ? 'PostgreSQL' : 'embedded PGlite';
const RESTAURANT = 'sakura-lane';
const CAPACITY = 12; // the seed's covers per slot for this restaurant (parties are at most 20)
const DINERS = 40;

let env: Record<string, string>;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const common = {
    SEED_DEMO: '1',
    PASSWORD_HASH_COST: '10',
    HOLD_MINUTES: '0.5',
    HOLD_SWEEP_SECONDS: '1',
    RATE_LIMIT_SIGNUP_PER_IP: '100000',
    RATE_LIMIT_SIGNUP_PER_ACCOUNT: '100000',
    RATE_LIMIT_LOGIN_PER_IP: '100000',
    RATE_LIMIT_BOOKING_PER_DINER: '100000',
  };
  if (databaseUrl) {
    const schema = `faults_${Date.now()}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env = { ...common, DATABASE_URL: url.toString() };
    cleanup = async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'tablefair-faults-'));
    env = { ...common, DATA_DIR: dataDir };
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
});
afterAll(() => cleanup());

async function json(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe(`SIGKILL during a booking race (${engine})`, () => {
  it('keeps every reservation that got a 2xx, never oversells, and releases expired holds after restart', { timeout: 120_000 }, async () => {
    const port = await freePort();
    let server: ServerProcess = await startServerProcess(env, port);
    const date = addDays(todayInKolkata(), 1);

    const tokens: string[] = [];
    for (let i = 0; i < DINERS; i++) {
      const username = `racer_${i}_${Date.now() % 100000}`;
      await fetch(`${server.baseUrl}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: 'password123' }),
      });
      const login = await json(
        await fetch(`${server.baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password: 'password123' }),
        }),
      );
      tokens.push(String(login.body.token));
    }

    const succeeded: string[] = [];
    let answered = 0;
    const race = tokens.map(async (token) => {
      try {
        const response = await fetch(`${server.baseUrl}/api/reservations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ restaurantSlug: RESTAURANT, date, time: '19:00', partySize: 1 }),
        });
        const body = (await response.json()) as { id?: string };
        answered++;
        if (response.status === 201 && body.id) succeeded.push(body.id);
      } catch {
        // The connection died with the server: this call got no 2xx, so nothing is promised.
      }
    });
    // Kill once some, but not all, answers are out.
    while (answered < 8) await new Promise((resolve) => setTimeout(resolve, 5));
    server.child.kill('SIGKILL');
    await Promise.all(race);
    await server.exited;
    expect(succeeded.length).toBeGreaterThan(0);
    expect(succeeded.length).toBeLessThanOrEqual(CAPACITY);

    server = await startServerProcess(env, port);
    try {
      for (const id of succeeded) {
        const found = await json(await fetch(`${server.baseUrl}/api/reservations/${id}`));
        expect(found.status).toBe(200);
        expect(found.body.slot).toEqual({ date, time: '19:00' });
      }
      // A hold can commit and lose its 201 to the kill, so the covers held are at least the
      // 2xx count, not equal to it: the staff view counts what the database really holds.
      const staff = await json(
        await fetch(`${server.baseUrl}/api/auth/restaurant-login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: RESTAURANT, password: DEMO_STAFF_PASSWORD }),
        }),
      );
      const staffHeaders = { authorization: `Bearer ${String(staff.body.token)}` };
      const coversBooked = async () => {
        const adminSlots = (await json(await fetch(`${server.baseUrl}/api/admin/slots?date=${date}`, { headers: staffHeaders }))).body as unknown as {
          time: string;
          coversBooked: number;
        }[];
        return adminSlots.find((slot) => slot.time === '19:00')!.coversBooked;
      };
      const live = await coversBooked();
      expect(live).toBeGreaterThanOrEqual(succeeded.length);
      expect(live).toBeLessThanOrEqual(CAPACITY);
      // On the floor (decision 240) each party of one takes a table of its own: never more parties
      // than tables that seat one, whatever the crash left behind.
      const floor = (await json(await fetch(`${server.baseUrl}/api/admin/floor`, { headers: staffHeaders }))).body as unknown as {
        tables: { minCovers: number; onlineBookable: boolean }[];
      };
      expect(live).toBeLessThanOrEqual(floor.tables.filter((table) => table.onlineBookable && table.minCovers <= 1).length);
      // No oversell: more than the free covers is never offered.
      const fits = async (partySize: number) => {
        const slots = (await json(await fetch(`${server.baseUrl}/api/restaurants/${RESTAURANT}/availability?date=${date}&partySize=${partySize}`)))
          .body as unknown as { time: string; available: boolean }[];
        if (!Array.isArray(slots)) throw new Error(`availability answered ${JSON.stringify(slots)}`);
        return slots.find((slot) => slot.time === '19:00')!.available;
      };
      expect(await fits(CAPACITY - live + 1)).toBe(false);

      // The 30-second holds (long enough to outlast a slow restart) expire: the sweeper writes
      // them CANCELLED and the covers and tables come back.
      const releasedBy = Date.now() + 45_000;
      while ((await coversBooked()) > 0 && Date.now() < releasedBy) await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await coversBooked()).toBe(0);
      expect(await fits(1)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 2_500)); // one sweep interval and a margin
      const statuses = await Promise.all(succeeded.map(async (id) => (await json(await fetch(`${server.baseUrl}/api/reservations/${id}`))).body.status));
      expect(new Set(statuses)).toEqual(new Set(['CANCELLED']));
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});

describe(`SIGTERM (${engine})`, () => {
  it('finishes the requests in flight, then exits 0', async () => {
    // At info level each answered request writes its access line (decision 270): once the first
    // calendar's line is out, the server is handling the burst, the rest of it still in flight.
    const server = await startServerProcess({ ...env, SHUTDOWN_GRACE_SECONDS: '3', LOG_LEVEL: 'info' }, await freePort());
    const calendarArrivals = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('"request completed"') && line.includes('/calendar')).length;
    const inFlight = Array.from({ length: 40 }, () =>
      fetch(`${server.baseUrl}/api/restaurants/${RESTAURANT}/calendar`).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: string } })),
    );
    // Signal once the server has begun handling the calendar requests, however loaded the machine is.
    await expect.poll(calendarArrivals, { timeout: 10_000, interval: 5 }).toBeGreaterThan(0);
    server.child.kill('SIGTERM');
    const results = await Promise.allSettled(inFlight);
    const exit = await server.exited;
    expect(exit.code).toBe(0);
    const answered = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    // Requests being handled when the signal came are answered in full (200); any that reach the
    // server after draining began are told to retry elsewhere (503 {error}); none is cut mid-answer.
    // Connections still waiting to be accepted when the listener closes are refused (a reset the
    // client or balancer retries), so only the answers that came are checked.
    const outcomes = results.map((r) => (r.status === 'fulfilled' ? r.value.status : String(r.reason)));
    expect(answered.filter((r) => r.status === 200).length, `outcomes: ${outcomes.join(', ')}`).toBeGreaterThan(0);
    for (const r of answered) {
      expect([200, 503]).toContain(r.status);
      if (r.status === 503) expect(typeof r.body.error).toBe('string');
    }
    expect(server.output()).not.toMatch(/shutdown failed/);
  });
});
