import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ReservationStatus } from '#common/domain/reservation-status.ts';
import { kolkataInstant, MINUTE_MS } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import { bearer, createTestApp, requestHold, TEST_NOW, type TestApp, TEST_TODAY as DATE } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * The reservation tests' shared world (reservations.db.test.ts, reservation-moves.db.test.ts): one
 * restaurant, a diner and the restaurant's staff on a fresh app and database per file. Call
 * setUpReservationsFixture() once per test file; the bindings below are then live.
 */
export let t: TestApp;
export let restaurant: BuiltRestaurant;
export let diner: BuiltAccount;
export let staff: Principal;

export function setUpReservationsFixture(): void {
  beforeAll(async () => {
    t = await createTestApp();
    restaurant = await buildRestaurant(t.database.db);
    diner = await buildDiner(t.database.db);
    const staffAccount = await buildStaff(t.database.db, restaurant.id);
    staff = { kind: 'staff', staffId: staffAccount.id, restaurantId: restaurant.id };
    nextSlotMinute = 0;
  });
  afterAll(() => t.close());
  // Every test starts at 10:00 on Mon 2026-11-23 in Kolkata; each builds its own slots and diners.
  beforeEach(() => t.clock.set(TEST_NOW));
}

export { TEST_TODAY as DATE } from '#server/test/app.ts';
let nextSlotMinute = 0;

/** A fresh slot of the shared restaurant on DATE (evening times, one minute apart), so tests never share covers. */
export async function freshSlot(capacity = 8, options: { date?: string; status?: 'available' | 'full'; time?: string } = {}) {
  const minute = nextSlotMinute++;
  const time = options.time ?? `${String(17 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
  return buildSlot(t.database.db, restaurant.id, { date: options.date ?? DATE, time, capacity, status: options.status });
}

export async function hold(token: string, time: string, partySize = 2, options: { date?: string; slug?: string } = {}) {
  return requestHold(t.app, token, { restaurantSlug: options.slug ?? restaurant.slug, date: options.date ?? DATE, time, partySize });
}

/** A HELD reservation on a fresh slot, by a fresh diner unless one is given. */
export async function heldReservation(options: { partySize?: number; capacity?: number; owner?: BuiltAccount } = {}) {
  const owner = options.owner ?? (await buildDiner(t.database.db));
  const slot = await freshSlot(options.capacity ?? 8);
  const response = await hold(owner.token, slot.time, options.partySize ?? 2);
  expect(response.statusCode, response.body).toBe(201);
  return { id: response.json().id as string, owner, slot };
}

export function move(action: 'confirm' | 'cancel', id: string, token?: string, payload: unknown = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/reservations/${id}/${action}`,
    headers: token ? bearer(token) : {},
    payload: payload as object,
  });
}

/** Drives a fresh reservation to `status` along the state machine (staff moves through the service). */
export async function reservationIn(status: ReservationStatus, options: { partySize?: number; owner?: BuiltAccount } = {}) {
  const made = await heldReservation(options);
  const path: Record<ReservationStatus, ReservationStatus[]> = {
    HELD: [],
    PENDING: ['PENDING'],
    CONFIRMED: ['PENDING', 'CONFIRMED'],
    SEATED: ['PENDING', 'CONFIRMED', 'SEATED'],
    COMPLETED: ['PENDING', 'CONFIRMED', 'SEATED', 'COMPLETED'],
    CANCELLED: ['CANCELLED'],
    NO_SHOW: ['PENDING', 'CONFIRMED', 'NO_SHOW'],
  };
  for (const step of path[status]) {
    if (step === 'PENDING') expect((await move('confirm', made.id, made.owner.token)).statusCode).toBe(200);
    else if (step === 'CANCELLED') expect((await move('cancel', made.id, made.owner.token)).statusCode).toBe(200);
    else if (step === 'NO_SHOW') {
      const now = t.clock.now();
      t.clock.set(new Date(kolkataInstant(made.slot.date, made.slot.time).getTime() + 15 * MINUTE_MS));
      await t.app.services.reservations.moveReservationAsStaff(staff, made.id, step);
      t.clock.set(now);
    } else await t.app.services.reservations.moveReservationAsStaff(staff, made.id, step);
  }
  return made;
}

export async function eventsOf(id: string) {
  return queryRows<{ from_status: string | null; to_status: string; actor_kind: string; actor_id: string | null; reason: string | null }>(
    t.database.db,
    sql`SELECT from_status, to_status, actor_kind, actor_id, reason FROM reservation_events WHERE reservation_id = ${id} ORDER BY id`,
  );
}

export async function rowOf(id: string) {
  const [row] = await queryRows<{ status: string; cancel_reason: string | null }>(
    t.database.db,
    sql`SELECT status, cancel_reason FROM reservations WHERE id = ${id}`,
  );
  return row;
}

/** Everything a refused call could have half-written. */
export async function tables() {
  const reservations = await queryRows(t.database.db, sql`SELECT id, status, cancel_reason, updated_at, party_size FROM reservations ORDER BY id`);
  const events = await queryRows(t.database.db, sql`SELECT count(*)::int AS count FROM reservation_events`);
  return JSON.stringify({ reservations, events });
}

/** Runs a call that must be refused with `status`, and checks no table changed. */
export async function expectRefusedCleanly(call: () => Promise<{ statusCode: number; json(): unknown; body: string }>, status: number) {
  const before = await tables();
  const response = await call();
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json() as { error: unknown };
  expect(typeof body.error).toBe('string');
  expect(await tables()).toBe(before);
  return body as { error: string; details?: unknown };
}
