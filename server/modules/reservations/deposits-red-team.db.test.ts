import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { HOUR_MS, MINUTE_MS } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { signBody } from '#server/modules/payments/payment-provider.ts';
import { unbalancedPostings } from '#server/modules/payments/payments.test-support.ts';
import { SANDBOX_EVENT_ID_HEADER, SANDBOX_SIGNATURE_HEADER } from '#server/modules/payments/sandbox-gateway.ts';
import { signAnswerLink } from '#server/modules/reminders/reminder-links.ts';
import { LINK_NOT_VALID } from '#server/modules/reminders/reminders.service.ts';
import { createSigningKey } from '#server/signing.ts';
import { bearer, requestHold, TEST_TOMORROW } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildStaff, eveningSlots, type BuiltAccount } from '#server/test/factories.ts';
import {
  call,
  dinerCancel,
  expectRefused,
  intentOf,
  ledgerPostingsOf,
  moneyAndBookings,
  paidBooking,
  place,
  sandbox,
  setUpDepositsFixture,
  staff,
  staffMove,
  statusOf,
  t,
  heldAndPayPressed,
} from './deposits.test-support.ts';
import { BOOKING_NOT_FOUND } from './reservation-view.ts';

/**
 * The red-team pass over HTTP on the deposits' money routes (docs/security.md, "The red-team pass
 * on the deposits"): forged, replayed and altered payment webhooks, another diner's ids, another
 * restaurant's staff, parallel races, booking a deposit slot without paying, the late-cancel
 * waiver of row 1 by the diner's own rebooking, and malformed or oversized requests. Each attack
 * is one named test that asserts the exact refusal and that the ledger, the payments and the
 * reservations are as they were. "Now" is 10:00 in Kolkata on the 23rd; slots are tomorrow evening.
 */
const PER_COVER = 20_000;
const WEBHOOK_SECRET = 'test-webhook-secret-0123456789';
const SIGNATURE_REFUSED = { error: 'The webhook signature is not valid' };

setUpDepositsFixture({ restaurantName: 'Red Team Thali', perCoverPaise: PER_COVER, lateCancelKeepPercent: 100, noShowKeepPercent: 100 });

const nextSlot = eveningSlots(() => t.database.db, TEST_TOMORROW);

function deliver(rawBody: string, headers: Record<string, string>, provider = 'sandbox') {
  return t.app.inject({ method: 'POST', url: `/api/payments/webhooks/${provider}`, headers, payload: rawBody });
}

/** Held and Pay pressed, the diner's approval on the sandbox page caught before its webhook reaches the app. */
async function approvalCaught(diner: BuiltAccount, time: string, partySize = 2) {
  const { id, intentId } = await heldAndPayPressed(time, diner, partySize);
  sandbox.faults.hold = true;
  expect((await call('POST', `/api/payments/sandbox/${intentId}/decision`, undefined, { decision: 'approve' })).statusCode).toBe(200);
  const genuine = sandbox.heldDeliveries().at(-1)!;
  expect(genuine.eventType).toBe('payment.authorized');
  sandbox.faults.hold = false;
  return { id, intentId, genuine, release: () => sandbox.releaseHeld() };
}

/** The "Release my table" (or "I'm coming") token the 2-hour reminder carries for this booking. */
async function releaseToken(id: string, startsAt: Date, action: 'release' | 'coming' = 'release') {
  return signAnswerLink(action, id, startsAt, await createSigningKey({ db: t.database.db, config: t.config })());
}

