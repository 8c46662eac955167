import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { waitFor } from '#server/test/eventually.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp, TEST_TODAY as DATE } from '#server/test/app.ts';
import {
  buildDiner,
  buildRestaurant,
  buildSlot,
  buildStaff,
  coversHeld,
  recordNoShows,
  type BuiltAccount,
  type BuiltRestaurant,
} from '#server/test/factories.ts';
import { MINUTE_MS } from '#common/domain/time.ts';

/**
 * The waitlist holds a freed table for one diner at a time: cancel a booking and the
 * longest-waiting matching entry gets a HELD offer at once (by event, measured in real time);
 * if the offer lapses the next one gets it; entries that do not match are passed over.
 */
let t: TestApp;
let restaurant: BuiltRestaurant;
let staffToken: string;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  restaurant = await buildRestaurant(t.database.db);
  staffToken = (await buildStaff(t.database.db, restaurant.id)).token;
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

function call(method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
}

async function book(diner: BuiltAccount, time: string, partySize: number, date = DATE) {
  const held = await call('POST', '/api/reservations', diner.token, { restaurantSlug: restaurant.slug, date, time, partySize });
  expect(held.statusCode, held.body).toBe(201);
  const id = held.json().id as string;
  expect((await call('POST', `/api/reservations/${id}/confirm`, diner.token, {})).statusCode).toBe(200);
  return id;
}

function join(diner: BuiltAccount, body: Partial<{ date: string; partySize: number; windowStart: string; windowEnd: string }> = {}) {
  return call('POST', '/api/waitlist', diner.token, {
    restaurantSlug: restaurant.slug,
    date: DATE,
    partySize: 2,
    windowStart: '18:00',
    windowEnd: '20:00',
    ...body,
  });
}

