import { describe, expect, it } from 'vitest';
import { buildDiner, buildSlot } from '#server/test/factories.ts';
import { setUpStaffFixture, TOMORROW, t, x, staffX, staffY, diner, call, hold, wrongKinds } from '#server/test/staff-fixture.ts';
import type { AdminFloor, FloorDay } from '#common/contract/floor.ts';
import type { FloorLive } from '#common/contract/floor-live.ts';
import type { PortalStreamEvent } from '#common/contract/portal.ts';

/** The floor through HTTP (decision 240): staff edit it, holds take its tables, availability follows it. */
setUpStaffFixture();

const FLOOR = {
  tables: [
    { name: 'T2', section: 'indoor', minCovers: 1, maxCovers: 2, onlineBookable: true },
    { name: 'T1', section: 'indoor', minCovers: 1, maxCovers: 2, onlineBookable: true },
    { name: 'T4', section: 'terrace', minCovers: 2, maxCovers: 4, onlineBookable: true },
    { name: 'Big', section: 'private', minCovers: 4, maxCovers: 6, onlineBookable: true },
    { name: 'Walk-in', section: 'bar', minCovers: 1, maxCovers: 2, onlineBookable: false },
  ],
  combinations: [
    { tableNames: ['T1', 'T2'], minCovers: 3, maxCovers: 4 },
    { tableNames: ['T4', 'Big'], minCovers: 7, maxCovers: 10 },
  ],
};

