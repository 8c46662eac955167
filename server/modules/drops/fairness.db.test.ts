import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { drawOrder } from '#common/domain/draw.ts';
import { iso, queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildStaff, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';
import { buildVerifiedDiner, createDrop, dropReservations, enterDrop, ENTRY_CLOSES, ENTRY_OPENS, entriesOf, spearman } from './drops.test-support.ts';
import { HOUR_MS } from '#common/domain/time.ts';

/**
 * Fairness of the draw, on the real API and database: N diners enter at spread-out times;
 * their place in line must not depend on when they arrived, and any of them can win.
 */
const N = 40;
const RELEASE = '2026-11-24T06:00:00.000Z';

let t: TestApp;
let restaurant: BuiltRestaurant;
let staffToken: string;
let diners: (BuiltAccount & { phone: string })[];
let dropId: string;

function get(url: string, token?: string) {
  return t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
}

beforeAll(async () => {
  // The same diners enter several drops here: their own hold limits must not get in the way.
  t = await createTestApp({ env: { MAX_ACTIVE_HOLDS: '100', MAX_UPCOMING_RESERVATIONS: '100' } });
  restaurant = await buildRestaurant(t.database.db);
  staffToken = (await buildStaff(t.database.db, restaurant.id)).token;
  diners = [];
  for (let i = 0; i < N; i++) diners.push(await buildVerifiedDiner(t.database.db));
  // 2 slots × 10 covers: 10 tables for parties of two.
  dropId = await createDrop(t, staffToken, {
    dateFrom: '2026-11-26',
    dateTo: '2026-11-26',
    times: ['19:00', '21:00'],
    capacity: 10,
    entryOpensAt: ENTRY_OPENS,
    entryClosesAt: ENTRY_CLOSES,
    releaseAt: RELEASE,
  });
});
afterAll(() => t.close());

describe('entering a drop', () => {
  it('is refused before the window opens', async () => {
    t.clock.set(TEST_NOW);
    const response = await enterDrop(t, diners[0].token, dropId);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'Entries for this drop open on Mon, 23 Nov at 10:30 AM' });
  });

  it('takes N entries at spread-out times, in the window, once per account', async () => {
    // Arrivals 30 minutes apart across the window, in the order diners were created.
    for (let i = 0; i < N; i++) {
      t.clock.set(new Date(Date.parse(ENTRY_OPENS) + i * 30 * 60_000));
      const response = await enterDrop(t, diners[i].token, dropId, 2);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().myEntry).toMatchObject({ partySize: 2, position: null, result: { state: 'entered' } });
    }
    const again = await enterDrop(t, diners[3].token, dropId, 2);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'You have already entered this drop' });
    const detail = await get(`/api/drops/${dropId}`, diners[3].token);
    expect(detail.json()).toMatchObject({ phase: 'open', entryCount: N, phoneVerified: true, myEntry: { result: { state: 'entered' } } });
  });

  it('refuses a second entry from the same verified phone on another account', async () => {
    // The phone's first account gives it up (say, support moved it); a second account verifies it.
    const phone = diners[5].phone;
    await t.database.db.execute(sql`UPDATE users SET verified_phone = NULL WHERE id = ${diners[5].id}`);
    const second = await buildVerifiedDiner(t.database.db, phone);
    const response = await enterDrop(t, second.token, dropId, 2);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'This phone number has already entered this drop' });
    await t.database.db.execute(sql`UPDATE users SET verified_phone = NULL WHERE id = ${second.id}`);
    await t.database.db.execute(sql`UPDATE users SET verified_phone = ${phone} WHERE id = ${diners[5].id}`);
  });

  it('refuses an account without a verified phone with 403 and says what to do', async () => {
    const unverified = await buildDiner(t.database.db);
    const response = await enterDrop(t, unverified.token, dropId, 2);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'Verify your phone number before entering a drop. It keeps drops fair: one entry per person.' });
    expect((await get(`/api/drops/${dropId}`, unverified.token)).json()).toMatchObject({ phoneVerified: false, myEntry: null });
  });

  it('refuses a party bigger than the tables, staff and anonymous callers, and entries after the window', async () => {
    const late = await buildVerifiedDiner(t.database.db);
    const big = await enterDrop(t, late.token, dropId, 11);
    expect(big.statusCode).toBe(400);
    expect(big.json()).toEqual({ error: "partySize: This drop's tables seat at most 10" });
    expect((await enterDrop(t, staffToken, dropId)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/api/drops/${dropId}/entries`, payload: { partySize: 2 } })).statusCode).toBe(401);
    t.clock.set(ENTRY_CLOSES);
    const closed = await enterDrop(t, late.token, dropId, 2);
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toEqual({ error: 'Entries for this drop have closed' });
    expect((await get(`/api/drops/${dropId}`)).json().phase).toBe('closed');
    // No draw before the release, whoever asks.
    const audit = await get(`/api/drops/${dropId}/draw`);
    expect(audit.statusCode).toBe(409);
    expect(audit.json().error).toMatch(/^The draw runs at the release/);
  });
});

describe('the draw', () => {
  it('runs once at release, however many reads race to it, and is recomputable from its seed', async () => {
    t.clock.set(RELEASE);
    const reads = await Promise.all([
      get(`/api/drops/${dropId}`, diners[0].token),
      get(`/api/drops/${dropId}`),
      get('/api/drops'),
      t.app.services.dropOffers.runDueWork(),
      get(`/api/drops/${dropId}/draw`),
    ]);
    expect(reads[0].statusCode).toBe(200);
    const [drop] = await queryRows<{ seed: string; drawn_at: Date | string }>(t.database.db, sql`SELECT seed, drawn_at FROM drops WHERE id = ${dropId}`);
    expect(drop.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(iso(drop.drawn_at)).toBe(RELEASE);

    const entries = await entriesOf(t.database.db, dropId);
    const positions = entries.map((entry) => entry.position).sort((a, b) => a! - b!);
    expect(positions).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    const stored = [...entries].sort((a, b) => a.position! - b.position!).map((entry) => entry.id);
    expect(
      await drawOrder(
        drop.seed,
        entries.map((entry) => entry.id),
      ),
    ).toEqual(stored);

    const audit = await get(`/api/drops/${dropId}/draw`);
    expect(audit.statusCode).toBe(200);
    expect(audit.json()).toMatchObject({ dropId, seed: drop.seed, drawnAt: RELEASE, order: stored });
    expect(audit.json().algorithm).toContain('HMAC-SHA256');

    // Reading again, or running the sweep again, changes nothing.
    await t.app.services.dropOffers.runDueWork();
    await get(`/api/drops/${dropId}`, diners[1].token);
    const [after] = await queryRows<{ seed: string }>(t.database.db, sql`SELECT seed FROM drops WHERE id = ${dropId}`);
    expect(after.seed).toBe(drop.seed);
    expect((await entriesOf(t.database.db, dropId)).map((entry) => entry.position)).toEqual(entries.map((entry) => entry.position));
  });

  it('gives the 10 tables to positions 1-10 as holds, and tells everyone else their place in line', async () => {
    const now = t.clock.now();
    const holds = await dropReservations(t.database.db, dropId, now);
    expect(holds.map((hold) => hold.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(holds.every((hold) => hold.status === 'HELD')).toBe(true);
    const entries = await entriesOf(t.database.db, dropId);
    for (const diner of diners) {
      const entry = entries.find((e) => e.user_id === diner.id)!;
      const body = (await get(`/api/drops/${dropId}`, diner.token)).json();
      expect(body.phase).toBe('released');
      expect(body.myEntry.position).toBe(entry.position);
      if (entry.position! <= 10) {
        expect(body.myEntry.result).toMatchObject({
          state: 'won',
          reservationId: entry.reservation_id,
          holdExpiresAt: new Date(now.getTime() + 10 * 60_000).toISOString(),
        });
      } else {
        expect(body.myEntry.result).toEqual({ state: 'waiting', placeInLine: entry.position! - 10 });
      }
    }
    // Staff see every entry in the diner's name, in drawn order, with the seed.
    const admin = await get(`/api/admin/drops/${dropId}`, staffToken);
    expect(admin.statusCode).toBe(200);
    const body = admin.json();
    expect(body.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(body.entries.map((entry: { position: number }) => entry.position)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    expect(body.entries[0].diner.name).toMatch(/^Verified /);
    expect(body.offeredCount).toBe(10);
  });

  it('makes the place in line independent of arrival time: Spearman rho averages ~0 over 2,000 draws, and everyone can win', async () => {
    const entries = await entriesOf(t.database.db, dropId); // ordered by arrival
    const ids = entries.map((entry) => entry.id);
    const arrivalRank = new Map(ids.map((id, index) => [id, index + 1]));
    const draws = 2_000;
    let sumRho = 0;
    let sumRhoSquared = 0;
    const timesFirst = new Map<string, number>();
    const timesWinning = new Map<string, number>();
    for (let k = 0; k < draws; k++) {
      const seed = createHash('sha256').update(`fairness-${k}`).digest();
      const order = await drawOrder(seed, ids);
      const arrival = order.map((id) => arrivalRank.get(id)!);
      const position = order.map((_, index) => index + 1);
      const rho = spearman(arrival, position);
      sumRho += rho;
      sumRhoSquared += rho * rho;
      timesFirst.set(order[0], (timesFirst.get(order[0]) ?? 0) + 1);
      for (const id of order.slice(0, 10)) timesWinning.set(id, (timesWinning.get(id) ?? 0) + 1);
    }
    const meanRho = sumRho / draws;
    // Under independence rho has mean 0 and variance 1/(N-1) = 0.0256 (sd 0.16); the mean of 2,000
    // has sd 0.0036, so |mean| < 0.02 is a 5.5-sigma bound: a biased draw fails, a fair one does not.
    expect(Math.abs(meanRho)).toBeLessThan(0.02);
    // Nor is the spread wrong (a draw that always half-kept arrival order would show here): E[rho^2] = 1/(N-1).
    expect(sumRhoSquared / draws).toBeGreaterThan(0.8 / (N - 1));
    expect(sumRhoSquared / draws).toBeLessThan(1.2 / (N - 1));
    // Every entry comes first at least once, and wins one of the 10 tables about a quarter of the time.
    expect(timesFirst.size).toBe(N);
    for (const id of ids) {
      expect(timesWinning.get(id)! / draws).toBeGreaterThan(0.18);
      expect(timesWinning.get(id)! / draws).toBeLessThan(0.32);
    }
  });

  it('uses a fresh seed for each real draw, each recomputable, with arrival order irrelevant', async () => {
    const seeds = new Set<string>();
    let sumRho = 0;
    const runs = 4;
    for (let run = 0; run < runs; run++) {
      t.clock.set(TEST_NOW);
      const opens = new Date(Date.parse(TEST_NOW) + HOUR_MS).toISOString();
      const closes = new Date(Date.parse(TEST_NOW) + 2 * HOUR_MS).toISOString();
      const release = new Date(Date.parse(TEST_NOW) + 3 * HOUR_MS).toISOString();
      const id = await createDrop(t, staffToken, {
        dateFrom: '2026-11-28',
        dateTo: '2026-11-28',
        times: [`1${run}:00`],
        capacity: 2,
        entryOpensAt: opens,
        entryClosesAt: closes,
        releaseAt: release,
      });
      for (let i = 0; i < N; i++) {
        t.clock.set(new Date(Date.parse(opens) + i * 60_000));
        expect((await enterDrop(t, diners[i].token, id, 2)).statusCode).toBe(201);
      }
      t.clock.set(release);
      expect(await t.app.services.dropOffers.advanceDrop(id)).toEqual({ drew: true, offers: 1 });
      const [drop] = await queryRows<{ seed: string }>(t.database.db, sql`SELECT seed FROM drops WHERE id = ${id}`);
      seeds.add(drop.seed);
      const entries = await entriesOf(t.database.db, id);
      const stored = [...entries].sort((a, b) => a.position! - b.position!).map((entry) => entry.id);
      expect(await drawOrder(drop.seed, entries.map((entry) => entry.id).reverse())).toEqual(stored);
      sumRho += spearman(
        entries.map((_, index) => index + 1),
        entries.map((entry) => entry.position!),
      );
      // One table of two: exactly the first in line holds it.
      expect((await dropReservations(t.database.db, id, t.clock.now())).map((r) => r.position)).toEqual([1]);
    }
    expect(seeds.size).toBe(runs);
    // Four real draws: a loose bound only (their mean has sd 0.08); the tight one is above.
    expect(Math.abs(sumRho / runs)).toBeLessThan(0.45);
  });
});