async function joined(diner: BuiltAccount, body: Parameters<typeof join>[1] = {}) {
  const response = await join(diner, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

async function myWaitlist(diner: BuiltAccount) {
  const response = await call('GET', '/api/waitlist', diner.token);
  expect(response.statusCode).toBe(200);
  return response.json() as {
    entries: { id: string; state: string; placeInLine: number | null; offer: { reservationId: string; holdExpiresAt: string | null } | null }[];
    offers: { id: string }[];
  };
}

async function stateOf(diner: BuiltAccount, entryId: string) {
  return (await myWaitlist(diner)).entries.find((entry) => entry.id === entryId)!;
}

/** Opens the diner's live stream over real HTTP and collects its events. */
async function openStream(token: string) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/me/events`, { headers: bearer(token), signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const events: { event: string; data: unknown }[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted
    }
  })();
  return { events, close: () => controller.abort() };
}

describe('the waitlist', () => {
  it('offers a cancelled table to the longest-waiting match within 2 s, skipping entries that do not match; a lapsed offer goes to the next', async () => {
    const slot = await buildSlot(t.database.db, restaurant.id, { date: DATE, time: '19:00', capacity: 4 });
    await buildSlot(t.database.db, restaurant.id, { date: '2026-11-24', time: '19:00', capacity: 4 });
    const [x, y] = [await buildDiner(t.database.db), await buildDiner(t.database.db)];
    const xBooking = await book(x, '19:00', 2);
    await book(y, '19:00', 2);
    // Joined in this order: the first three do not match what will be freed (2 covers at 19:00 on DATE).
    const [tooBig, outside, otherDate, first, second] = await Promise.all(Array.from({ length: 5 }, () => buildDiner(t.database.db)));
    const tooBigEntry = await joined(tooBig, { partySize: 3 });
    t.clock.advance(1_000);
    const outsideEntry = await joined(outside, { windowStart: '20:30', windowEnd: '22:00' });
    t.clock.advance(1_000);
    await book(await buildDiner(t.database.db), '19:00', 4, '2026-11-24');
    const otherDateEntry = await joined(otherDate, { date: '2026-11-24' });
    t.clock.advance(1_000);
    const firstEntry = await joined(first);
    t.clock.advance(1_000);
    const secondEntry = await joined(second);
    expect(await stateOf(first, firstEntry)).toMatchObject({ state: 'waiting', placeInLine: 3, offer: null });

    const stream = await openStream(first.token);
    // X cancels: the first matching waiter gets a HELD offer, by event, within 2 seconds of real time.
    const cancelledAt = Date.now();
    expect((await call('POST', `/api/reservations/${xBooking}/cancel`, x.token, {})).statusCode).toBe(200);
    await waitFor(async () => (await stateOf(first, firstEntry)).state === 'offered', 2_000, 'the first matching waiter to be offered the table');
    expect(Date.now() - cancelledAt).toBeLessThan(2_000);

    const offered = await myWaitlist(first);
    expect(offered.offers.map((entry) => entry.id)).toEqual([firstEntry]);
    const offer = offered.entries[0].offer!;
    expect(offer.holdExpiresAt).toBe(new Date(Date.parse(TEST_NOW) + 4_000 + 10 * MINUTE_MS).toISOString());
    const reservation = await call('GET', `/api/reservations/${offer.reservationId}`, first.token);
    expect(reservation.json()).toMatchObject({ status: 'HELD', partySize: 2, slot: { date: DATE, time: '19:00' } });
    expect(await coversHeld(t.database.db, slot.id, t.clock.now())).toBe(4);
    // The others are untouched; the second waits as number 1 among those still waiting behind the non-matching ones.
    for (const [diner, entry] of [
      [tooBig, tooBigEntry],
      [outside, outsideEntry],
      [otherDate, otherDateEntry],
      [second, secondEntry],
    ] as const) {
      expect((await stateOf(diner, entry)).state).toBe('waiting');
    }
    // The offer reached the diner live and by email (outbox; the dev mailbox shows it without SMTP).
    await waitFor(async () => stream.events.some((e) => e.event === 'offer'), 2_000, 'the offer event on the stream');
    expect(stream.events.find((e) => e.event === 'offer')!.data).toMatchObject({
      type: 'offer',
      source: 'waitlist',
      reservationId: offer.reservationId,
      waitlistEntryId: firstEntry,
      time: '19:00',
    });
    stream.close();
    const [mail] = await queryRows<{ recipient: string; subject: string; body: string }>(
      t.database.db,
      sql`SELECT recipient, subject, body FROM outbox_messages WHERE user_id = ${first.id} AND channel = 'email'`,
    );
    expect(mail.recipient).toBe(`${first.username}@example.com`);
    expect(mail.subject).toBe(`A table at ${restaurant.name} is yours for 10 minutes`);
    expect(mail.body).toContain('7:00 PM');
    const mailbox = await call('GET', `/api/dev/mailbox?recipient=${encodeURIComponent(mail.recipient)}`, first.token);
    expect(mailbox.json().messages[0].subject).toBe(mail.subject);

    // The offer lapses: after the sweep, the next matching waiter has it.
    t.clock.advance(10 * MINUTE_MS);
    await t.app.services.reservations.expireDueHolds();
    await t.app.services.waitlist.runDueWork();
    expect((await stateOf(first, firstEntry)).state).toBe('lapsed');
    const next = await stateOf(second, secondEntry);
    expect(next.state).toBe('offered');
    expect((await call('POST', `/api/reservations/${next.offer!.reservationId}/confirm`, second.token, {})).statusCode).toBe(200);
    expect((await stateOf(second, secondEntry)).state).toBe('booked');
    expect((await stateOf(tooBig, tooBigEntry)).state).toBe('waiting');
    expect(await coversHeld(t.database.db, slot.id, t.clock.now())).toBe(4);
  });

  it('offers a table staff add to a waiter whose window it falls in', async () => {
    const diner = await buildDiner(t.database.db);
    const entry = await joined(diner, { date: '2026-11-25', windowStart: '22:00', windowEnd: '23:00', partySize: 4 });
    const added = await call('POST', '/api/admin/slots/bulk', staffToken, { date: '2026-11-25', start: '22:30', end: '23:00', interval: 30, capacity: 4 });
    expect(added.statusCode, added.body).toBe(201);
    await waitFor(async () => (await stateOf(diner, entry)).state === 'offered', 2_000, 'the new slot to be offered');
  });

  it('lets a diner let an offer go by leaving, and the next waiter gets it', async () => {
    await buildSlot(t.database.db, restaurant.id, { date: '2026-11-26', time: '19:30', capacity: 2 });
    const holder = await buildDiner(t.database.db);
    const booking = await book(holder, '19:30', 2, '2026-11-26');
    const [a, b] = [await buildDiner(t.database.db), await buildDiner(t.database.db)];
    const aEntry = await joined(a, { date: '2026-11-26' });
    t.clock.advance(1_000);
    const bEntry = await joined(b, { date: '2026-11-26' });
    expect((await call('POST', `/api/reservations/${booking}/cancel`, holder.token, {})).statusCode).toBe(200);
    await waitFor(async () => (await stateOf(a, aEntry)).state === 'offered', 2_000, 'a to be offered');
    const left = await call('DELETE', `/api/waitlist/${aEntry}`, a.token);
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json().state).toBe('removed');
    await waitFor(async () => (await stateOf(b, bEntry)).state === 'offered', 2_000, 'b to be offered after a let it go');
    // Another diner's entry is not found; a second leave is refused.
    expect((await call('DELETE', `/api/waitlist/${bEntry}`, a.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/waitlist/${aEntry}`, a.token)).json()).toEqual({ error: 'You have already left this waitlist' });
  });

  it('refuses joining when a table is free, twice for one date, past dates and backwards windows', async () => {
    await buildSlot(t.database.db, restaurant.id, { date: '2026-11-27', time: '19:00', capacity: 4 });
    const diner = await buildDiner(t.database.db);
    const free = await join(diner, { date: '2026-11-27' });
    expect(free.statusCode).toBe(409);
    expect(free.json()).toEqual({ error: 'A table for 2 is free at 7:00 PM on that date. Book it instead of waiting.' });
    expect((await join(diner, { date: '2026-11-28' })).statusCode).toBe(201);
    expect((await join(diner, { date: '2026-11-28' })).json()).toEqual({ error: 'You are already on the waitlist for that restaurant on that date' });
    expect((await join(diner, { date: '2026-11-20' })).json()).toEqual({ error: 'date must not be in the past' });
    expect((await join(diner, { date: '2026-11-29', windowStart: '21:00', windowEnd: '19:00' })).json()).toEqual({
      error: 'windowEnd must be at or after windowStart',
    });
    expect((await join(diner, { windowStart: '25:00' })).statusCode).toBe(400);
    expect(
      (await call('POST', '/api/waitlist', staffToken, { restaurantSlug: restaurant.slug, date: DATE, partySize: 2, windowStart: '18:00', windowEnd: '20:00' }))
        .statusCode,
    ).toBe(401);
    expect((await call('GET', '/api/waitlist')).statusCode).toBe(401);
  });

  it('refuses a diner with three no-shows (403, the block named) and passes a waiter struck since joining over for the offer, keeping their place (decision 202)', async () => {
    const [struck, waiting, next] = [await buildDiner(t.database.db), await buildDiner(t.database.db), await buildDiner(t.database.db)];
    await recordNoShows(t.database.db, struck, 3);
    const refused = await join(struck, { date: '2026-11-30' });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error).toMatch(/^You have 3 no-shows in the last 365 days, so new bookings and drop entries are paused until /);
    expect((await myWaitlist(struck)).entries.filter((entry) => entry.state !== 'removed')).toEqual([]);

    // Joined while in good standing, struck out before a table frees: the next in line gets it.
    await buildSlot(t.database.db, restaurant.id, { date: '2026-11-30', time: '19:00', capacity: 2 });
    const holder = await buildDiner(t.database.db);
    const booking = await book(holder, '19:00', 2, '2026-11-30');
    const waitingEntry = await joined(waiting, { date: '2026-11-30' });
    t.clock.advance(1_000);
    const nextEntry = await joined(next, { date: '2026-11-30' });
    await recordNoShows(t.database.db, waiting, 3);
    expect((await call('POST', `/api/reservations/${booking}/cancel`, holder.token, {})).statusCode).toBe(200);
    await waitFor(async () => (await stateOf(next, nextEntry)).state === 'offered', 2_000, 'the next waiter to be offered the table');
    expect(await stateOf(waiting, waitingEntry)).toMatchObject({ state: 'waiting', offer: null });
  });
});
