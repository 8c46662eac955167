import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ReminderLinkView } from '#common/contract/reminders.ts';
import { HOUR_MS, MINUTE_MS } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { unbalancedPostings } from '#server/modules/payments/payments.test-support.ts';
import { requestHold, TEST_NOW, TEST_TOMORROW } from '#server/test/app.ts';
import {
  call,
  dinerCancel,
  intentOf,
  paidBooking,
  place as restaurant,
  sandbox,
  setUpDepositsFixture,
  staffMove,
  statusOf,
  t,
} from '#server/modules/reservations/deposits.test-support.ts';
import { waitFor } from '#server/test/eventually.ts';
import { buildDiner, buildRestaurant, eveningSlots, recordNoShows, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * The money-and-dates attack (docs/security.md, "The ten holes of the money-and-dates attack"):
 * each `describe` names its row by number and title and replays the attack over HTTP, on the
 * real database and the sandbox gateway's signed webhooks. "Now" starts at 10:00 in Kolkata on
 * the 23rd; the slots are tomorrow evening.
 */
const PER_COVER = 20_000;
/** A restaurant that asks no deposit. */
let plain: BuiltRestaurant;

setUpDepositsFixture({
  restaurantName: 'Resale Bhavan',
  perCoverPaise: PER_COVER,
  lateCancelKeepPercent: 100,
  noShowKeepPercent: 100,
  env: { PUBLIC_URL: 'https://tablefair.example' },
});
beforeAll(async () => {
  plain = await buildRestaurant(t.database.db, { name: 'Plain Dosa Corner' });
});

const nextSlot = eveningSlots(() => t.database.db, TEST_TOMORROW);

/** The 2-hour reminder to `userId`, sent by the sweep at that moment: its "Release my table" token. */
async function releaseLinkAt(startsAt: Date, userId: string): Promise<string> {
  t.clock.set(new Date(startsAt.getTime() - 2 * HOUR_MS));
  await t.app.services.reminders.sendDue();
  const [email] = await queryRows<{ body: string }>(
    t.database.db,
    sql`SELECT body FROM outbox_messages WHERE user_id = ${userId} AND channel = 'email' AND body LIKE 'Reminder from Tablefair%' ORDER BY created_at DESC LIMIT 1`,
  );
  const match = /Release my table: (\S+)/.exec(email?.body ?? '');
  expect(match, 'the Release my table link').not.toBeNull();
  return match![1].slice(match![1].lastIndexOf('/') + 1);
}

/** A booking of `partySize` the restaurant accepted and then the diner cancelled late (an hour ahead): its fee kept. */
async function lateCancelled(time: string, startsAt: Date, diner: BuiltAccount, how: 'cancel' | 'release', partySize = 2) {
  const booking = await paidBooking(time, diner, partySize);
  await staffMove(booking.id, 'CONFIRMED');
  const releaseToken = how === 'release' ? await releaseLinkAt(startsAt, diner.id) : null;
  t.clock.set(new Date(startsAt.getTime() - HOUR_MS));
  if (releaseToken) {
    const page = (await call('GET', `/api/reminder-links/${releaseToken}`)).json<ReminderLinkView>();
    expect(page.releaseFeePaise).toBe(partySize * PER_COVER);
    const released = await call('POST', `/api/reminder-links/${releaseToken}`, undefined, {});
    expect(released.statusCode, released.body).toBe(200);
    await sandbox.settle();
  } else {
    await dinerCancel(booking.id, diner);
  }
  expect(await statusOf(booking.id)).toBe('CANCELLED');
  expect(await intentOf(booking.intentId)).toMatchObject({ status: 'CAPTURED', captured_paise: partySize * PER_COVER, refunded_paise: 0 });
  return booking;
}

describe('1. A late-cancel fee waived by the diner’s own second hold on the same slot', () => {
  for (const how of ['cancel', 'release'] as const) {
    it(`keeps the fee when the same diner holds the slot again, pays and cancels at once (late cancel by ${how === 'cancel' ? 'Cancel' : '"Release my table"'})`, async () => {
      const { time, startsAt } = await nextSlot(restaurant.id, 8);
      const diner = await buildDiner(t.database.db);
      const first = await lateCancelled(time, startsAt, diner, how);

      // The attack: the same account holds the same slot again, pays, and cancels while PENDING.
      t.clock.advance(MINUTE_MS);
      const second = await paidBooking(time, diner);
      await dinerCancel(second.id, diner);

      expect(await intentOf(second.intentId)).toMatchObject({ status: 'RELEASED' });
      expect(await intentOf(first.intentId), 'the first fee is still kept').toMatchObject({ status: 'CAPTURED', refunded_paise: 0 });
      expect(await unbalancedPostings(t.database.db)).toBe(0);
    });
  }

  it('keeps the fee while another diner’s booking of the freed covers is only booked, and when it is cancelled', async () => {
    const { time, startsAt } = await nextSlot(restaurant.id, 4);
    const filler = await buildDiner(t.database.db);
    await paidBooking(time, filler, 2);
    const first = await lateCancelled(time, startsAt, await buildDiner(t.database.db), 'cancel');

    const other = await buildDiner(t.database.db);
    const resale = await paidBooking(time, other, 2);
    await staffMove(resale.id, 'CONFIRMED');
    expect(await intentOf(first.intentId), 'a booking is not yet a resale').toMatchObject({ status: 'CAPTURED', refunded_paise: 0 });
    await dinerCancel(resale.id, other);
    expect(await intentOf(first.intentId)).toMatchObject({ status: 'CAPTURED', refunded_paise: 0 });
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });

  it('keeps the fee when another diner is seated on covers the slot had free anyway', async () => {
    const { time, startsAt } = await nextSlot(restaurant.id, 8);
    const first = await lateCancelled(time, startsAt, await buildDiner(t.database.db), 'cancel');
    const resale = await paidBooking(time, await buildDiner(t.database.db), 2);
    await staffMove(resale.id, 'CONFIRMED');
    t.clock.set(startsAt);
    await staffMove(resale.id, 'SEATED');
    expect(await intentOf(first.intentId), 'the covers were not needed').toMatchObject({ status: 'CAPTURED', refunded_paise: 0 });
  });

  it('refunds the fee once another diner is seated on the covers the late cancel freed (a full slot)', async () => {
    const { time, startsAt } = await nextSlot(restaurant.id, 4);
    const canceller = await buildDiner(t.database.db);
    const filler = await buildDiner(t.database.db);
    const seatedFiller = await paidBooking(time, filler, 2);
    const first = await lateCancelled(time, startsAt, canceller, 'release');

    // The canceller's own new booking fills the freed covers: still not a resale.
    const own = await paidBooking(time, canceller, 2);
    await staffMove(own.id, 'CONFIRMED');
    t.clock.set(startsAt);
    await staffMove(own.id, 'SEATED');
    await staffMove(seatedFiller.id, 'CONFIRMED');
    await staffMove(seatedFiller.id, 'SEATED');
    expect(await intentOf(first.intentId)).toMatchObject({ status: 'CAPTURED', refunded_paise: 0 });

    // On a second slot, another diner takes the freed covers and is seated: a real resale.
    const next = await nextSlot(restaurant.id, 4);
    t.clock.set(TEST_NOW);
    const stays = await paidBooking(next.time, await buildDiner(t.database.db), 2);
    const late = await lateCancelled(next.time, next.startsAt, await buildDiner(t.database.db), 'cancel');
    const buyer = await buildDiner(t.database.db);
    const resale = await paidBooking(next.time, buyer, 2);
    await staffMove(resale.id, 'CONFIRMED');
    await staffMove(stays.id, 'CONFIRMED');
    t.clock.set(next.startsAt);
    await staffMove(stays.id, 'SEATED');
    expect(await intentOf(late.intentId), 'the resale is not seated yet').toMatchObject({ status: 'CAPTURED', refunded_paise: 0 });
    await staffMove(resale.id, 'SEATED');
    expect(await intentOf(late.intentId)).toMatchObject({ status: 'REFUNDED', refunded_paise: 2 * PER_COVER });
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });
});

const STRIKE_BLOCK = /^You have 3 no-shows in the last 365 days, so new bookings and drop entries are paused until /;

describe('5. A diner blocked by three no-shows confirms an offer', () => {
  it('refuses the Confirm of a waitlist offer made before the third strike (403, the block named)', async () => {
    const { time } = await nextSlot(plain.id, 2);
    const holder = await buildDiner(t.database.db);
    const booked = await requestHold(t.app, holder.token, { restaurantSlug: plain.slug, date: TEST_TOMORROW, time, partySize: 2 });
    const bookingId = booked.json<{ id: string }>().id;
    expect((await call('POST', `/api/reservations/${bookingId}/confirm`, holder.token, {})).statusCode).toBe(200);
    const waiter = await buildDiner(t.database.db);
    const joined = await call('POST', '/api/waitlist', waiter.token, {
      restaurantSlug: plain.slug,
      date: TEST_TOMORROW,
      partySize: 2,
      windowStart: time,
      windowEnd: time,
    });
    expect(joined.statusCode, joined.body).toBe(201);
    expect((await call('POST', `/api/reservations/${bookingId}/cancel`, holder.token, {})).statusCode).toBe(200);
    // The offer arrives by event; the sweep's pass makes sure of it without waiting on the clock.
    await t.app.services.waitlist.runDueWork();
    let offerId = '';
    await waitFor(
      async () => {
        const mine = (await call('GET', '/api/waitlist', waiter.token)).json<{ offers: { offer: { reservationId: string } | null }[] }>();
        offerId = mine.offers[0]?.offer?.reservationId ?? '';
        return offerId !== '';
      },
      10_000,
      'the offer',
    );
    await recordNoShows(t.database.db, waiter, 3);
    const confirm = await call('POST', `/api/reservations/${offerId}/confirm`, waiter.token, {});
    expect(confirm.statusCode, confirm.body).toBe(403);
    expect(confirm.json().error).toMatch(STRIKE_BLOCK);
    expect(await statusOf(offerId)).toBe('HELD');
  });

  it('refuses the plain Confirm of a hold placed before the third strike', async () => {
    const { time } = await nextSlot(plain.id, 4);
    const diner = await buildDiner(t.database.db);
    const held = await requestHold(t.app, diner.token, { restaurantSlug: plain.slug, date: TEST_TOMORROW, time, partySize: 2 });
    const id = held.json<{ id: string }>().id;
    await recordNoShows(t.database.db, diner, 3);
    const confirm = await call('POST', `/api/reservations/${id}/confirm`, diner.token, {});
    expect(confirm.statusCode, confirm.body).toBe(403);
    expect(await statusOf(id)).toBe('HELD');
  });

  it('starts no payment for a blocked diner, and releases a payment approved after the third strike without booking', async () => {
    const { time } = await nextSlot(restaurant.id, 8);
    const blocked = await buildDiner(t.database.db);
    const first = await requestHold(t.app, blocked.token, { restaurantSlug: restaurant.slug, date: TEST_TOMORROW, time, partySize: 2 });
    const firstId = first.json<{ id: string }>().id;
    const paying = await buildDiner(t.database.db);
    const second = await requestHold(t.app, paying.token, { restaurantSlug: restaurant.slug, date: TEST_TOMORROW, time, partySize: 2 });
    const secondId = second.json<{ id: string }>().id;
    const started = await call('POST', `/api/reservations/${secondId}/confirm`, paying.token, {});
    const intentId = started.json().payment.intentId as string;

    await recordNoShows(t.database.db, blocked, 3);
    const refused = await call('POST', `/api/reservations/${firstId}/confirm`, blocked.token, {});
    expect(refused.statusCode, refused.body).toBe(403);
    const [payments] = await queryRows<{ count: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS count FROM payment_intents WHERE reservation_id = ${firstId}`,
    );
    expect(payments!.count).toBe(0);

    // Struck between Pay and the approval: the authorisation is released, the hold never books.
    await recordNoShows(t.database.db, paying, 3);
    expect((await call('POST', `/api/payments/sandbox/${intentId}/decision`, undefined, { decision: 'approve' })).statusCode).toBe(200);
    await sandbox.settle();
    expect(await statusOf(secondId)).toBe('HELD');
    expect(await intentOf(intentId)).toMatchObject({ status: 'RELEASED' });
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });
});
