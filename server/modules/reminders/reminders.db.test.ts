import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { formatDateShort, formatTime12h, HOUR_MS, MINUTE_MS } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { bearer, createTestApp, requestHold, TEST_NOW, TEST_TOMORROW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildStaff, eveningSlots, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';
import { setRemindersOff } from './reminders.repository.ts';

/**
 * Reminders with the injectable clock: sent at 24 h and 2 h before the start and not a second
 * earlier, once, never after a cancel, skipped when booked inside the window, and once with two
 * instances sweeping the same database at the same time. "Now" starts at 10:00 in Kolkata on the
 * 23rd; every reservation is for the evening of the 24th.
 */
let t: TestApp;
let other: TestApp;
let restaurant: BuiltRestaurant;

beforeAll(async () => {
  t = await createTestApp();
  // A second instance of the app on the same database, as N instances run in production.
  other = await createTestApp({ database: t.database });
  restaurant = await buildRestaurant(t.database.db, { name: 'Reminder Rasoi' });
});
afterAll(async () => {
  await other.app.close();
  await t.close();
});
beforeEach(() => setNow(TEST_NOW));

function setNow(instant: Date | string) {
  t.clock.set(instant);
  other.clock.set(instant);
}

const nextSlot = eveningSlots(() => t.database.db, TEST_TOMORROW);
/** A fresh slot tomorrow evening (each its own time) and its start instant. */
const freshSlot = (at: BuiltRestaurant = restaurant) => nextSlot(at.id);

/** A confirmed reservation booked at the clock's current instant. */
async function book(time: string, diner?: BuiltAccount, at: BuiltRestaurant = restaurant) {
  const who = diner ?? (await buildDiner(t.database.db));
  const held = await requestHold(t.app, who.token, { restaurantSlug: at.slug, date: TEST_TOMORROW, time, partySize: 2 });
  expect(held.statusCode, held.body).toBe(201);
  const id = held.json<{ id: string }>().id;
  const confirmed = await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/confirm`, headers: bearer(who.token) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { id, diner: who };
}

async function remindersTo(userId: string, channel: 'email' | 'sms' = 'email') {
  return queryRows<{ subject: string; body: string; created_at: Date | string }>(
    t.database.db,
    sql`SELECT subject, body, created_at FROM outbox_messages WHERE user_id = ${userId} AND channel = ${channel} AND body LIKE 'Reminder from Tablefair%' ORDER BY created_at`,
  );
}

describe('reminders before a reservation', () => {
  it('goes out 24 hours and 2 hours before the start, not a second earlier, and each once', async () => {
    const { time, startsAt } = await freshSlot();
    const { diner } = await book(time);
    expect(await t.app.services.reminders.sendDue()).toBe(0);

    setNow(new Date(startsAt.getTime() - 24 * HOUR_MS - 1000));
    await t.app.services.reminders.sendDue();
    expect(await remindersTo(diner.id)).toHaveLength(0);

    setNow(new Date(startsAt.getTime() - 24 * HOUR_MS));
    await t.app.services.reminders.sendDue();
    const first = await remindersTo(diner.id);
    expect(first).toHaveLength(1);
    expect(first[0].subject).toBe(`Reminder: Reminder Rasoi tomorrow at ${formatTime12h(time)}`);
    expect(first[0].body).toContain(`${formatDateShort(TEST_TOMORROW)} at ${formatTime12h(time)}, for 2 guests`);

    // Sweeps later inside the same window, as a restart would run them, send nothing more.
    setNow(new Date(startsAt.getTime() - 3 * HOUR_MS));
    await t.app.services.reminders.sendDue();
    await other.app.services.reminders.sendDue();
    expect(await remindersTo(diner.id)).toHaveLength(1);

    setNow(new Date(startsAt.getTime() - 2 * HOUR_MS - 1000));
    await t.app.services.reminders.sendDue();
    expect(await remindersTo(diner.id)).toHaveLength(1);

    setNow(new Date(startsAt.getTime() - 2 * HOUR_MS));
    await t.app.services.reminders.sendDue();
    const both = await remindersTo(diner.id);
    expect(both.map((message) => message.subject)).toEqual([
      `Reminder: Reminder Rasoi tomorrow at ${formatTime12h(time)}`,
      `Reminder: Reminder Rasoi in 2 hours at ${formatTime12h(time)}`,
    ]);
    expect(new Date(both[1].created_at).getTime()).toBe(startsAt.getTime() - 2 * HOUR_MS);

    setNow(new Date(startsAt.getTime() + MINUTE_MS));
    await t.app.services.reminders.sendDue();
    expect(await remindersTo(diner.id)).toHaveLength(2);
  });

  it('skips the 24-hour reminder of a booking made inside that window, and sends the 2-hour one', async () => {
    const { time, startsAt } = await freshSlot();
    setNow(new Date(startsAt.getTime() - 5 * HOUR_MS));
    const { diner } = await book(time);
    await t.app.services.reminders.sendDue();
    expect(await remindersTo(diner.id)).toHaveLength(0);

    setNow(new Date(startsAt.getTime() - 2 * HOUR_MS));
    await t.app.services.reminders.sendDue();
    expect((await remindersTo(diner.id)).map((message) => message.subject)).toEqual([`Reminder: Reminder Rasoi in 2 hours at ${formatTime12h(time)}`]);
  });

  it('a sweep that comes late sends only the nearest reminder, not a stale 24-hour one as well', async () => {
    const { time, startsAt } = await freshSlot();
    const { diner } = await book(time);
    setNow(new Date(startsAt.getTime() - HOUR_MS));
    await t.app.services.reminders.sendDue();
    expect((await remindersTo(diner.id)).map((message) => message.subject)).toEqual([`Reminder: Reminder Rasoi in 2 hours at ${formatTime12h(time)}`]);
  });

  it('sends nothing after the diner cancels', async () => {
    const { time, startsAt } = await freshSlot();
    const { id, diner } = await book(time);
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/cancel`, headers: bearer(diner.token) });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    for (const before of [24 * HOUR_MS, 2 * HOUR_MS]) {
      setNow(new Date(startsAt.getTime() - before));
      await t.app.services.reminders.sendDue();
    }
    expect(await remindersTo(diner.id)).toHaveLength(0);
  });

  it('sends nothing for a restaurant that turned reminders off', async () => {
    const quiet = await buildRestaurant(t.database.db, { name: 'Quiet Corner' });
    await setRemindersOff(t.database.db, quiet.id, true, t.clock.now());
    const { time, startsAt } = await freshSlot(quiet);
    const { diner } = await book(time, undefined, quiet);
    setNow(new Date(startsAt.getTime() - 2 * HOUR_MS));
    expect(await t.app.services.reminders.sendDue()).toBe(0);
    expect(await remindersTo(diner.id)).toHaveLength(0);
  });

  it('staff turn reminders off and on for their own restaurant only; diners may not', async () => {
    const own = await buildRestaurant(t.database.db, { name: 'Setting Cafe' });
    const staff = await buildStaff(t.database.db, own.id);
    const diner = await buildDiner(t.database.db);
    const read = (token: string) => t.app.inject({ method: 'GET', url: '/api/admin/reminders', headers: bearer(token) });
    const write = (token: string, remindersOn: boolean) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/reminders', headers: bearer(token), payload: { remindersOn } });
    expect((await read(staff.token)).json()).toEqual({ remindersOn: true });
    const off = await write(staff.token, false);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ remindersOn: false });

    const { time, startsAt } = await freshSlot(own);
    const booked = await book(time, undefined, own);
    setNow(new Date(startsAt.getTime() - 2 * HOUR_MS));
    await t.app.services.reminders.sendDue();
    expect(await remindersTo(booked.diner.id)).toHaveLength(0);

    // A diner token is not a staff credential here (401, as on every admin route).
    expect((await write(diner.token, true)).statusCode).toBe(401);
    expect((await write(staff.token, true)).json()).toEqual({ remindersOn: true });
    await t.app.services.reminders.sendDue();
    expect(await remindersTo(booked.diner.id)).toHaveLength(1);
  });

  it('texts a diner with a verified phone as well as emailing them', async () => {
    const { time, startsAt } = await freshSlot();
    const diner = await buildDiner(t.database.db);
    await t.database.db.execute(sql`UPDATE users SET verified_phone = '+919876500016', phone_verified_at = now() WHERE id = ${diner.id}`);
    await book(time, diner);
    setNow(new Date(startsAt.getTime() - 2 * HOUR_MS));
    await t.app.services.reminders.sendDue();
    const texts = await remindersTo(diner.id, 'sms');
    expect(texts).toHaveLength(1);
    expect(texts[0].body).toContain('Reminder Rasoi is in 2 hours');
    expect(await remindersTo(diner.id)).toHaveLength(1);
  });

  it('two instances sweeping at the same moment send each of 20 reminders exactly once', async () => {
    const { time, startsAt } = await freshSlot();
    const diners: string[] = [];
    for (let i = 0; i < 20; i++) diners.push((await book(time)).diner.id);
    setNow(new Date(startsAt.getTime() - 24 * HOUR_MS));
    const queued = await Promise.all([
      t.app.services.reminders.sendDue(),
      other.app.services.reminders.sendDue(),
      t.app.services.reminders.sendDue(),
      other.app.services.reminders.sendDue(),
    ]);
    // Every claim the four sweeps report is a distinct row, and each diner has one email.
    const [{ rows }] = await queryRows<{ rows: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS rows FROM reservation_reminders WHERE queued_at = ${t.clock.now().toISOString()}`,
    );
    expect(queued.reduce((sum, count) => sum + count, 0)).toBe(rows);
    expect(rows).toBeGreaterThanOrEqual(20);
    for (const userId of diners) expect(await remindersTo(userId)).toHaveLength(1);
  });
});
