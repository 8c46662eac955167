import ICAL from 'ical.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ReminderLinkView } from '#common/contract/reminders.ts';
import { queryRows } from '#server/db/client.ts';
import { waitFor } from '#server/test/eventually.ts';
import { signBytes } from '#server/signing.ts';
import { bearer, createTestApp, requestHold, TEST_NOW, TEST_TOMORROW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildStaff, eveningSlots, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';
import { LINK_NOT_VALID } from './reminders.service.ts';
import { HOUR_MS, MINUTE_MS } from '#common/domain/time.ts';

/**
 * The reminder's one-tap links and the calendar file (decisions 151–153), through HTTP
 * with the injectable clock: opening a link changes nothing, one tap answers once, a tampered,
 * expired or reused link changes nothing, a release inside the 2-hour notice hands the table to
 * the waitlist, and staff see who answered. "Now" starts at 10:00 in Kolkata on the 23rd.
 */
let t: TestApp;
let restaurant: BuiltRestaurant;
let staff: BuiltAccount;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://tablefair.example', PAYMENTS_WEBHOOK_SECRET: 'test-webhook-secret-0123456789' } });
  restaurant = await buildRestaurant(t.database.db, { name: 'Link Bhavan' });
  staff = await buildStaff(t.database.db, restaurant.id);
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

const nextSlot = eveningSlots(() => t.database.db, TEST_TOMORROW);
/** A fresh slot tomorrow evening, with room for `capacity` covers. */
const freshSlot = (capacity = 40, at: BuiltRestaurant = restaurant) => nextSlot(at.id, capacity);

/** A reservation the diner confirmed and the restaurant accepted (CONFIRMED), booked at the clock's instant. */
async function bookAccepted(time: string, diner?: BuiltAccount, partySize = 2) {
  const who = diner ?? (await buildDiner(t.database.db));
  const held = await requestHold(t.app, who.token, { restaurantSlug: restaurant.slug, date: TEST_TOMORROW, time, partySize });
  expect(held.statusCode, held.body).toBe(201);
  const id = held.json<{ id: string }>().id;
  expect((await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/confirm`, headers: bearer(who.token) })).statusCode).toBe(200);
  const accepted = await t.app.inject({ method: 'PATCH', url: `/api/admin/bookings/${id}`, headers: bearer(staff.token), payload: { status: 'CONFIRMED' } });
  expect(accepted.statusCode, accepted.body).toBe(200);
  return { id, diner: who };
}

/** The 2-hour reminder's email to `userId`, sent by the sweep at that moment, and its links' tokens. */
async function remindAt(startsAt: Date, userId: string) {
  t.clock.set(new Date(startsAt.getTime() - 2 * HOUR_MS));
  await t.app.services.reminders.sendDue();
  const [email] = await queryRows<{ body: string }>(
    t.database.db,
    sql`SELECT body FROM outbox_messages WHERE user_id = ${userId} AND channel = 'email' AND body LIKE 'Reminder from Tablefair%' ORDER BY created_at DESC LIMIT 1`,
  );
  expect(email, 'a reminder email').toBeDefined();
  const link = (label: string) => {
    const match = new RegExp(`${label}: (\\S+)`).exec(email.body);
    expect(match, `the ${label} link`).not.toBeNull();
    return match![1];
  };
  const coming = link("I'm coming");
  const release = link('Release my table');
  const calendar = link('Add it to your calendar');
  expect(coming.startsWith('https://tablefair.example/reminder/')).toBe(true);
  expect(calendar.startsWith('https://tablefair.example/api/calendar/')).toBe(true);
  const token = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  return { coming: token(coming), release: token(release), calendar: token(calendar), body: email.body };
}

const readLink = (token: string) => t.app.inject({ method: 'GET', url: `/api/reminder-links/${token}` });
const answer = (token: string) => t.app.inject({ method: 'POST', url: `/api/reminder-links/${token}`, payload: {} });

async function statusOf(id: string) {
  const [row] = await queryRows<{ status: string; cancel_reason: string | null }>(
    t.database.db,
    sql`SELECT status, cancel_reason FROM reservations WHERE id = ${id}`,
  );
  return row;
}

async function dashboardReply(id: string) {
  const response = await t.app.inject({ method: 'GET', url: '/api/admin/bookings', headers: bearer(staff.token) });
  expect(response.statusCode).toBe(200);
  return response.json<{ bookings: { id: string; reminderReply: string | null }[] }>().bookings.find((booking) => booking.id === id)?.reminderReply;
}

function parseCalendar(file: string) {
  const calendar = new ICAL.Component(ICAL.parse(file));
  const event = calendar.getFirstSubcomponent('vevent')!;
  return { method: calendar.getFirstPropertyValue('method'), event: new ICAL.Event(event), status: event.getFirstPropertyValue('status') };
}

describe("a reminder's one-tap links", () => {
  it("I'm coming: opening the link changes nothing; one tap tells the dashboard; a second tap changes nothing", async () => {
    const { time, startsAt } = await freshSlot();
    const { id, diner } = await bookAccepted(time);
    expect(await dashboardReply(id)).toBeNull();
    const links = await remindAt(startsAt, diner.id);
    expect(await dashboardReply(id)).toBe('unanswered');

    // A mail scanner (or the diner) opening the link: the page asks once more; nothing is recorded.
    const opened = await readLink(links.coming);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.headers['cache-control']).toBe('no-store');
    expect(opened.json<ReminderLinkView>()).toMatchObject({ action: 'coming', state: 'ready', reservation: { id, status: 'CONFIRMED' } });
    expect(await dashboardReply(id)).toBe('unanswered');

    const tapped = await answer(links.coming);
    expect(tapped.statusCode, tapped.body).toBe(200);
    expect(tapped.json<ReminderLinkView>()).toMatchObject({ state: 'done', message: "The restaurant knows you're coming. See you there!" });
    expect(await dashboardReply(id)).toBe('coming');
    const [first] = await queryRows<{ replied_at: Date | string }>(t.database.db, sql`SELECT replied_at FROM reminder_replies WHERE reservation_id = ${id}`);

    t.clock.advance(5 * MINUTE_MS);
    expect((await answer(links.coming)).json<ReminderLinkView>().state).toBe('done');
    const [again] = await queryRows<{ replied_at: Date | string }>(t.database.db, sql`SELECT replied_at FROM reminder_replies WHERE reservation_id = ${id}`);
    expect(new Date(again.replied_at).getTime()).toBe(new Date(first.replied_at).getTime());
    expect((await statusOf(id)).status).toBe('CONFIRMED');
  });

  it('Release my table inside the 2-hour notice cancels it, offers it to the next diner waiting within seconds, and once only', async () => {
    const { time, startsAt } = await freshSlot(2);
    const { id, diner } = await bookAccepted(time);
    const links = await remindAt(startsAt, diner.id);
    const waiting = await buildDiner(t.database.db);
    const joined = await t.app.inject({
      method: 'POST',
      url: '/api/waitlist',
      headers: bearer(waiting.token),
      payload: { restaurantSlug: restaurant.slug, date: TEST_TOMORROW, partySize: 2, windowStart: time, windowEnd: time },
    });
    expect(joined.statusCode, joined.body).toBe(201);

    // 90 minutes ahead: the diner's own cancel is refused (2-hour rule), the reminder's release is not.
    t.clock.set(new Date(startsAt.getTime() - 90 * MINUTE_MS));
    const ownCancel = await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/cancel`, headers: bearer(diner.token) });
    expect(ownCancel.statusCode).toBe(409);
    const page = (await readLink(links.release)).json<ReminderLinkView>();
    expect(page).toMatchObject({ action: 'release', state: 'ready', releaseFeePaise: 0 });
    expect((await statusOf(id)).status).toBe('CONFIRMED');

    const released = await answer(links.release);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json<ReminderLinkView>()).toMatchObject({ state: 'done', reservation: { status: 'CANCELLED' } });
    expect(await statusOf(id)).toEqual({ status: 'CANCELLED', cancel_reason: 'DINER_RELEASED' });
    expect(await dashboardReply(id)).toBe('released');

    await waitFor(
      async () => {
        const mine = await t.app.inject({ method: 'GET', url: '/api/waitlist', headers: bearer(waiting.token) });
        return mine.json<{ offers: unknown[] }>().offers.length === 1;
      },
      2_000,
      'the next diner waiting to be offered the released table',
    );

    // The same link again, and the other link: both say where things stand and change nothing.
    expect((await answer(links.release)).json<ReminderLinkView>()).toMatchObject({
      state: 'done',
      message: 'Your table is released and has gone to the next diner waiting. Thank you for letting the restaurant know.',
    });
    const comingAfter = (await answer(links.coming)).json<ReminderLinkView>();
    expect(comingAfter).toMatchObject({ state: 'cancelled', message: 'This reservation is already cancelled, so this link changes nothing.' });
    expect(await dashboardReply(id)).toBe('released');
  });

  it("Release my table inside a deposit's fee window says what is kept, and keeps it as the policy says", async () => {
    const paid = await buildRestaurant(t.database.db, { name: 'Deposit Darbar' });
    const paidStaff = await buildStaff(t.database.db, paid.id);
    const policy = {
      defaultCharge: { kind: 'deposit', perCoverPaise: 50_000 },
      rules: [],
      freeCancelMinutes: 180,
      lateCancelKeepPercent: 100,
      noShowKeepPercent: 50,
    };
    expect((await t.app.inject({ method: 'PUT', url: '/api/admin/deposit-policy', headers: bearer(paidStaff.token), payload: policy })).statusCode).toBe(200);
    const { time, startsAt } = await freshSlot(8, paid);
    const diner = await buildDiner(t.database.db);
    const held = await requestHold(t.app, diner.token, { restaurantSlug: paid.slug, date: TEST_TOMORROW, time, partySize: 2 });
    const id = held.json<{ id: string }>().id;
    const confirm = await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/confirm`, headers: bearer(diner.token), payload: {} });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const sandbox = t.app.services.payments.sandbox!;
    const intentId = confirm.json<{ payment: { intentId: string } }>().payment.intentId;
    expect((await t.app.inject({ method: 'POST', url: `/api/payments/sandbox/${intentId}/decision`, payload: { decision: 'approve' } })).statusCode).toBe(200);
    await sandbox.settle();
    expect((await statusOf(id)).status).toBe('PENDING');
    // Only an accepted booking has a fee to keep (a pending request is released in full).
    const accepted = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/bookings/${id}`,
      headers: bearer(paidStaff.token),
      payload: { status: 'CONFIRMED' },
    });
    expect(accepted.statusCode).toBe(200);

    const links = await remindAt(startsAt, diner.id);
    // Two hours ahead is inside the 3-hour free-cancel window's end: the whole deposit is kept.
    const page = (await readLink(links.release)).json<ReminderLinkView>();
    expect(page).toMatchObject({ state: 'ready', releaseFeePaise: 100_000 });
    // Nobody was waiting for this table: the page does not say it went to the next diner.
    expect((await answer(links.release)).json<ReminderLinkView>()).toMatchObject({
      state: 'done',
      message: 'Your table is released and open for others to book. Thank you for letting the restaurant know.',
    });
    const [deposit] = await queryRows<{ move: string; late_cancel: boolean }>(
      t.database.db,
      sql`SELECT move, late_cancel FROM reservation_deposits WHERE reservation_id = ${id}`,
    );
    expect(deposit).toEqual({ move: 'capture_keep', late_cancel: true });
  });

  it('a tampered link, a link of another kind and garbage are refused with a clear message', async () => {
    const { time, startsAt } = await freshSlot();
    const { diner } = await bookAccepted(time);
    const links = await remindAt(startsAt, diner.id);
    // The release token with its purpose byte turned into "I'm coming", and one signed with another key.
    const whole = Buffer.from(links.release, 'base64url');
    whole[0] = 1;
    const forged = whole.toString('base64url');
    const foreign = signBytes(Buffer.from(links.release, 'base64url').subarray(0, 21), 'x'.repeat(40));
    for (const token of [forged, foreign, links.calendar, 'not-a-link', 'a.b']) {
      const response = await answer(token);
      expect(response.statusCode, token).toBe(400);
      expect(response.json<{ error: string }>().error).toMatch(/link is not valid/);
    }
    expect((await answer(forged)).json<{ error: string }>().error).toBe(LINK_NOT_VALID);
    // A reminder link is not a calendar link either.
    expect((await t.app.inject({ method: 'GET', url: `/api/calendar/${links.coming}` })).statusCode).toBe(400);
  });

  it('an expired link (the start has come) and a link for a reservation staff cancelled change nothing', async () => {
    const { time, startsAt } = await freshSlot();
    const first = await bookAccepted(time);
    const second = await bookAccepted(time);
    const firstLinks = await remindAt(startsAt, first.diner.id);
    const secondLinks = await remindAt(startsAt, second.diner.id);

    const cancelled = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/bookings/${second.id}`,
      headers: bearer(staff.token),
      payload: { status: 'CANCELLED' },
    });
    expect(cancelled.statusCode).toBe(200);
    expect((await answer(secondLinks.coming)).json<ReminderLinkView>().state).toBe('cancelled');
    expect((await answer(secondLinks.release)).json<ReminderLinkView>().state).toBe('cancelled');

    t.clock.set(startsAt);
    for (const token of [firstLinks.coming, firstLinks.release]) {
      const response = await answer(token);
      expect(response.statusCode).toBe(200);
      expect(response.json<ReminderLinkView>()).toMatchObject({ state: 'expired', reservation: { status: 'CONFIRMED' } });
    }
    expect(await statusOf(first.id)).toEqual({ status: 'CONFIRMED', cancel_reason: null });
    expect(await dashboardReply(first.id)).toBe('unanswered');
  });
});

describe('the calendar file', () => {
  it('is offered in /me and the emails, and rises in SEQUENCE with each change until METHOD:CANCEL', async () => {
    const { time, startsAt } = await freshSlot();
    const diner = await buildDiner(t.database.db);
    const held = await requestHold(t.app, diner.token, { restaurantSlug: restaurant.slug, date: TEST_TOMORROW, time, partySize: 3 });
    const id = held.json<{ id: string }>().id;
    await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/confirm`, headers: bearer(diner.token) });

    // /me: the diner's own reservation only.
    const stranger = await buildDiner(t.database.db);
    expect((await t.app.inject({ method: 'GET', url: `/api/reservations/${id}/calendar-link`, headers: bearer(stranger.token) })).statusCode).toBe(404);
    const linkResponse = await t.app.inject({ method: 'GET', url: `/api/reservations/${id}/calendar-link`, headers: bearer(diner.token) });
    expect(linkResponse.statusCode, linkResponse.body).toBe(200);
    const calendarPath = linkResponse.json<{ path: string }>().path;
    expect(calendarPath).toMatch(/^\/api\/calendar\/[A-Za-z0-9_-]{50}$/);

    const fetchFile = async () => {
      const response = await t.app.inject({ method: 'GET', url: calendarPath });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="tablefair-2026-11-24-.+\.ics"$/);
      return parseCalendar(response.body);
    };
    const pending = await fetchFile();
    expect(pending.method).toBe('PUBLISH');
    expect(pending.event.uid).toBe(`reservation-${id}@tablefair.in`);
    expect(pending.event.startDate.toJSDate().getTime()).toBe(startsAt.getTime());
    expect(pending.event.location).toContain('Link Bhavan');

    // The restaurant accepts: an email with the calendar link, and a file with a higher SEQUENCE.
    await t.app.inject({ method: 'PATCH', url: `/api/admin/bookings/${id}`, headers: bearer(staff.token), payload: { status: 'CONFIRMED' } });
    const accepted = await fetchFile();
    expect(accepted.event.sequence).toBeGreaterThan(pending.event.sequence);
    const emails = () =>
      queryRows<{ subject: string; body: string }>(
        t.database.db,
        sql`SELECT subject, body FROM outbox_messages WHERE user_id = ${diner.id} AND channel = 'email' ORDER BY created_at, subject`,
      );
    const [acceptedEmail] = await emails();
    expect(acceptedEmail.subject).toMatch(/^Accepted: your table at Link Bhavan/);
    expect(acceptedEmail.body).toContain(`https://tablefair.example${calendarPath}`);

    // Cancelled: a last email, and the same file now removes the entry.
    t.clock.set(new Date(startsAt.getTime() - 5 * HOUR_MS));
    await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/cancel`, headers: bearer(diner.token) });
    const cancelled = await fetchFile();
    expect(cancelled.method).toBe('CANCEL');
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.event.uid).toBe(`reservation-${id}@tablefair.in`);
    expect(cancelled.event.sequence).toBeGreaterThan(accepted.event.sequence);
    const all = await emails();
    expect(all.map((email) => email.subject.split(':')[0])).toEqual(['Accepted', 'Cancelled']);
  });
});

describe('reminder texts on WhatsApp', () => {
  it('go out on the WhatsApp channel with the registered template and its values when REMINDER_TEXT_CHANNEL=whatsapp', async () => {
    const whatsapp = await createTestApp({ database: t.database, env: { REMINDER_TEXT_CHANNEL: 'whatsapp', PUBLIC_URL: 'https://tablefair.example' } });
    try {
      const { time, startsAt } = await freshSlot();
      const diner = await buildDiner(t.database.db);
      await t.database.db.execute(sql`UPDATE users SET verified_phone = '+919876500099', phone_verified_at = now() WHERE id = ${diner.id}`);
      await bookAccepted(time, diner);
      whatsapp.clock.set(new Date(startsAt.getTime() - 2 * HOUR_MS));
      await whatsapp.app.services.reminders.sendDue();
      const rows = await queryRows<{ channel: string; body: string; template: { name: string; language: string; values: string[] } }>(
        t.database.db,
        sql`SELECT channel, body, template FROM outbox_messages WHERE user_id = ${diner.id} AND channel <> 'email'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].channel).toBe('whatsapp');
      expect(rows[0].template.name).toBe('tablefair_reservation_reminder_v2');
      expect(rows[0].template.values.slice(0, 2)).toEqual(['Link Bhavan', 'in 2 hours']);
      expect(rows[0].template.values[5]).toMatch(/^https:\/\/tablefair\.example\/reminder\//);
      expect(rows[0].body).toContain(rows[0].template.values[6]);
    } finally {
      await whatsapp.app.close();
    }
  });
});
