import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kolkataInstant, MINUTE_MS } from '#common/domain/time.ts';
import type { StaffPrincipal } from '#server/modules/accounts/principal.ts';
import { bearer, createTestApp, requestHold, TEST_NOW, type TestApp, TEST_TODAY as DATE } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * The guest card, notes, list, CSV and tonight's brief (decisions 261–265), on a real database:
 * history counted at one restaurant only, and another restaurant's staff find nothing.
 */
let t: TestApp;
let x: BuiltRestaurant;
let y: BuiltRestaurant;
let asha: BuiltAccount;
let staffX: BuiltAccount;
let staffY: BuiltAccount;
let tonight: string;

async function book(time: string, request?: object): Promise<string> {
  await buildSlot(t.database.db, x.id, { date: DATE, time, capacity: 10 });
  const held = await requestHold(t.app, asha.token, { restaurantSlug: x.slug, date: DATE, time, partySize: 3, request });
  expect(held.statusCode, held.body).toBe(201);
  const id: string = held.json().id;
  expect((await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/confirm`, headers: bearer(asha.token), payload: {} })).statusCode).toBe(200);
  return id;
}

function asStaff(account: BuiltAccount & { restaurantId?: string }, restaurantId: string): StaffPrincipal {
  return { kind: 'staff', staffId: account.id, restaurantId };
}

const get = (url: string, who: BuiltAccount) => t.app.inject({ method: 'GET', url, headers: bearer(who.token) });

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  x = await buildRestaurant(db);
  y = await buildRestaurant(db);
  asha = await buildDiner(db, { name: 'Asha Rao', email: 'asha.rao@example.com', phone: '+919812345678' });
  staffX = await buildStaff(db, x.id);
  staffY = await buildStaff(db, y.id);
  const moves = t.app.services.reservations;
  // A visit, a no-show and a late cancel at X, then tonight's booking with a request.
  const visit = await book('11:00');
  for (const to of ['CONFIRMED', 'SEATED', 'COMPLETED'] as const) await moves.moveReservationAsStaff(asStaff(staffX, x.id), visit, to);
  const missed = await book('11:30');
  await moves.moveReservationAsStaff(asStaff(staffX, x.id), missed, 'CONFIRMED');
  t.clock.set(new Date(kolkataInstant(DATE, '11:30').getTime() + 20 * MINUTE_MS));
  await moves.moveReservationAsStaff(asStaff(staffX, x.id), missed, 'NO_SHOW');
  const late = await book('13:00');
  t.clock.set(new Date(kolkataInstant(DATE, '13:00').getTime() - 30 * MINUTE_MS));
  expect((await t.app.inject({ method: 'POST', url: `/api/reservations/${late}/cancel`, headers: bearer(asha.token), payload: {} })).statusCode).toBe(200);
  tonight = await book('20:00', { occasion: 'birthday', picks: ['jain'], note: '<script>alert(1)</script> peanut allergy' });
  t.clock.set(new Date(TEST_NOW));
});
afterAll(() => t.close());

describe('the guest card', () => {
  it("counts visits, no-shows and late cancels at this restaurant, with the diner's requests", async () => {
    const card = await get(`/api/admin/guest-cards/${tonight}`, staffX);
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json()).toMatchObject({
      guestId: asha.id,
      name: 'Asha Rao',
      visits: 1,
      lastVisit: DATE,
      noShows: 1,
      lateCancels: 1,
      tags: [],
      note: '',
      allergy: true,
      requests: [{ reservationId: tonight, request: { occasion: 'birthday', picks: ['jain'], note: '<script>alert(1)</script> peanut allergy' } }],
    });
  });

  it('keeps tags and a note inside the restaurant: another restaurant gets 404 on every guest route', async () => {
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/guests/${asha.id}/notes`,
      headers: bearer(staffX.token),
      payload: { tags: ['vip', 'allergy', 'vip'], note: '=HYPERLINK("x") <b>Loves</b> the window' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ tags: ['vip', 'allergy'], note: '=HYPERLINK("x") <b>Loves</b> the window' });
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/admin/guests/${asha.id}/notes`,
          headers: bearer(staffX.token),
          payload: { tags: [], note: 'x'.repeat(501) },
        })
      ).statusCode,
    ).toBe(400);

    for (const url of [`/api/admin/guest-cards/${tonight}`, `/api/admin/guests/${asha.id}`]) {
      const refused = await get(url, staffY);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ error: 'Guest not found' });
    }
    const write = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/guests/${asha.id}/notes`,
      headers: bearer(staffY.token),
      payload: { tags: ['vip'], note: 'mine' },
    });
    expect(write.statusCode).toBe(404);
    expect((await get('/api/admin/guests?q=asha', staffY)).json()).toEqual({ guests: [], truncated: false });
    expect((await get('/api/admin/guests.csv', staffY)).body.trim().split('\r\n')).toHaveLength(1);
    expect((await get(`/api/admin/guests/brief?date=${DATE}`, staffY)).json().arrivals).toEqual([]);
    // X's note is unchanged by Y's attempts.
    expect((await get(`/api/admin/guests/${asha.id}`, staffX)).json().note).toBe('=HYPERLINK("x") <b>Loves</b> the window');
  });
});