describe('the red-team pass on the deposits: forged, replayed and altered webhooks', () => {
  it('refuses a genuine authorisation webhook altered under its own signature, re-signed with another key, or without its event id (400, nothing changes), then takes the genuine one', async () => {
    const { time } = await nextSlot(place.id, 8);
    const caught = await approvalCaught(await buildDiner(t.database.db), time);
    const { rawBody, headers } = caught.genuine;
    const event = JSON.parse(rawBody) as { payload: { payment: { entity: Record<string, unknown> } } };
    const altered = (change: (entity: Record<string, unknown>) => void) => {
      const copy = structuredClone(event);
      change(copy.payload.payment.entity);
      return JSON.stringify(copy);
    };
    const oneDigitChanged = (hex: string) => `${hex.slice(0, -1)}${hex.endsWith('0') ? '1' : '0'}`;
    const attempts: [string, string, Record<string, string>][] = [
      ['amount lowered', altered((entity) => (entity.amount = 1)), headers],
      ['amount raised', altered((entity) => (entity.amount = 10_000_000)), headers],
      ['status made captured', altered((entity) => Object.assign(entity, { status: 'captured', captured: true })), headers],
      ['another order', altered((entity) => (entity.order_id = 'sbx_order_other')), headers],
      ['a space added', `${rawBody} `, headers],
      ['no signature', rawBody, { ...headers, [SANDBOX_SIGNATURE_HEADER]: '' }],
      ['signed with another key', rawBody, { ...headers, [SANDBOX_SIGNATURE_HEADER]: signBody(rawBody, 'not-the-webhook-secret-000000') }],
      ['one digit of the signature changed', rawBody, { ...headers, [SANDBOX_SIGNATURE_HEADER]: oneDigitChanged(headers[SANDBOX_SIGNATURE_HEADER]!) }],
      ['the signature truncated', rawBody, { ...headers, [SANDBOX_SIGNATURE_HEADER]: headers[SANDBOX_SIGNATURE_HEADER]!.slice(0, 32) }],
      ['no event id', rawBody, Object.fromEntries(Object.entries(headers).filter(([name]) => name !== SANDBOX_EVENT_ID_HEADER))],
    ];
    for (const [what, body, sent] of attempts) {
      await expectRefused(() => deliver(body, sent), 400, SIGNATURE_REFUSED.error).catch((error: unknown) => {
        throw new Error(`${what}: ${String(error)}`);
      });
    }
    expect(await statusOf(caught.id)).toBe('HELD');
    expect((await intentOf(caught.intentId))!.status).toBe('CREATED');

    await caught.release();
    await sandbox.settle();
    expect(await statusOf(caught.id)).toBe('PENDING');
    expect(await ledgerPostingsOf(caught.intentId)).toHaveLength(1);
  });

  it('answers a genuine webhook replayed with its event id as a duplicate and under a fresh event id as ignored: nothing posted twice', async () => {
    const { time } = await nextSlot(place.id, 8);
    const caught = await approvalCaught(await buildDiner(t.database.db), time);
    await caught.release();
    await sandbox.settle();
    const before = await moneyAndBookings();
    const postings = await ledgerPostingsOf(caught.intentId);
    expect(postings).toHaveLength(1);

    const again = await deliver(caught.genuine.rawBody, caught.genuine.headers);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ ok: true, outcome: 'duplicate' });
    const fresh = await deliver(caught.genuine.rawBody, { ...caught.genuine.headers, [SANDBOX_EVENT_ID_HEADER]: 'evt_sbx_replayed' });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json()).toEqual({ ok: true, outcome: 'ignored' });
    await sandbox.settle();
    expect(await moneyAndBookings()).toBe(before);
    expect(await ledgerPostingsOf(caught.intentId)).toEqual(postings);
  });

  it('ignores an old authorisation replayed after the diner cancelled and the deposit was released: the booking stays cancelled, nothing blocked again', async () => {
    const { time } = await nextSlot(place.id, 8);
    const diner = await buildDiner(t.database.db);
    const caught = await approvalCaught(diner, time);
    await caught.release();
    await sandbox.settle();
    await dinerCancel(caught.id, diner);
    expect((await intentOf(caught.intentId))!.status).toBe('RELEASED');
    const before = await moneyAndBookings();

    const replayed = await deliver(caught.genuine.rawBody, { ...caught.genuine.headers, [SANDBOX_EVENT_ID_HEADER]: 'evt_sbx_after_release' });
    expect(replayed.statusCode, replayed.body).toBe(200);
    expect(replayed.json()).toEqual({ ok: true, outcome: 'ignored' });
    await sandbox.settle();
    expect(await moneyAndBookings()).toBe(before);
    expect(await statusOf(caught.id)).toBe('CANCELLED');
  });

  it('answers a webhook for an unknown provider 404, and a non-JSON body signed with the right key but for nothing 200 skipped, changing nothing', async () => {
    const body = JSON.stringify({ entity: 'event', event: 'payment.authorized', payload: {} });
    await expectRefused(() => deliver(body, { 'content-type': 'application/json', 'x-razorpay-signature': 'x' }, 'razorpay'), 404, 'Unknown payment provider');
    const before = await moneyAndBookings();
    const unmatched = await deliver('not json at all', {
      'content-type': 'text/plain',
      [SANDBOX_SIGNATURE_HEADER]: signBody('not json at all', WEBHOOK_SECRET),
      [SANDBOX_EVENT_ID_HEADER]: 'evt_sbx_garbage',
    });
    expect(unmatched.statusCode, unmatched.body).toBe(200);
    expect(unmatched.json()).toEqual({ ok: true, outcome: 'skipped' });
    expect(await moneyAndBookings()).toBe(before);
  });
});

