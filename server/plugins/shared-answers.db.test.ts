import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AvailableTodayResponse } from '#common/contract/restaurants.ts';
import { createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildRestaurant, buildSlot, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * The whole-city answers (the today strip, the restaurant list) are built once and kept,
 * serialised, hashed and compressed, until a change is announced or their time runs out
 * (decision 075).
 */
let t: TestApp;
let restaurant: BuiltRestaurant;
let slotId: string;
const TODAY_STRIP = '/api/discover/available-today';

beforeAll(async () => {
  t = await createTestApp();
  restaurant = await buildRestaurant(t.database.db, { name: 'Shared Answer Bistro' });
  slotId = (await buildSlot(t.database.db, restaurant.id, { date: '2026-11-23', time: '20:00', capacity: 4 })).id;
  await vi.waitFor(() => expect(t.database.availabilityChanges.deliveryEpoch()).not.toBeNull(), { timeout: 5_000 });
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

async function stripTimes(headers: Record<string, string> = {}): Promise<string[]> {
  const response = await t.app.inject({ method: 'GET', url: TODAY_STRIP, headers });
  expect(response.statusCode, response.body).toBe(200);
  const entry = (response.json() as AvailableTodayResponse).restaurants.find((candidate) => candidate.restaurant.slug === restaurant.slug);
  return entry?.slots.map((slot) => slot.time) ?? [];
}

/** A write the triggers do not see: the one way to tell a kept answer from a rebuilt one. */
async function closeSlotUnannounced(): Promise<void> {
  await t.database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    await tx.execute(sql`UPDATE slots SET status = 'full' WHERE id = ${slotId}`);
  });
}

describe('shared answers', () => {
  it('keeps the today strip built, and rebuilds it the moment a change is announced', async () => {
    expect(await stripTimes()).toEqual(['20:00']);
    await closeSlotUnannounced();
    expect(await stripTimes()).toEqual(['20:00']);
    // An announced change (any restaurant) drops the kept answer: the next read is fresh.
    await buildSlot(t.database.db, restaurant.id, { date: '2026-11-24', time: '08:00', capacity: 2 });
    expect(await stripTimes()).toEqual(['08:00']);
    await t.database.db.execute(sql`UPDATE slots SET status = 'available' WHERE id = ${slotId}`);
    expect(await stripTimes()).toEqual(['20:00', '08:00']);
  });

  it('rebuilds the today strip once the clock has moved 15 seconds, since its window moves with time', async () => {
    expect(await stripTimes()).toEqual(['20:00', '08:00']);
    await closeSlotUnannounced();
    t.clock.advance(14_000);
    expect(await stripTimes()).toEqual(['20:00', '08:00']);
    t.clock.advance(1_000);
    expect(await stripTimes()).toEqual(['08:00']);
    await t.database.db.execute(sql`UPDATE slots SET status = 'available' WHERE id = ${slotId}`);
  });

  it('answers If-None-Match from the kept answer with 304, and sends the kept body compressed as asked', async () => {
    const first = await t.app.inject({ method: 'GET', url: TODAY_STRIP, headers: { 'accept-encoding': 'identity' } });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const conditional = await t.app.inject({ method: 'GET', url: TODAY_STRIP, headers: { 'if-none-match': etag } });
    expect(conditional.statusCode).toBe(304);
    expect(conditional.body).toBe('');
    const brotli = await t.app.inject({ method: 'GET', url: TODAY_STRIP, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.etag).toBe(etag);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(first.body);
    const gzip = await t.app.inject({ method: 'GET', url: TODAY_STRIP, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(first.body);
    const identity = await t.app.inject({ method: 'GET', url: TODAY_STRIP, headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(first.body);
    expect(identity.headers['content-type']).toMatch(/^application\/json/);
  });

  it('drops the kept restaurant list when a restaurant changes', async () => {
    const names = async () =>
      ((await t.app.inject({ method: 'GET', url: '/api/restaurants' })).json() as { slug: string; name: string }[]).find((r) => r.slug === restaurant.slug)
        ?.name;
    expect(await names()).toBe('Shared Answer Bistro');
    await t.database.db.execute(sql`UPDATE restaurants SET name = 'Shared Answer Brasserie' WHERE id = ${restaurant.id}`);
    expect(await names()).toBe('Shared Answer Brasserie');
  });
});

/** The kept answers' entries and their size, as /metrics reports them. */
async function keptSharedAnswers(): Promise<{ entries: number; bytes: number }> {
  const registry = t.app.deps.metrics!.registry;
  const valueOf = async (name: string) =>
    (await registry.getSingleMetric(name)!.get()).values.find((value) => value.labels.store === 'shared-answers')?.value ?? Number.NaN;
  return { entries: await valueOf('tablefair_kept_answers'), bytes: await valueOf('tablefair_kept_answer_bytes') };
}

describe('shared answers under hostile query strings (decision 200)', () => {
  it('keys a kept answer on the parameters its contract reads: 1,000 junk parameters per route share the kept answer, and memory stays flat', async () => {
    const bareStrip = await t.app.inject({ method: 'GET', url: TODAY_STRIP });
    const bareList = await t.app.inject({ method: 'GET', url: '/api/restaurants' });
    // From here on a rebuilt answer would differ from the kept one: only the kept one may be sent.
    await closeSlotUnannounced();
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`UPDATE restaurants SET name = 'Unannounced Name' WHERE id = ${restaurant.id}`);
    });
    const before = await keptSharedAnswers();
    for (let n = 0; n < 1_000; n++) {
      const strip = await t.app.inject({ method: 'GET', url: `${TODAY_STRIP}?junk=${n}` });
      expect(strip.body, `?junk=${n}`).toBe(bareStrip.body);
      const list = await t.app.inject({ method: 'GET', url: `/api/restaurants?junk=${n}&n${n}=x` });
      expect(list.body, `?junk=${n}`).toBe(bareList.body);
    }
    expect(await keptSharedAnswers()).toEqual(before);
    expect(before.entries).toBe(2);

    // Spelled differently, the same parameters: one kept answer; a parameter the contract reads is its own.
    const limited = await t.app.inject({ method: 'GET', url: `${TODAY_STRIP}?limit=1&hood=CBD` });
    for (const url of [`${TODAY_STRIP}?hood=CBD&limit=1`, `${TODAY_STRIP}?limit=01&hood=CBD&utm_source=x`]) {
      expect((await t.app.inject({ method: 'GET', url })).body, url).toBe(limited.body);
    }
    expect((await keptSharedAnswers()).entries).toBe(3);
    await t.database.db.execute(sql`UPDATE restaurants SET name = 'Shared Answer Bistro' WHERE id = ${restaurant.id}`);
    await t.database.db.execute(sql`UPDATE slots SET status = 'available' WHERE id = ${slotId}`);
  });
});
