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

describe('the demo restaurant pages', () => {
  it('say veg or not, cost for two, where, the house rules, and show drawn photos a phone can load, written once', async () => {
    const page = await test.app.inject({ url: '/api/restaurants/mavalli-mess' });
    expect(page.statusCode).toBe(200);
    const mess = page.json();
    expect(mess.diet).toBe('pure-veg');
    expect(mess.costForTwo).toBeGreaterThanOrEqual(200);
    expect(mess.address).toMatch(/Basavanagudi, Bengaluru 5600\d\d$/);
    expect(mess.directionsUrl).toMatch(/^https:\/\/www\.google\.com\/maps\/dir\//);
    expect(mess.photos).toHaveLength(3);
    expect(mess.menu.photos).toHaveLength(1);
    expect(mess.houseRules.children).toBe('welcome');
    expect(mess.openingHours).toBeNull();
    const list = (await test.app.inject({ url: '/api/restaurants' })).json<{ slug: string; diet: string | null; heroImageUrl: string }[]>();
    expect(list.every((restaurant) => restaurant.diet !== null)).toBe(true);
    expect(list.find((restaurant) => restaurant.slug === 'mavalli-mess')?.heroImageUrl).toBe(mess.photos[0].src);

    // The cover, drawn on first read and then kept: a WebP of the asked width.
    const cover = await test.app.inject({ url: mess.photos[0].src.replace('/960', '/480') });
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/webp');
    expect(cover.headers['cache-control']).toContain('immutable');
    const { default: sharp } = await import('sharp');
    expect(await sharp(cover.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 480, height: 320 });
    expect(cover.rawPayload.length).toBeLessThan(60_000);

    // Staff change it; the next start leaves it as they set it.
    const login = await test.app.inject({
      method: 'POST',
      url: '/api/auth/restaurant-login',
      payload: { username: 'mavalli-mess', password: DEMO_STAFF_PASSWORD },
    });
    const saved = await test.app.inject({
      method: 'PUT',
      url: '/api/admin/restaurant',
      headers: bearer(login.json().token),
      payload: { name: 'Mavalli Mess', neighborhood: 'Basavanagudi', costForTwo: 350, diet: 'veg-and-non-veg' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await seed();
    const after = (await test.app.inject({ url: '/api/restaurants/mavalli-mess' })).json();
    expect({ costForTwo: after.costForTwo, diet: after.diet, photos: after.photos.length }).toEqual({ costForTwo: 350, diet: 'veg-and-non-veg', photos: 3 });
  });
});
