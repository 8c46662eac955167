import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '#server/db/client.ts';
import { buildVerifiedDiner, createDrop, enterDrop } from '#server/modules/drops/drops.test-support.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, SUNDAY_DROP, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';
import type { DisputeUpheld } from './strikes.service.ts';

/**
 * No-show strikes through HTTP on a real database (decision 122): recorded with the NO_SHOW,
 * three in 365 days block holds and drop entries until a named day, disputes within 14 days,
 * resolved once by the restaurant. "Now" starts at 10:00 Kolkata on Mon 2026-11-23.
 */
let t: TestApp;
let dataDir: string;
let x: BuiltRestaurant;
let y: BuiltRestaurant;
let staffX: BuiltAccount;
let staffY: BuiltAccount;
let slotCounter = 0;
const upheld: DisputeUpheld[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tablefair-strikes-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  x = await buildRestaurant(t.database.db, { name: 'Strike Kitchen' });
  y = await buildRestaurant(t.database.db, { name: 'Elsewhere' });
  staffX = await buildStaff(t.database.db, x.id);
  staffY = await buildStaff(t.database.db, y.id);
  t.app.services.strikes.onDisputeUpheld((event) => upheld.push(event));
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function call(method: 'GET' | 'POST' | 'PATCH', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
}

/** A CONFIRMED booking of `diner` at X that started an hour before the clock's now (so a no-show may be marked). */
async function startedBooking(diner: BuiltAccount): Promise<string> {
  const startsAt = new Date(t.clock.now().getTime() - 60 * 60_000 - slotCounter++ * 60_000);
  const kolkata = new Date(startsAt.getTime() + 330 * 60_000).toISOString();
  const slot = await buildSlot(t.database.db, x.id, { date: kolkata.slice(0, 10), time: kolkata.slice(11, 16) });
  const [row] = await queryRows<{ id: string }>(
    t.database.db,
    sql`INSERT INTO reservations (user_id, restaurant_id, slot_id, party_size, status, starts_at, created_at)
        VALUES (${diner.id}, ${x.id}, ${slot.id}, 2, 'CONFIRMED', ${startsAt.toISOString()}, ${startsAt.toISOString()}) RETURNING id`,
  );
  return row.id;
}

async function noShow(diner: BuiltAccount): Promise<string> {
  const id = await startedBooking(diner);
  const response = await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'NO_SHOW' });
  expect(response.statusCode, response.body).toBe(200);
  return id;
}

