import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { datingNeighbourhoods } from '#common/domain/dating-profile.ts';
import { queryRows } from '#server/db/client.ts';
import { DEMO_DEPOSIT_RESTAURANT, DEMO_STAFF_PASSWORD, seedDemoData } from '#server/db/seed/seed.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';

/** The demo data lets a visitor try a deposit without the portal (docs/product-tour.md, "Deposits and no-show strikes"), and a date at a partner table. */
let test: TestApp;
const seed = () => seedDemoData(test.database.db, { now: new Date(TEST_NOW), passwordHashCost: 10, demoAccounts: true });
// TEST_NOW is Monday 2026-11-23 in Kolkata.
const FRIDAY = '2026-11-27';
const TUESDAY = '2026-11-24';

type Slot = { time: string; available: boolean; deposit?: { kind: string; perCoverPaise: number } };
async function slots(date: string): Promise<Slot[]> {
  const response = await test.app.inject({ url: `/api/restaurants/${DEMO_DEPOSIT_RESTAURANT}/availability?date=${date}&partySize=2` });
  expect(response.statusCode).toBe(200);
  return response.json<Slot[]>();
}

beforeAll(async () => {
  test = await createTestApp();
  await seed();
});
afterAll(() => test.close());

describe('the demo deposit policy', () => {
  it('asks ₹200 a guest on Friday evenings and nothing on a Tuesday', async () => {
    const friday = await slots(FRIDAY);
    expect(friday.length).toBeGreaterThan(0);
    expect(friday.every((slot) => slot.deposit?.kind === 'deposit' && slot.deposit.perCoverPaise === 20_000)).toBe(true);
    const tuesday = await slots(TUESDAY);
    expect(tuesday.length).toBeGreaterThan(0);
    expect(tuesday.every((slot) => slot.deposit === undefined)).toBe(true);
  });

  it('is written once: a policy the staff set survives the next start', async () => {
    const login = await test.app.inject({
      method: 'POST',
      url: '/api/auth/restaurant-login',
      payload: { username: DEMO_DEPOSIT_RESTAURANT, password: DEMO_STAFF_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const none = { defaultCharge: { kind: 'none', perCoverPaise: 0 }, rules: [], freeCancelMinutes: 120, lateCancelKeepPercent: 100, noShowKeepPercent: 100 };
    const saved = await test.app.inject({ method: 'PUT', url: '/api/admin/deposit-policy', headers: bearer(login.json().token), payload: none });
    expect(saved.statusCode, saved.body).toBe(200);
    await seed();
    expect((await slots(FRIDAY)).every((slot) => slot.deposit === undefined)).toBe(true);
  });
});

describe('the demo date partners', () => {
  it('opts one or two restaurants in each dating neighbourhood in, once: a restaurant that leaves stays left', async () => {
    const partners = await queryRows<{ slug: string; neighbourhood: string }>(
      test.database.db,
      sql`SELECT r.slug, p.neighbourhood FROM dating_partners p JOIN restaurants r ON r.id = p.restaurant_id ORDER BY r.slug`,
    );
    expect(new Set(partners.map((partner) => partner.neighbourhood))).toEqual(new Set(datingNeighbourhoods));
    const login = await test.app.inject({
      method: 'POST',
      url: '/api/auth/restaurant-login',
      payload: { username: partners[0]!.slug, password: DEMO_STAFF_PASSWORD },
    });
    expect((await test.app.inject({ method: 'DELETE', url: '/api/admin/date-partner', headers: bearer(login.json().token) })).statusCode).toBe(200);
    await seed();
    const after = await queryRows<{ slug: string }>(test.database.db, sql`SELECT r.slug FROM dating_partners p JOIN restaurants r ON r.id = p.restaurant_id`);
    expect(after.map((row) => row.slug)).not.toContain(partners[0]!.slug);
    expect(after).toHaveLength(partners.length - 1);
  });
});
