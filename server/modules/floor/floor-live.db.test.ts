import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { kolkataInstant } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';
import { setUpStaffFixture, TODAY, t, x, staffX, staffY, call, hold, wrongKinds } from '#server/test/staff-fixture.ts';

/**
 * The floor, live (decision 245) through HTTP on a real database: the host seats arriving
 * bookings and walk-ins, moves and finishes parties, and marks no-shows; every refusal that keeps
 * a table from being seated twice answers 409, another restaurant's party 404.
 */
setUpStaffFixture();

type Method = 'GET' | 'POST';
const at = (time: string) => t.clock.set(kolkataInstant(TODAY, time));
let tables: Record<string, string>;

async function confirmedBooking(time: string, partySize = 2): Promise<string> {
  t.clock.set('2026-11-23T04:30:00.000Z');
  const someone = await buildDiner(t.database.db);
  const held = await hold(someone.token, x.slug, TODAY, time, partySize);
  expect(held.statusCode, held.body).toBe(201);
  const id = held.json().id as string;
  expect((await call('POST', `/api/reservations/${id}/confirm`, someone.token, {})).statusCode).toBe(200);
  expect((await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'CONFIRMED' })).statusCode).toBe(200);
  return id;
}

const live = async (token = staffX.token) => (await call('GET', `/api/admin/floor/live?date=${TODAY}`, token)).json();
const tableState = async (name: string) => (await live()).tables.find((table: { name: string }) => table.name === name);
const send = (method: Method, url: string, token: string, payload?: object) => call(method, url, token, payload ?? {});

beforeAll(async () => {
  for (const time of ['18:00', '19:00', '19:30', '20:00', '20:30', '21:00']) await buildSlot(t.database.db, x.id, { date: TODAY, time, capacity: 20 });
  const saved = await call('PUT', '/api/admin/floor/tables', staffX.token, {
    tables: ['T1', 'T2', 'T3'].map((name) => ({ name, section: 'indoor', minCovers: 1, maxCovers: name === 'T3' ? 4 : 2, onlineBookable: true })),
    combinations: [],
  });
  expect(saved.statusCode, saved.body).toBe(200);
  tables = Object.fromEntries(saved.json().tables.map((table: { id: string; name: string }) => [table.name, table.id]));
});

