import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { bearer, createTestApp, type TestApp, TEST_TODAY as TODAY } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * The staff's API (/api/admin/*) through HTTP on a real database, shared by the admin route tests
 * of restaurants, slots and reservations. "Now" is 10:00 in Kolkata on 2026-11-23 (TEST_NOW);
 * TODAY's evening slots are bookable, YESTERDAY is in the past. Call setUpStaffFixture() once
 * per test file; the bindings below are then live.
 */
export { TEST_TODAY as TODAY } from './app.ts';
export { TEST_TOMORROW as TOMORROW } from './app.ts';
export const YESTERDAY = '2026-11-22';

export let t: TestApp;
export let dataDir: string;
export let x: BuiltRestaurant;
export let y: BuiltRestaurant;
export let staffX: BuiltAccount;
export let staffY: BuiltAccount;
export let diner: BuiltAccount;

/** Two restaurants (X "Portal Kitchen", Y), a staff account at each, and a diner. */
export function setUpStaffFixture(): void {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tablefair-portal-'));
    t = await createTestApp({ env: { DATA_DIR: dataDir } });
    x = await buildRestaurant(t.database.db, { name: 'Portal Kitchen' });
    y = await buildRestaurant(t.database.db, { name: 'Other Place' });
    staffX = await buildStaff(t.database.db, x.id);
    staffY = await buildStaff(t.database.db, y.id);
    diner = await buildDiner(t.database.db, { name: 'Asha Rao', phone: '+919876543210' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
export function call(method: Method, url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
}

export async function hold(token: string, slug: string, date: string, time: string, partySize = 2) {
  const response = await call('POST', '/api/reservations', token, { restaurantSlug: slug, date, time, partySize });
  return response;
}

/** A PENDING booking of a fresh diner at X, on a fresh slot. */
export async function pendingBooking(time: string, options: { date?: string; capacity?: number; partySize?: number } = {}) {
  const date = options.date ?? TODAY;
  const slot = await buildSlot(t.database.db, x.id, { date, time, capacity: options.capacity ?? 8 });
  const someone = await buildDiner(t.database.db);
  const held = await hold(someone.token, x.slug, date, time, options.partySize ?? 2);
  expect(held.statusCode, held.body).toBe(201);
  const id = held.json().id as string;
  expect((await call('POST', `/api/reservations/${id}/confirm`, someone.token, {})).statusCode).toBe(200);
  return { id, slot, diner: someone };
}

export const wrongKinds = () => [
  { name: 'no token', token: undefined },
  { name: 'a diner token', token: diner.token },
  { name: 'a broken token', token: 'not-a-real-token' },
];