const del = (url: string, token?: string) => t.app.inject({ method: 'DELETE', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
const availability = async (time: string, partySize: number) => {
  const entries = (await call('GET', `/api/restaurants/${x.slug}/availability?date=${TOMORROW}&partySize=${partySize}`)).json() as {
    time: string;
    available: boolean;
  }[];
  return entries.find((entry) => entry.time === time)?.available;
};
const day = async () => (await call('GET', `/api/admin/floor/day?date=${TOMORROW}`, staffX.token)).json() as FloorDay;

describe('the floor', () => {
  it('starts empty: covers alone decide until tables are saved', async () => {
    const floor = (await call('GET', '/api/admin/floor', staffX.token)).json() as AdminFloor;
    expect(floor.hasFloor).toBe(false);
    expect(floor.tables).toEqual([]);
    expect(floor.settings.turns.map((band) => band.minutes)).toEqual([75, 105, 120, 150]);
    expect(floor.settings.intervalMinutes).toBe(15);
  });

  it('is only for the restaurant’s own staff', async () => {
    for (const { name, token } of wrongKinds()) {
      expect((await call('GET', '/api/admin/floor', token)).statusCode, name).toBe(401);
      expect((await call('PUT', '/api/admin/floor/tables', token, FLOOR)).statusCode, name).toBe(401);
    }
  });

  it('saves tables grouped by section, and combinations by table name', async () => {
    const saved = await call('PUT', '/api/admin/floor/tables', staffX.token, FLOOR);
    expect(saved.statusCode, saved.body).toBe(200);
    const floor = saved.json() as AdminFloor;
    expect(floor.hasFloor).toBe(true);
    expect(floor.tables.map((table) => `${table.section}:${table.name}`)).toEqual(['indoor:T1', 'indoor:T2', 'terrace:T4', 'bar:Walk-in', 'private:Big']);
    expect(floor.combinations.map((combination) => combination.tableNames.join('+'))).toEqual(['T1+T2', 'T4+Big']);
    // The other restaurant's staff see their own (empty) floor.
    expect(((await call('GET', '/api/admin/floor', staffY.token)).json() as AdminFloor).tables).toEqual([]);
  });

  it('refuses a bad floor with a 400 naming the problem', async () => {
    const cases: [object, RegExp][] = [
      [{ ...FLOOR, tables: [{ ...FLOOR.tables[0], minCovers: 3 }] }, /maxCovers must be at least minCovers/],
      [{ ...FLOOR, tables: [FLOOR.tables[0], FLOOR.tables[0]] }, /Two tables are called T2/],
      [{ tables: FLOOR.tables, combinations: [{ tableNames: ['T1', 'Nowhere'], minCovers: 3, maxCovers: 4 }] }, /No table is called Nowhere/],
      [{ ...FLOOR, tables: [{ ...FLOOR.tables[0], section: 'roof' }] }, /section/],
    ];
    for (const [body, message] of cases) {
      const response = await call('PUT', '/api/admin/floor/tables', staffX.token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error).toMatch(message);
    }
  });

  it('offers a party only what a table or combination seats: never 20 though 40 covers are free', async () => {
    await buildSlot(t.database.db, x.id, { date: TOMORROW, time: '19:00', capacity: 40 });
    expect(await availability('19:00', 20)).toBe(false);
    expect(await availability('19:00', 8)).toBe(true);
    expect(await availability('19:00', 2)).toBe(true);
    const refused = await hold(diner.token, x.slug, TOMORROW, '19:00', 20);
    expect(refused.statusCode).toBe(409);
    const calendar = (await call('GET', `/api/restaurants/${x.slug}/calendar`)).json() as { days: { date: string; partySizes: number[] }[] };
    expect(calendar.days.find((entry) => entry.date === TOMORROW)?.partySizes).toEqual([2, 4, 6, 8]);
  });

  it('a hold takes the smallest free table bookable online; when none is left the 409 names the nearest free time', async () => {
    await buildSlot(t.database.db, x.id, { date: TOMORROW, time: '21:00', capacity: 40 });
    const holds: { id: string; token: string }[] = [];
    for (let index = 0; index < 3; index++) {
      const someone = await buildDiner(t.database.db);
      const held = await hold(someone.token, x.slug, TOMORROW, '19:00', 2);
      expect(held.statusCode, held.body).toBe(201);
      holds.push({ id: held.json().id, token: someone.token });
    }
    const seated = (await day()).assignments.filter((assignment) => assignment.time === '19:00').map((assignment) => assignment.tableNames.join('+'));
    // T1, T2, then the 4-top (2-4): the 6-top needs 4 and the walk-in table is staff's.
    expect(seated).toEqual(['T1', 'T2', 'T4']);
    expect(await availability('19:00', 2)).toBe(false);
    const late = await buildDiner(t.database.db);
    const refused = await hold(late.token, x.slug, TOMORROW, '19:00', 2);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'That time is no longer available', details: { nearestTimes: [{ date: TOMORROW, time: '21:00' }] } });
    // A cancel frees the table at once, and the next party gets it.
    expect((await call('POST', `/api/reservations/${holds[0].id}/cancel`, holds[0].token, {})).statusCode).toBe(200);
    expect(await availability('19:00', 2)).toBe(true);
    const again = await hold(late.token, x.slug, TOMORROW, '19:00', 2);
    expect(again.statusCode, again.body).toBe(201);
    expect((await day()).assignments.find((assignment) => assignment.reservation?.id === again.json().id)?.tableNames).toEqual(['T1']);
  });

  it('staff move a booking to another free table, never onto a taken one, and can take it off its table', async () => {
    const floor = (await call('GET', '/api/admin/floor', staffX.token)).json() as AdminFloor;
    const id = (name: string) => floor.tables.find((table) => table.name === name)!.id;
    const booking = (await day()).assignments.find((assignment) => assignment.tableNames[0] === 'T4')!.reservation!.id;
    const taken = await call('PUT', `/api/admin/floor/assignments/${booking}`, staffX.token, { tableIds: [id('T1')] });
    expect(taken.statusCode).toBe(409);
    const moved = await call('PUT', `/api/admin/floor/assignments/${booking}`, staffX.token, { tableIds: [id('Walk-in')] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().tableNames).toEqual(['Walk-in']);
    // The 4-top is free again: a party of two can book 19:00 once more.
    expect(await availability('19:00', 2)).toBe(true);
    // Another restaurant's staff cannot touch it.
    expect((await call('PUT', `/api/admin/floor/assignments/${booking}`, staffY.token, { tableIds: [id('T4')] })).statusCode).toBe(404);
    expect((await del(`/api/admin/floor/assignments/${booking}`, staffY.token)).statusCode).toBe(404);
    expect((await del(`/api/admin/floor/assignments/${booking}`, staffX.token)).statusCode).toBe(204);
    expect((await day()).assignments.some((assignment) => assignment.reservation?.id === booking)).toBe(false);
  });

  it('a table with bookings to come cannot be removed', async () => {
    const floor = (await call('GET', '/api/admin/floor', staffX.token)).json() as AdminFloor;
    const withoutT1 = floor.tables.filter((table) => table.name !== 'T1');
    const response = await call('PUT', '/api/admin/floor/tables', staffX.token, {
      tables: withoutT1.map(({ id, name, section, minCovers, maxCovers, onlineBookable }) => ({ id, name, section, minCovers, maxCovers, onlineBookable })),
      combinations: [],
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatch(/bookings to come/);
  });

  it('pacing: no more covers start in 15 minutes than staff allow, though tables are free', async () => {
    const floor = (await call('GET', '/api/admin/floor', staffX.token)).json() as AdminFloor;
    const saved = await call('PUT', '/api/admin/floor/settings', staffX.token, { ...floor.settings, pacing: { maxCovers: 2, maxParties: null } });
    expect(saved.statusCode, saved.body).toBe(200);
    const first = await hold((await buildDiner(t.database.db)).token, x.slug, TOMORROW, '21:00', 2);
    expect(first.statusCode, first.body).toBe(201);
    expect(await availability('21:00', 2)).toBe(false);
    expect((await hold((await buildDiner(t.database.db)).token, x.slug, TOMORROW, '21:00', 2)).statusCode).toBe(409);
    const bad = await call('PUT', '/api/admin/floor/settings', staffX.token, { ...floor.settings, turns: [{ fromPartySize: 3, minutes: 90 }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/party of 1/);
  });
});

describe('every hold goes through the floor', () => {
  it('waitlist and drop offers and a date plan’s table: a party of 20 is refused though the slot has 40 covers, a party of 2 takes a two-top', async () => {
    const floor = (await call('GET', '/api/admin/floor', staffX.token)).json() as AdminFloor;
    expect(
      (await call('PUT', '/api/admin/floor/settings', staffX.token, { ...floor.settings, pacing: { maxCovers: null, maxParties: null } })).statusCode,
    ).toBe(200);
    // Lunch: no other booking's turn reaches it.
    const slot = await buildSlot(t.database.db, x.id, { date: TOMORROW, time: '13:00', capacity: 40 });
    const { reservations } = t.app.services;
    const someone = await buildDiner(t.database.db);
    const offer = (partySize: number) =>
      t.database.db.transaction((tx) =>
        reservations.createHoldForOffer(tx, { userId: someone.id, slotId: slot.id, partySize, holdMinutes: 10, reason: 'WAITLIST_OFFER', gate: 'public' }),
      );
    expect(await offer(20)).toEqual({ refused: 'no_room' });
    const platform = (partySize: number) =>
      t.database.db.transaction((tx) =>
        reservations.createHoldForPlatform(tx, {
          userId: someone.id,
          slotId: slot.id,
          partySize,
          holdUntil: new Date(t.clock.now().getTime() + 3_600_000),
          reason: 'DATE_PLAN',
        }),
      );
    expect(await platform(20)).toBeUndefined();
    const held = await offer(2);
    expect('held' in held).toBe(true);
    const date = await platform(2);
    expect(date).toBeDefined();
    const seated = (await day()).assignments.filter((assignment) => assignment.time === '13:00');
    expect(seated.map((assignment) => [assignment.partySize, assignment.tableNames.join('+')])).toEqual([
      [2, 'T1'],
      [2, 'T2'],
    ]);
  });
});

describe('re-packing the night (decision 217)', () => {
  const live = async () => (await call('GET', `/api/admin/floor/live?date=${TOMORROW}`, staffX.token)).json() as FloorLive;
  const tablesOf = async (reservationId: string) => (await day()).assignments.find((assignment) => assignment.reservation?.id === reservationId)?.tableNames;
  /** Two couples on the 2-tops and a party of four on the 4-top at `time`: no single table or combination is left for a party of three. */
  async function fillUp(time: string): Promise<string> {
    await buildSlot(t.database.db, x.id, { date: TOMORROW, time, capacity: 40 });
    for (const partySize of [2, 2]) expect((await hold((await buildDiner(t.database.db)).token, x.slug, TOMORROW, time, partySize)).statusCode).toBe(201);
    const four = await hold((await buildDiner(t.database.db)).token, x.slug, TOMORROW, time, 4);
    expect(four.statusCode, four.body).toBe(201);
    expect(await tablesOf(four.json().id)).toEqual(['T4']);
    return four.json().id as string;
  }

  it('a party no free table seats is offered and held when a booking not yet seated moves to another table; staff screens show the move', async () => {
    const four = await fillUp('16:00');
    // T4 is taken, T1+T2 too, the 6-top needs four: only moving the four to the 6-top seats three.
    expect(await availability('16:00', 3)).toBe(true);
    const principal = await t.app.services.sessions.resolvePrincipal(staffX.token);
    const heard: PortalStreamEvent[] = [];
    const stop = t.app.services.reservationsAdmin.subscribeToChanges(principal, (event) => heard.push(event));
    const three = await hold((await buildDiner(t.database.db)).token, x.slug, TOMORROW, '16:00', 3);
    stop();
    expect(three.statusCode, three.body).toBe(201);
    expect(await tablesOf(three.json().id)).toEqual(['T4']);
    expect(await tablesOf(four)).toEqual(['Big']);
    // The host view reads the same rows, and the hold's own announcement reloads it.
    expect((await live()).parties.find((party) => party.reservationId === four)?.tableNames).toEqual(['Big']);
    expect(heard).toContainEqual({ type: 'booking', reservationId: three.json().id, status: 'HELD' });
    // Now nothing is left at 16:00 for three, and availability says so too.
    expect(await availability('16:00', 3)).toBe(false);
    expect((await hold((await buildDiner(t.database.db)).token, x.slug, TOMORROW, '16:00', 3)).statusCode).toBe(409);
  });

  it('never moves a booking staff placed: then the time is not offered and a hold is refused', async () => {
    const four = await fillUp('11:00');
    const floor = (await call('GET', '/api/admin/floor', staffX.token)).json() as AdminFloor;
    const pinned = await call('PUT', `/api/admin/floor/assignments/${four}`, staffX.token, {
      tableIds: [floor.tables.find((table) => table.name === 'T4')!.id],
    });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(await availability('11:00', 3)).toBe(false);
    expect((await hold((await buildDiner(t.database.db)).token, x.slug, TOMORROW, '11:00', 3)).statusCode).toBe(409);
    expect(await tablesOf(four)).toEqual(['T4']);
  });
});