describe('the red-team pass on the deposits: another diner’s ids, another restaurant’s staff', () => {
  it("refuses Pay on another diner's hold with their token (403), and starts no payment", async () => {
    const { time } = await nextSlot(place.id, 8);
    const owner = await buildDiner(t.database.db);
    const held = await requestHold(t.app, owner.token, { restaurantSlug: place.slug, date: TEST_TOMORROW, time, partySize: 2 });
    const id = held.json<{ id: string }>().id;
    const thief = await buildDiner(t.database.db);
    await expectRefused(() => call('POST', `/api/reservations/${id}/confirm`, thief.token, {}), 403, 'That reservation belongs to another account');
  });

  it("refuses the cancel of another diner's paid booking (403 with their token, 401 with none) and its change (404): the deposit stays blocked", async () => {
    const { time } = await nextSlot(place.id, 8);
    const owner = await buildDiner(t.database.db);
    const booking = await paidBooking(time, owner);
    const thief = await buildDiner(t.database.db);
    await expectRefused(() => call('POST', `/api/reservations/${booking.id}/cancel`, thief.token, {}), 403, 'That reservation belongs to another account');
    await expectRefused(
      () => call('POST', `/api/reservations/${booking.id}/cancel`, undefined, {}),
      401,
      /^This reservation is PENDING: sign in as the diner who made it to cancel it\.$/,
    );
    await expectRefused(
      () => call('POST', `/api/reservations/${booking.id}/change`, thief.token, { date: TEST_TOMORROW, time, partySize: 4 }),
      404,
      'Reservation not found',
    );
    expect((await intentOf(booking.intentId))!.status).toBe('AUTHORISED');
  });

  it("refuses to show another diner's payment (404), and refuses a second decision on the sandbox page once the payment is decided (409)", async () => {
    const { time } = await nextSlot(place.id, 8);
    const booking = await paidBooking(time, await buildDiner(t.database.db));
    const thief = await buildDiner(t.database.db);
    await expectRefused(() => call('GET', `/api/payments/intents/${booking.intentId}`, thief.token), 404, 'Payment not found');
    for (const decision of ['decline', 'approve'] as const) {
      await expectRefused(
        () => call('POST', `/api/payments/sandbox/${booking.intentId}/decision`, undefined, { decision }),
        409,
        'This payment request is closed',
      );
    }
  });

  it('refuses a tampered, re-purposed or foreign-key "Release my table" link for another diner\'s booking (400); the booking and its deposit stay', async () => {
    const { time, startsAt } = await nextSlot(place.id, 8);
    const booking = await paidBooking(time, await buildDiner(t.database.db));
    await staffMove(booking.id, 'CONFIRMED');
    const genuine = await releaseToken(booking.id, startsAt);
    const flipped = `${genuine.slice(0, 10)}${genuine[10] === 'A' ? 'B' : 'A'}${genuine.slice(11)}`;
    const coming = await releaseToken(booking.id, startsAt, 'coming');
    const tokens = [
      flipped,
      genuine.slice(0, -2),
      signAnswerLink('release', booking.id, startsAt, 'another-signing-key'),
      signAnswerLink('release', booking.id, new Date(startsAt.getTime() + HOUR_MS), 'another-signing-key'),
      `${coming.slice(0, 1)}${genuine.slice(1, 22)}${coming.slice(22)}`,
    ];
    for (const token of tokens) await expectRefused(() => call('POST', `/api/reminder-links/${token}`, undefined, {}), 400, LINK_NOT_VALID);
    expect(await statusOf(booking.id)).toBe('CONFIRMED');
  });

  it("refuses another restaurant's staff moving, cancelling or waiving the fee of a booking (404), and a diner's token on the portal (401)", async () => {
    const { time } = await nextSlot(place.id, 8);
    const diner = await buildDiner(t.database.db);
    const booking = await paidBooking(time, diner);
    const otherStaff = await buildStaff(t.database.db, (await buildRestaurant(t.database.db, { name: 'Rival Mess' })).id);
    for (const status of ['CONFIRMED', 'CANCELLED', 'NO_SHOW']) {
      await expectRefused(() => call('PATCH', `/api/admin/bookings/${booking.id}`, otherStaff.token, { status }), 404, BOOKING_NOT_FOUND);
    }
    await expectRefused(() => call('POST', `/api/admin/bookings/${booking.id}/waive-fee`, otherStaff.token, {}), 404, BOOKING_NOT_FOUND);
    await expectRefused(() => call('PATCH', `/api/admin/bookings/${booking.id}`, diner.token, { status: 'CONFIRMED' }), 401, 'This needs a restaurant sign-in');
    await expectRefused(() => call('POST', `/api/admin/bookings/${booking.id}/waive-fee`, diner.token, {}), 401, 'This needs a restaurant sign-in');
  });
});