describe('the floor, live', () => {
  it('answers 401 to everyone but staff, and nothing of another restaurant', async () => {
    for (const { token } of wrongKinds()) expect((await call('GET', '/api/admin/floor/live', token)).statusCode).toBe(401);
    const other = await live(staffY.token);
    expect(other).toMatchObject({ tables: [], parties: [] });
  });

  it('seats an arriving booking at its table; a second seat, or another party at that table, is refused with 409', async () => {
    const first = await confirmedBooking('18:00');
    const second = await confirmedBooking('18:00');
    at('18:05');
    expect((await tableState('T1')).state).toBe('late');
    const seated = await send('POST', `/api/admin/floor/live/bookings/${first}/seat`, staffX.token);
    expect(seated.statusCode, seated.body).toBe(200);
    expect(seated.json()).toMatchObject({ reservationId: first, status: 'SEATED', tableNames: ['T1'], seatedAt: kolkataInstant(TODAY, '18:05').toISOString() });
    at('18:30');
    expect(await tableState('T1')).toMatchObject({ state: 'seated', minutes: 25, turnMinutes: 75 });

    const again = await send('POST', `/api/admin/floor/live/bookings/${first}/seat`, staffX.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toContain('SEATED');
    const doubled = await send('POST', `/api/admin/floor/live/bookings/${second}/seat`, staffX.token, { tableIds: [tables.T1] });
    expect(doubled.statusCode).toBe(409);
    expect(doubled.json()).toEqual({ error: 'A party is seated at T1. Finish or move it first.' });
    // Refused as a whole: the second booking is still accepted, on its own table.
    expect((await call('GET', `/api/admin/bookings`, staffX.token)).json().bookings.find((b: { id: string }) => b.id === second).status).toBe('CONFIRMED');
    // Another restaurant's staff find nothing; a table that is not theirs is not found either.
    expect((await send('POST', `/api/admin/floor/live/bookings/${second}/seat`, staffY.token)).statusCode).toBe(404);
    const foreignTable = await send('POST', `/api/admin/floor/live/bookings/${second}/seat`, staffX.token, {
      tableIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(foreignTable.statusCode).toBe(404);
    // At another free table.
    const elsewhere = await send('POST', `/api/admin/floor/live/bookings/${second}/seat`, staffX.token, { tableIds: [tables.T3] });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    expect(elsewhere.json().tableNames).toEqual(['T3']);
    // The turn is over: to clear.
    at('19:25');
    expect(await tableState('T1')).toMatchObject({ state: 'toClear', minutes: 5 });
    for (const party of [seated.json(), elsewhere.json()]) {
      expect((await send('POST', `/api/admin/floor/live/parties/${party.assignmentId}/finish`, staffX.token)).json().status).toBe('COMPLETED');
    }
    expect((await tableState('T1')).state).toBe('free');
  });

  it('seats a walk-in at a free table for its turn (online availability drops), refusing a table booked within that turn', async () => {
    const booked = await confirmedBooking('21:00');
    const { tableNames } = (await live()).parties.find((party: { reservationId: string }) => party.reservationId === booked);
    const [other] = ['T1', 'T2'].filter((name) => name !== tableNames[0]);
    at('20:00');
    const refused = await send('POST', '/api/admin/floor/live/walk-ins', staffX.token, { tableIds: [tables[tableNames[0]]], partySize: 2 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(`${tableNames[0]} is taken within this party’s turn. Choose another table.`);

    const offered = async () =>
      (await call('GET', `/api/restaurants/${x.slug}/availability?date=${TODAY}&partySize=2`)).json().find((slot: { time: string }) => slot.time === '21:00')
        ?.available;
    // 21:00 for two: one two-top (and the four-top) free before the walk-ins.
    expect(await offered()).toBe(true);
    const walkIn = await send('POST', '/api/admin/floor/live/walk-ins', staffX.token, {
      tableIds: [tables[other]],
      partySize: 2,
      name: 'Ravi',
      phone: '+91 98450 12345',
    });
    expect(walkIn.statusCode, walkIn.body).toBe(201);
    expect(walkIn.json()).toMatchObject({ kind: 'walkIn', name: 'Ravi', partySize: 2, tableNames: [other], reservationId: null });
    const big = await send('POST', '/api/admin/floor/live/walk-ins', staffX.token, { tableIds: [tables.T3], partySize: 4 });
    expect(big.statusCode, big.body).toBe(201);
    expect(await offered()).toBe(false);
    expect((await send('POST', '/api/admin/floor/live/walk-ins', staffX.token, { tableIds: [tables.T3], partySize: 2 })).statusCode).toBe(409);
    expect((await send('POST', '/api/admin/floor/live/walk-ins', staffY.token, { tableIds: [tables.T1], partySize: 2 })).statusCode).toBe(409);
    expect((await send('POST', '/api/admin/floor/live/walk-ins', staffX.token, { tableIds: [tables.T1], partySize: 0 })).statusCode).toBe(400);

    // Finished early: the rest of the turn is offered to the waitlist first (slot.freed for each time left), and the table is free.
    const freed: string[] = [];
    const stop = t.app.deps.events.subscribe('slot.freed', (event) => freed.push(event.slotId));
    at('20:20');
    const finished = await send('POST', `/api/admin/floor/live/parties/${big.json().assignmentId}/finish`, staffX.token);
    stop();
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json()).toMatchObject({ finishedAt: kolkataInstant(TODAY, '20:20').toISOString(), endsAt: kolkataInstant(TODAY, '20:20').toISOString() });
    const slotTimes = await queryRows<{ slot_time: string }>(
      t.database.db,
      sql`SELECT slot_time FROM slots WHERE id = ANY (${`{${freed.join(',')}}`}::uuid[]) ORDER BY 1`,
    );
    expect(slotTimes.map((row) => row.slot_time)).toEqual(['20:30', '21:00']);
    expect((await tableState('T3')).state).toBe('free');
    expect(await offered()).toBe(true);
    expect((await send('POST', `/api/admin/floor/live/parties/${big.json().assignmentId}/finish`, staffX.token)).statusCode).toBe(409);
    expect((await send('POST', `/api/admin/floor/live/parties/${walkIn.json().assignmentId}/finish`, staffY.token)).statusCode).toBe(404);
  });

  it('moves a seated party to a free table, never onto one taken; finishes a booking as COMPLETED; marks a no-show after 15 minutes', async () => {
    const restaurant: BuiltRestaurant = await buildRestaurant(t.database.db, { name: 'Move Hall' });
    const staff: BuiltAccount = await buildStaff(t.database.db, restaurant.id);
    await buildSlot(t.database.db, restaurant.id, { date: TODAY, time: '19:00', capacity: 20 });
    const saved = await call('PUT', '/api/admin/floor/tables', staff.token, {
      tables: ['A', 'B'].map((name) => ({ name, section: 'terrace', minCovers: 1, maxCovers: 2, onlineBookable: true })),
      combinations: [],
    });
    const ids = Object.fromEntries(saved.json().tables.map((table: { id: string; name: string }) => [table.name, table.id]));
    t.clock.set('2026-11-23T04:30:00.000Z');
    const booking = async () => {
      const someone = await buildDiner(t.database.db);
      const id = (await hold(someone.token, restaurant.slug, TODAY, '19:00', 2)).json().id as string;
      await call('POST', `/api/reservations/${id}/confirm`, someone.token, {});
      await call('PATCH', `/api/admin/bookings/${id}`, staff.token, { status: 'CONFIRMED' });
      return id;
    };
    const [guest, noShow] = [await booking(), await booking()];
    at('19:05');
    const seated = (await send('POST', `/api/admin/floor/live/bookings/${guest}/seat`, staff.token, { tableIds: [ids.A] })).json();
    // B is the no-show's table for its turn: the move is refused until it is marked.
    const blocked = await send('POST', `/api/admin/floor/live/parties/${seated.assignmentId}/move`, staff.token, { tableIds: [ids.B] });
    expect(blocked.statusCode).toBe(409);
    expect((await send('POST', `/api/admin/floor/live/bookings/${noShow}/no-show`, staff.token)).statusCode).toBe(409);
    expect((await send('POST', `/api/admin/floor/live/bookings/${noShow}/no-show`, staffX.token)).statusCode).toBe(404);
    at('19:16');
    const marked = await send('POST', `/api/admin/floor/live/bookings/${noShow}/no-show`, staff.token);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().status).toBe('NO_SHOW');
    const [strike] = await queryRows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM no_show_strikes WHERE reservation_id = ${noShow}`);
    expect(strike.n).toBe(1);
    expect((await send('POST', `/api/admin/floor/live/parties/${seated.assignmentId}/move`, staffX.token, { tableIds: [tables.T1] })).statusCode).toBe(404);
    const moved = await send('POST', `/api/admin/floor/live/parties/${seated.assignmentId}/move`, staff.token, { tableIds: [ids.B] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ tableNames: ['B'], seatedAt: kolkataInstant(TODAY, '19:05').toISOString() });
    const done = await send('POST', `/api/admin/floor/live/parties/${seated.assignmentId}/finish`, staff.token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'COMPLETED', finishedAt: kolkataInstant(TODAY, '19:16').toISOString() });
    expect((await send('POST', `/api/admin/floor/live/parties/${seated.assignmentId}/move`, staff.token, { tableIds: [ids.A] })).statusCode).toBe(409);
  });

  it('a booking the host moved stays where it was put: a later hold does not re-pack it (decision 217)', async () => {
    const restaurant: BuiltRestaurant = await buildRestaurant(t.database.db, { name: 'Pinned Hall' });
    const staff: BuiltAccount = await buildStaff(t.database.db, restaurant.id);
    await buildSlot(t.database.db, restaurant.id, { date: TODAY, time: '21:00', capacity: 20 });
    const saved = await call('PUT', '/api/admin/floor/tables', staff.token, {
      tables: [
        { name: 'A', section: 'indoor', minCovers: 1, maxCovers: 2, onlineBookable: true },
        { name: 'B', section: 'indoor', minCovers: 2, maxCovers: 4, onlineBookable: true },
      ],
      combinations: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const ids = Object.fromEntries(saved.json().tables.map((table: { id: string; name: string }) => [table.name, table.id]));
    t.clock.set('2026-11-23T04:30:00.000Z');
    const couple = async () => {
      const someone = await buildDiner(t.database.db);
      const held = await hold(someone.token, restaurant.slug, TODAY, '21:00', 2);
      expect(held.statusCode, held.body).toBe(201);
      return { id: held.json().id as string, token: someone.token };
    };
    const [first, second] = [await couple(), await couple()];
    // The first couple sat on A, the second on B; the first cancels, so a party of four could sit on B were the second moved to A.
    expect((await call('POST', `/api/reservations/${first.id}/cancel`, first.token, {})).statusCode).toBe(200);
    const dayParties = async () =>
      (await call('GET', `/api/admin/floor/live?date=${TODAY}`, staff.token)).json().parties as {
        assignmentId: string;
        reservationId: string;
        tableNames: string[];
      }[];
    const party = (await dayParties()).find((entry) => entry.reservationId === second.id)!;
    expect(party.tableNames).toEqual(['B']);
    // The host puts the second couple on B by hand.
    const moved = await send('POST', `/api/admin/floor/live/parties/${party.assignmentId}/move`, staff.token, { tableIds: [ids.B] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await hold((await buildDiner(t.database.db)).token, restaurant.slug, TODAY, '21:00', 4)).statusCode).toBe(409);
    expect((await dayParties()).find((entry) => entry.reservationId === second.id)?.tableNames).toEqual(['B']);
  });
});