async function strikesOf(diner: BuiltAccount) {
  const response = await call('GET', '/api/me/strikes', diner.token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function strikeRows(reservationId: string) {
  return queryRows<{ id: string }>(t.database.db, sql`SELECT id FROM no_show_strikes WHERE reservation_id = ${reservationId}`);
}

describe('recording strikes', () => {
  it('records one strike with each no-show, and none for any other move', async () => {
    const diner = await buildDiner(t.database.db);
    const noShown = await noShow(diner);
    expect(await strikeRows(noShown)).toHaveLength(1);
    const seated = await startedBooking(diner);
    expect((await call('PATCH', `/api/admin/bookings/${seated}`, staffX.token, { status: 'SEATED' })).statusCode).toBe(200);
    expect(await strikeRows(seated)).toHaveLength(0);
    const mine = await strikesOf(diner);
    expect(mine).toMatchObject({ limit: 3, windowDays: 365, blockedUntil: null, blockMessage: null });
    expect(mine.strikes).toHaveLength(1);
    expect(mine.strikes[0]).toMatchObject({ restaurant: { name: 'Strike Kitchen' }, canDispute: true, dispute: null, counts: true });
  });

  it('can never turn a cancelled booking into a no-show (409, no strike)', async () => {
    const diner = await buildDiner(t.database.db);
    const id = await startedBooking(diner);
    expect((await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'CANCELLED' })).statusCode).toBe(200);
    const response = await call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: 'NO_SHOW' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatch(/CANCELLED/);
    expect(await strikeRows(id)).toHaveLength(0);
  });

  it('lets exactly one of "no-show" and "seated" pressed at once win, with a strike only if the no-show did', async () => {
    const diner = await buildDiner(t.database.db);
    const otherStaff = await buildStaff(t.database.db, x.id);
    for (let round = 0; round < 6; round++) {
      const id = await startedBooking(diner);
      const [first, second] = round % 2 === 0 ? (['NO_SHOW', 'SEATED'] as const) : (['SEATED', 'NO_SHOW'] as const);
      const answers = await Promise.all([
        call('PATCH', `/api/admin/bookings/${id}`, staffX.token, { status: first }),
        call('PATCH', `/api/admin/bookings/${id}`, otherStaff.token, { status: second }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const winner = answers[0].statusCode === 200 ? first : second;
      const [row] = await queryRows<{ status: string }>(t.database.db, sql`SELECT status FROM reservations WHERE id = ${id}`);
      expect(row.status).toBe(winner);
      expect(await strikeRows(id)).toHaveLength(winner === 'NO_SHOW' ? 1 : 0);
    }
  });
});

describe('the block', () => {
  it('refuses holds and drop entries at the third strike, names the day it lifts, and lifts then', async () => {
    t.clock.set(TEST_NOW);
    const diner = await buildVerifiedDiner(t.database.db);
    await buildSlot(t.database.db, y.id, { date: '2026-11-25', time: '20:00' });
    const dropId = await createDrop(t, staffY.token, SUNDAY_DROP);
    for (let strike = 0; strike < 2; strike++) await noShow(diner);
    expect((await strikesOf(diner)).blockedUntil).toBeNull();
    await noShow(diner);

    const expected =
      'You have 3 no-shows in the last 365 days, so new bookings and drop entries are paused until Tue, 23 Nov 2027. If a no-show was a mistake, dispute it from your account page.';
    const refusedHold = await call('POST', '/api/reservations', diner.token, { restaurantSlug: y.slug, date: '2026-11-25', time: '20:00', partySize: 2 });
    expect(refusedHold.statusCode).toBe(403);
    expect(refusedHold.json().error).toBe(expected);
    const refusedEntry = await enterDrop(t, diner.token, dropId);
    expect(refusedEntry.statusCode).toBe(403);
    expect(refusedEntry.json().error).toBe(expected);
    expect(await strikesOf(diner)).toMatchObject({ blockedUntil: '2027-11-23T04:30:00.000Z', blockMessage: expected });

    // Another diner is not blocked.
    const other = await buildVerifiedDiner(t.database.db);
    expect((await enterDrop(t, other.token, dropId)).statusCode).toBe(201);

    // A year on, the strikes age out and the block lifts.
    t.clock.set('2027-11-23T04:30:00.000Z');
    await buildSlot(t.database.db, y.id, { date: '2027-11-25', time: '20:00' });
    const hold = await call('POST', '/api/reservations', diner.token, { restaurantSlug: y.slug, date: '2027-11-25', time: '20:00', partySize: 2 });
    expect(hold.statusCode, hold.body).toBe(201);
    expect((await strikesOf(diner)).blockedUntil).toBeNull();
    t.clock.set(TEST_NOW);
  });
});

describe('disputes', () => {
  it('lets the diner dispute their own strike once, within 14 days, with a reason kept as typed', async () => {
    t.clock.set(TEST_NOW);
    const diner = await buildDiner(t.database.db);
    const stranger = await buildDiner(t.database.db);
    await noShow(diner);
    const [strike] = (await strikesOf(diner)).strikes;
    expect(strike.disputeUntil).toBe('2026-12-07T04:30:00.000Z');

    expect((await call('POST', `/api/me/strikes/${strike.id}/dispute`, stranger.token, { reason: 'Not me' })).statusCode).toBe(404);
    expect((await call('POST', `/api/me/strikes/${strike.id}/dispute`, staffX.token, { reason: 'Not me' })).statusCode).toBe(401);
    const blank = await call('POST', `/api/me/strikes/${strike.id}/dispute`, diner.token, { reason: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe('reason: say what happened');
    expect((await call('POST', `/api/me/strikes/${strike.id}/dispute`, diner.token, { reason: 'x'.repeat(1001) })).statusCode).toBe(400);

    const reason = 'I was there at 8 <b>sharp</b> & the host said "no booking"';
    const disputed = await call('POST', `/api/me/strikes/${strike.id}/dispute`, diner.token, { reason });
    expect(disputed.statusCode, disputed.body).toBe(200);
    expect(disputed.json().strikes[0]).toMatchObject({ canDispute: false, dispute: { status: 'open', reason, resolvedAt: null } });
    const again = await call('POST', `/api/me/strikes/${strike.id}/dispute`, diner.token, { reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This strike has already been disputed');

    // A strike 14 days old can no longer be disputed.
    await noShow(diner);
    const fresh = (await strikesOf(diner)).strikes.find((candidate: { dispute: unknown }) => candidate.dispute === null);
    t.clock.advance(14 * 86_400_000);
    expect((await strikesOf(diner)).strikes.every((candidate: { canDispute: boolean }) => !candidate.canDispute)).toBe(true);
    const late = await call('POST', `/api/me/strikes/${fresh.id}/dispute`, diner.token, { reason: 'Late' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('A strike can be disputed for 14 days; this one closed on Mon, 7 Dec');
    t.clock.set(TEST_NOW);
  });

  it('is resolved once by the restaurant: upheld removes the strike (and tells its listeners), rejected keeps it', async () => {
    t.clock.set(TEST_NOW);
    const diner = await buildDiner(t.database.db, { name: 'Meera Iyer' });
    const first = await noShow(diner);
    const second = await noShow(diner);
    const third = await noShow(diner);
    expect((await strikesOf(diner)).blockedUntil).not.toBeNull();
    for (const strike of (await strikesOf(diner)).strikes.slice(0, 2)) {
      expect((await call('POST', `/api/me/strikes/${strike.id}/dispute`, diner.token, { reason: 'I cancelled by phone' })).statusCode).toBe(200);
    }
    const disputes = (await call('GET', '/api/admin/strike-disputes', staffX.token)).json() as { id: string; reservationId: string; status: string }[];
    const mine = disputes.filter((dispute) => [first, second, third].includes(dispute.reservationId));
    expect(mine).toHaveLength(2);
    expect(mine.every((dispute) => dispute.status === 'open')).toBe(true);
    expect((await call('GET', '/api/admin/strike-disputes', staffY.token)).json()).toEqual([]);
    expect((await call('GET', '/api/admin/strike-disputes', diner.token)).statusCode).toBe(401);

    const [toUphold, toReject] = mine;
    expect((await call('PATCH', `/api/admin/strike-disputes/${toUphold.id}`, staffY.token, { outcome: 'uphold' })).statusCode).toBe(404);
    expect((await call('PATCH', `/api/admin/strike-disputes/${toUphold.id}`, staffX.token, { outcome: 'maybe' })).statusCode).toBe(400);
    const rejected = await call('PATCH', `/api/admin/strike-disputes/${toReject.id}`, staffX.token, { outcome: 'reject' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ status: 'rejected', diner: { name: 'Meera Iyer' } });
    expect((await strikesOf(diner)).blockedUntil).not.toBeNull();

    const upheldAnswer = await call('PATCH', `/api/admin/strike-disputes/${toUphold.id}`, staffX.token, { outcome: 'uphold' });
    expect(upheldAnswer.statusCode, upheldAnswer.body).toBe(200);
    expect(upheldAnswer.json().status).toBe('upheld');
    expect(upheld).toContainEqual(expect.objectContaining({ disputeId: toUphold.id, reservationId: toUphold.reservationId, userId: diner.id }));
    const after = await strikesOf(diner);
    expect(after.blockedUntil).toBeNull();
    expect(after.strikes.filter((strike: { counts: boolean }) => !strike.counts)).toHaveLength(1);

    const twice = await call('PATCH', `/api/admin/strike-disputes/${toUphold.id}`, staffX.token, { outcome: 'reject' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('This dispute was already upheld');
  });
});
