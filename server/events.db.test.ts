import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DinerStreamEvent } from '#common/contract/waitlist.ts';
import { openPostgres, queryRows, type DatabaseHandle } from '#server/db/client.ts';
import { createTestApp, type TestApp, requestHold } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff } from '#server/test/factories.ts';

/** Live events reach listeners on this instance once, and on every other instance too (decision 076). */
let a: TestApp;

beforeAll(async () => {
  a = await createTestApp();
});
afterAll(() => a.close());

const offer = (reservationId: string): DinerStreamEvent => ({
  type: 'offer',
  source: 'waitlist',
  reservationId,
  restaurantName: 'Relay Rooms',
  date: '2026-11-24',
  time: '19:00',
  partySize: 2,
  holdExpiresAt: '2026-11-23T04:40:00.000Z',
  dropId: null,
  waitlistEntryId: '00000000-0000-4000-8000-000000000001',
});

describe('live events on one instance', () => {
  it('reach the diner’s open stream exactly once', async () => {
    const diner = await buildDiner(a.database.db);
    const principal = await a.app.services.sessions.resolvePrincipal(diner.token);
    const heard: DinerStreamEvent[] = [];
    const stop = a.app.services.notifications.subscribeToMyEvents(principal, (event) => heard.push(event));
    a.app.services.notifications.publishToUser(diner.id, offer('r-1'));
    expect(heard).toEqual([offer('r-1')]);
    // A relayed copy of the instance's own event must not arrive a second time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toHaveLength(1);
    stop();
  });
});

describe.runIf(process.env.DATABASE_URL)('live events across instances (PostgreSQL)', () => {
  let otherDatabase: DatabaseHandle;
  let b: TestApp;
  beforeAll(async () => {
    const [{ schema }] = await queryRows<{ schema: string }>(a.database.db, sql`SELECT current_schema() AS schema`);
    otherDatabase = await openPostgres({ url: process.env.DATABASE_URL!, poolSize: 2, searchPath: `${schema},public` });
    b = await createTestApp({ database: otherDatabase });
    // Each instance's listening connection opens in the background.
    await vi.waitFor(
      () => {
        expect(a.database.availabilityChanges.deliveryEpoch()).not.toBeNull();
        expect(otherDatabase.availabilityChanges.deliveryEpoch()).not.toBeNull();
      },
      { timeout: 5_000 },
    );
  });
  afterAll(async () => {
    await b?.app.close();
    await otherDatabase?.close();
  });

  it('an offer made on instance A reaches the diner’s stream on instance B within a second, once', async () => {
    const diner = await buildDiner(a.database.db);
    const principal = await b.app.services.sessions.resolvePrincipal(diner.token);
    const heard: DinerStreamEvent[] = [];
    const stop = b.app.services.notifications.subscribeToMyEvents(principal, (event) => heard.push(event));
    a.app.services.notifications.publishToUser(diner.id, offer('r-2'));
    await vi.waitFor(() => expect(heard).toEqual([offer('r-2')]), { timeout: 1_000, interval: 10 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toHaveLength(1);
    stop();
  });

  it('a hold made on instance A reaches a staff dashboard connected to instance B', async () => {
    const restaurant = await buildRestaurant(a.database.db);
    await buildSlot(a.database.db, restaurant.id, { date: '2026-11-24', time: '19:00', capacity: 4 });
    const staff = await buildStaff(a.database.db, restaurant.id);
    const staffPrincipal = await b.app.services.sessions.resolvePrincipal(staff.token);
    const changes: unknown[] = [];
    const stop = b.app.services.reservationsAdmin.subscribeToChanges(staffPrincipal, (event) => changes.push(event));
    const diner = await buildDiner(a.database.db);
    const hold = await requestHold(a.app, diner.token, { restaurantSlug: restaurant.slug, date: '2026-11-24', time: '19:00', partySize: 2 });
    expect(hold.statusCode, hold.body).toBe(201);
    await vi.waitFor(() => expect(changes.length).toBeGreaterThan(0), { timeout: 1_000, interval: 10 });
    stop();
  });
});