describe('the red-team pass on the deposits: races', () => {
  it('ten approvals of one payment in parallel authorise it once: one posting, one move to PENDING', async () => {
    const { time } = await nextSlot(place.id, 8);
    const diner = await buildDiner(t.database.db);
    const held = await requestHold(t.app, diner.token, { restaurantSlug: place.slug, date: TEST_TOMORROW, time, partySize: 2 });
    const id = held.json<{ id: string }>().id;
    const intentId = (await call('POST', `/api/reservations/${id}/confirm`, diner.token, {})).json().payment.intentId as string;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', `/api/payments/sandbox/${intentId}/decision`, undefined, { decision: 'approve' })),
    );
    await sandbox.settle();
    for (const answer of answers) expect([200, 409]).toContain(answer.statusCode);
    expect(await ledgerPostingsOf(intentId)).toHaveLength(1);
    const [pending] = await queryRows<{ count: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS count FROM reservation_events WHERE reservation_id = ${id} AND to_status = 'PENDING'`,
    );
    expect(pending!.count).toBe(1);
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });

  it('approve and decline in parallel, Pay pressed five times in parallel: one payment per hold, one outcome', async () => {
    const { time } = await nextSlot(place.id, 8);
    const diner = await buildDiner(t.database.db);
    const held = await requestHold(t.app, diner.token, { restaurantSlug: place.slug, date: TEST_TOMORROW, time, partySize: 2 });
    const id = held.json<{ id: string }>().id;
    const pays = await Promise.all(Array.from({ length: 5 }, () => call('POST', `/api/reservations/${id}/confirm`, diner.token, {})));
    for (const pay of pays) expect(pay.statusCode, pay.body).toBe(200);
    expect(new Set(pays.map((pay) => pay.json().payment.intentId)).size).toBe(1);
    const intentId = pays[0]!.json().payment.intentId as string;
    await Promise.all([
      call('POST', `/api/payments/sandbox/${intentId}/decision`, undefined, { decision: 'approve' }),
      call('POST', `/api/payments/sandbox/${intentId}/decision`, undefined, { decision: 'decline' }),
    ]);
    await sandbox.settle();
    const [intents] = await queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM payment_intents WHERE reservation_id = ${id}`);
    expect(intents!.count).toBe(1);
    const outcome = { intent: (await intentOf(intentId))!.status, booking: await statusOf(id) };
    // The first webhook in decides: authorised and booked, or failed and still a hold.
    expect([JSON.stringify({ intent: 'AUTHORISED', booking: 'PENDING' }), JSON.stringify({ intent: 'FAILED', booking: 'HELD' })]).toContain(
      JSON.stringify(outcome),
    );
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });

  it('the diner cancelling three times while staff accept three times, in parallel: one outcome, one money move, never both released and captured', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { time } = await nextSlot(place.id, 8);
      const diner = await buildDiner(t.database.db);
      const booking = await paidBooking(time, diner);
      const answers = await Promise.all([
        ...Array.from({ length: 3 }, () => call('POST', `/api/reservations/${booking.id}/cancel`, diner.token, {})),
        ...Array.from({ length: 3 }, () => call('PATCH', `/api/admin/bookings/${booking.id}`, staff.token, { status: 'CONFIRMED' })),
      ]);
      await sandbox.settle();
      for (const answer of answers) expect(answer.statusCode, answer.body).toBeLessThan(500);
      const status = await statusOf(booking.id);
      const intent = (await intentOf(booking.intentId))!;
      // Cancelled in the free window: released; accepted: still blocked. Nothing else.
      expect({ status, intent: intent.status }, `round ${round}`).toEqual(
        status === 'CANCELLED' ? { status, intent: 'RELEASED' } : { status: 'CONFIRMED', intent: 'AUTHORISED' },
      );
      const postings = await ledgerPostingsOf(booking.intentId);
      expect(postings.length, postings.join()).toBe(status === 'CANCELLED' ? 2 : 1);
      expect(await unbalancedPostings(t.database.db)).toBe(0);
    }
  });
});