describe('the guest list', () => {
  it('finds a guest by name, phone or email, and filters by tag, last visit and visits', async () => {
    const ids = async (query: string) => ((await get(`/api/admin/guests?${query}`, staffX)).json().guests as { guestId: string }[]).map((g) => g.guestId);
    for (const query of ['q=rao', 'q=98123', 'q=asha.rao%40example', 'tag=vip', 'lastVisitWithin=30', 'minVisits=1'])
      expect(await ids(query), query).toEqual([asha.id]);
    for (const query of ['q=nobody', 'tag=regular', 'minVisits=2']) expect(await ids(query), query).toEqual([]);
    expect((await get('/api/admin/guests?minVisits=many', staffX)).statusCode).toBe(400);
  });

  it('exports a CSV in which nothing typed runs as a formula', async () => {
    const csv = await get('/api/admin/guests.csv?tag=vip', staffX);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const [header, row] = csv.body.split('\r\n');
    expect(header).toMatch(/^"Name","Phone"/);
    expect(row).toContain(`"'+919812345678"`);
    expect(row).toContain(`"'=HYPERLINK(""x"") <b>Loves</b> the window"`);
  });
});

describe("tonight's brief", () => {
  it('lists the arrivals by time with party, table, tags, requests and allergies', async () => {
    const brief = await get(`/api/admin/guests/brief?date=${DATE}`, staffX);
    expect(brief.statusCode, brief.body).toBe(200);
    expect(brief.json().restaurantName).toBe(x.name);
    expect(brief.json().arrivals).toEqual([
      expect.objectContaining({
        reservationId: tonight,
        time: '20:00',
        partySize: 3,
        name: 'Asha Rao',
        table: null,
        tags: ['vip', 'allergy'],
        allergy: true,
        visits: 1,
      }),
    ]);
  });
});

describe("tonight's brief on a restaurant with a floor", () => {
  it('names the table the booking holds (decision 240)', async () => {
    const db = t.database.db;
    const z = await buildRestaurant(db);
    const staffZ = await buildStaff(db, z.id);
    const floor = {
      tables: [
        { name: 'T2', section: 'indoor', minCovers: 1, maxCovers: 2, onlineBookable: true },
        { name: 'T4', section: 'terrace', minCovers: 2, maxCovers: 4, onlineBookable: true },
      ],
      combinations: [],
    };
    const saved = await t.app.inject({ method: 'PUT', url: '/api/admin/floor/tables', headers: bearer(staffZ.token), payload: floor });
    expect(saved.statusCode, saved.body).toBe(200);
    await buildSlot(db, z.id, { date: DATE, time: '19:00', capacity: 6 });
    const held = await requestHold(t.app, asha.token, { restaurantSlug: z.slug, date: DATE, time: '19:00', partySize: 3 });
    expect(held.statusCode, held.body).toBe(201);
    const id: string = held.json().id;
    expect((await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/confirm`, headers: bearer(asha.token), payload: {} })).statusCode).toBe(200);

    const brief = await get(`/api/admin/guests/brief?date=${DATE}`, staffZ);
    expect(brief.statusCode, brief.body).toBe(200);
    expect(brief.json().arrivals).toEqual([expect.objectContaining({ reservationId: id, partySize: 3, table: 'T4' })]);
  });
});