describe('the red-team pass on the deposits: a table without paying', () => {
  it('a hold whose payment was started, then declined, stays a hold: staff cannot accept or seat it (409), and Pay again starts no second payment', async () => {
    const { time } = await nextSlot(place.id, 8);
    const diner = await buildDiner(t.database.db);
    const held = await requestHold(t.app, diner.token, { restaurantSlug: place.slug, date: TEST_TOMORROW, time, partySize: 2 });
    const id = held.json<{ id: string }>().id;
    const intentId = (await call('POST', `/api/reservations/${id}/confirm`, diner.token, {})).json().payment.intentId as string;
    expect(await statusOf(id)).toBe('HELD');
    await expectRefused(
      () => call('PATCH', `/api/admin/bookings/${id}`, staff.token, { status: 'CONFIRMED' }),
      409,
      'This reservation is HELD, so it cannot be confirmed',
    );
    expect((await call('POST', `/api/payments/sandbox/${intentId}/decision`, undefined, { decision: 'decline' })).statusCode).toBe(200);
    await sandbox.settle();
    expect(await statusOf(id)).toBe('HELD');
    await expectRefused(
      () => call('PATCH', `/api/admin/bookings/${id}`, staff.token, { status: 'SEATED' }),
      409,
      'This reservation is HELD, so it cannot be seated',
    );
    const again = await call('POST', `/api/reservations/${id}/confirm`, diner.token, {});
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().payment.intentId).toBe(intentId);
    expect(await statusOf(id)).toBe('HELD');
    expect(await ledgerPostingsOf(intentId)).toEqual([]);
  });

  it('keeps a paid booking at its party while the extra deposit for more guests is unpaid, or declined', async () => {
    const { time } = await nextSlot(place.id, 8);
    const diner = await buildDiner(t.database.db);
    const booking = await paidBooking(time, diner);
    const before = await moneyAndBookings();
    const asked = await call('POST', `/api/reservations/${booking.id}/change`, diner.token, { date: TEST_TOMORROW, time, partySize: 6 });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ applied: false, payment: { amountPaise: 4 * PER_COVER }, reservation: { partySize: 2 } });
    expect(JSON.parse(await moneyAndBookings()).reservations).toEqual(JSON.parse(before).reservations);
    expect((await call('POST', `/api/payments/sandbox/${asked.json().payment.intentId}/decision`, undefined, { decision: 'decline' })).statusCode).toBe(200);
    await sandbox.settle();
    expect(JSON.parse(await moneyAndBookings()).reservations).toEqual(JSON.parse(before).reservations);
    expect((await intentOf(booking.intentId))!.status).toBe('AUTHORISED');
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });
});

describe('the red-team pass on the deposits: row 1, a late-cancel fee waived by the diner’s own rebooking', () => {
  for (const how of ['cancel', 'release'] as const) {
    it(`keeps the fee when the diner cancels late by ${how === 'cancel' ? 'Cancel' : '"Release my table"'}, books the freed table again and is seated beside the slot's other diner`, async () => {
      const { time, startsAt } = await nextSlot(place.id, 4);
      const canceller = await buildDiner(t.database.db);
      const neighbour = await buildDiner(t.database.db);
      const first = await paidBooking(time, canceller);
      const stays = await paidBooking(time, neighbour);
      await staffMove(first.id, 'CONFIRMED');
      await staffMove(stays.id, 'CONFIRMED');

      t.clock.set(new Date(startsAt.getTime() - HOUR_MS));
      if (how === 'cancel') await dinerCancel(first.id, canceller);
      else {
        const released = await call('POST', `/api/reminder-links/${await releaseToken(first.id, startsAt)}`, undefined, {});
        expect(released.statusCode, released.body).toBe(200);
        await sandbox.settle();
      }
      expect(await intentOf(first.intentId)).toMatchObject({ status: 'CAPTURED', captured_paise: 2 * PER_COVER, refunded_paise: 0 });

      // The attack: the same account takes the freed covers and is seated, the slot full again.
      t.clock.advance(MINUTE_MS);
      const again = await paidBooking(time, canceller);
      await staffMove(again.id, 'CONFIRMED');
      t.clock.set(startsAt);
      await staffMove(again.id, 'SEATED');
      await staffMove(stays.id, 'SEATED');
      expect(await intentOf(first.intentId), 'the fee is still kept').toMatchObject({ status: 'CAPTURED', captured_paise: 2 * PER_COVER, refunded_paise: 0 });
      // Its money move is still the kept fee, not a waiver waiting to be taken.
      const [deposit] = await queryRows<{ move: string }>(t.database.db, sql`SELECT move FROM reservation_deposits WHERE reservation_id = ${first.id}`);
      expect(deposit!.move).toBe('capture_keep');
      expect(await unbalancedPostings(t.database.db)).toBe(0);
    });
  }
});

describe('the red-team pass on the deposits: malformed and oversized requests', () => {
  it('answers every deposit and money route with broken, wrong-typed, hostile and oversized bodies and ids below 500, changing nothing', async () => {
    const { time } = await nextSlot(place.id, 8);
    const diner = await buildDiner(t.database.db);
    const booking = await paidBooking(time, diner);
    const before = await moneyAndBookings();
    const bodies = [
      '{',
      'null',
      '[]',
      '"x"',
      '{"decision":"maybe"}',
      '{"status":"COMPLETED_AND_REFUNDED"}',
      '{"partySize":-1,"date":"2026-02-30","time":"25:99"}',
      '{"restaurantSlug":{"$ne":null},"partySize":"2"}',
      JSON.stringify({ a: 'x'.repeat(2_000_000) }),
      '\u0000',
    ];
    const ids = [
      booking.id,
      booking.intentId,
      'not-a-uuid',
      '00000000-0000-0000-0000-000000000000',
      '../../etc/passwd',
      `${booking.id}' OR '1'='1`,
      'x'.repeat(300),
    ];
    const routes: [string, (id: string) => string, string | undefined][] = [
      ['POST', () => '/api/reservations', diner.token],
      ['POST', (id) => `/api/reservations/${id}/confirm`, diner.token],
      ['POST', (id) => `/api/reservations/${id}/cancel`, undefined],
      ['POST', (id) => `/api/reservations/${id}/change`, diner.token],
      ['POST', (id) => `/api/payments/sandbox/${id}/decision`, undefined],
      ['POST', () => '/api/payments/webhooks/sandbox', undefined],
      ['PATCH', (id) => `/api/admin/bookings/${id}`, staff.token],
      ['POST', (id) => `/api/admin/bookings/${id}/waive-fee`, staff.token],
      ['POST', (id) => `/api/reminder-links/${id}`, undefined],
      ['GET', (id) => `/api/payments/intents/${id}`, diner.token],
      ['GET', (id) => `/api/admin/deposits?date=${id}`, staff.token],
      ['GET', () => '/api/me/deposits', diner.token],
    ];
    let tried = 0;
    for (const [method, path, token] of routes) {
      for (const id of ids) {
        for (const body of method === 'GET' ? [undefined] : bodies) {
          const answer = await t.app.inject({
            method: method as 'GET' | 'POST' | 'PATCH',
            url: path(encodeURIComponent(id)),
            headers: { ...(token ? bearer(token) : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            payload: body,
          });
          tried += 1;
          expect(answer.statusCode, `${method} ${path(id).slice(0, 60)} ${body?.slice(0, 30)}: ${answer.body.slice(0, 200)}`).toBeLessThan(500);
        }
      }
    }
    await sandbox.settle();
    expect(tried).toBe(ids.length * (9 * bodies.length + 3));
    expect(await moneyAndBookings()).toBe(before);
    expect(await unbalancedPostings(t.database.db)).toBe(0);
  });
});
