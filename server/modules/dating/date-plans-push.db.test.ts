import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatingNotificationPreferences, PushSubscriptionAnswer } from '#common/contract/push.ts';
import { queryRows } from '#server/db/client.ts';
import { bearer, TEST_NOW } from '#server/test/app.ts';
import { buildDiner } from '#server/test/factories.ts';
import { browserKeys, decryptPush, startFakePushService, type FakePushService } from '#server/test/fake-push-service.ts';
import { createDatingErasure } from './dating-erasure.ts';
import { acceptAndPay, call, matchedPair, plansOf, setUpDatePlansFixture, sweep, t } from './date-plans.test-support.ts';

/**
 * Date-plan changes by push (decisions 219, 227): a dating member's browser subscribes through the
 * member's own session; each change of a plan is written to the outbox as one push per member to
 * be told (never the member whose doing it was), sent through web-push to a local push service,
 * encrypted for that browser and opening the plan's screen. A member with no subscribed browser
 * gets nothing new. The member's subscriptions go with their account.
 */
setUpDatePlansFixture();

let pushService: FakePushService;
beforeAll(async () => {
  pushService = await startFakePushService();
});
afterAll(async () => {
  await pushService?.close();
});
beforeEach(() => {
  pushService.requests.length = 0;
});

type Member = { id: string; cookie: Record<string, string> };
type Browser = ReturnType<typeof browserKeys>;

async function subscribe(member: Member, device: string): Promise<Browser> {
  const keys = browserKeys();
  const answer = await call('POST', '/dating/me/push-subscriptions', member.cookie, { endpoint: pushService.endpoint(device), keys: keys.json });
  expect(answer.statusCode, answer.body).toBe(201);
  return keys;
}

/** The date-plan pushes written for a member: title, link and status, oldest first. */
const pushesTo = (member: Member) =>
  queryRows<{ channel: string; subject: string; link: string; kind: string; delivery_status: string; user_id: string | null }>(
    t.database.db,
    sql`SELECT channel, subject, link, kind, delivery_status, user_id FROM outbox_messages WHERE recipient = ${`dating:${member.id}`} ORDER BY created_at, subject`,
  );

/** Every message of any kind, on any channel, that names a member's account or phone. */
async function anyMessageTo(member: Member): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    t.database.db,
    sql`SELECT count(*)::int AS count FROM outbox_messages
        WHERE recipient IN (${`dating:${member.id}`}, ${member.id}, (SELECT phone FROM dating_users WHERE id = ${member.id}))`,
  );
  return row!.count;
}

/** Waits for the pushes sent after commit to reach the local push service, and answers what each browser decrypts. */
async function received(count: number, browsers: Record<string, Browser>): Promise<{ device: string; title: string; body: string; url: string }[]> {
  await expect.poll(() => pushService.requests.length, { timeout: 5_000 }).toBe(count);
  return pushService.requests.map((request) => {
    const device = request.path.replace('/push/', '');
    return { device, ...(JSON.parse(decryptPush(request.body, browsers[device]!)) as { title: string; body: string; url: string }) };
  });
}

describe("a dating member's browsers", () => {
  it('subscribe through the member session only; one browser keeps a diner and a dating member apart', async () => {
    const { asha } = await matchedPair();
    const diner = await buildDiner(t.database.db);
    const keys = browserKeys().json;
    const endpoint = pushService.endpoint('shared-phone');
    // A diner's bearer token is no dating session.
    const asDiner = await t.app.inject({ method: 'POST', url: '/dating/me/push-subscriptions', headers: bearer(diner.token), payload: { endpoint, keys } });
    expect(asDiner.statusCode).toBe(401);
    expect((await call('POST', '/dating/me/push-subscriptions', asha.cookie, { endpoint, keys })).json<PushSubscriptionAnswer>()).toEqual({
      subscribed: true,
      devices: 1,
    });
    // The same browser subscribed by the diner too: both keep it (decision 219).
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/me/push-subscriptions', headers: bearer(diner.token), payload: { endpoint, keys } })).statusCode,
    ).toBe(201);
    const owners = await queryRows<{ user_id: string | null; dating_user_id: string | null }>(
      t.database.db,
      sql`SELECT user_id, dating_user_id FROM push_subscriptions WHERE endpoint = ${endpoint} ORDER BY user_id NULLS FIRST`,
    );
    expect(owners).toEqual([
      { user_id: null, dating_user_id: asha.id },
      { user_id: diner.id, dating_user_id: null },
    ]);
    const query = `/dating/me/notification-preferences?endpoint=${encodeURIComponent(endpoint)}`;
    expect((await call('GET', query, asha.cookie)).json<DatingNotificationPreferences>()).toEqual({
      push: true,
      pushEnabled: true,
      pushDevices: 1,
      thisDevice: true,
    });
    const off = await call('PUT', query, asha.cookie, { push: false });
    expect(off.json<DatingNotificationPreferences>()).toMatchObject({ push: false, pushDevices: 1 });
    // Signing out of dating removes the member's subscription of this browser, not the diner's.
    const gone = await call('DELETE', '/dating/me/push-subscriptions', asha.cookie, { endpoint });
    expect(gone.json<PushSubscriptionAnswer>()).toEqual({ subscribed: false, devices: 0 });
    expect(await queryRows(t.database.db, sql`SELECT 1 FROM push_subscriptions WHERE endpoint = ${endpoint}`)).toHaveLength(1);
  });

  it("go with the member's erased account", async () => {
    const { asha } = await matchedPair();
    await subscribe(asha, 'asha-erased');
    await call('PUT', '/dating/me/notification-preferences', asha.cookie, { push: true });
    const [{ phone }] = (await queryRows<{ phone: string }>(t.database.db, sql`SELECT phone FROM dating_users WHERE id = ${asha.id}`)) as [{ phone: string }];
    const erasure = createDatingErasure(t.app.services.storage, t.app.services.push);
    await t.database.db.transaction((tx) => erasure.eraseMemberOnPhone(tx, phone, new Date(TEST_NOW)));
    expect(await queryRows(t.database.db, sql`SELECT 1 FROM push_subscriptions WHERE dating_user_id = ${asha.id}`)).toEqual([]);
    expect(await queryRows(t.database.db, sql`SELECT 1 FROM notification_preferences WHERE dating_user_id = ${asha.id}`)).toEqual([]);
  });
});

describe('date-plan changes by push', () => {
  it('a proposed plan, a yes and a booking reach the subscribed member, opening the plan; nothing reaches a member without a browser', async () => {
    const { asha, ravi } = await matchedPair();
    const ashaPhone = await subscribe(asha, 'asha-phone');

    const [plan] = (await plansOf(asha)).plans;
    const link = `/dating/app?plan=${plan!.id}`;
    const [proposed] = await received(1, { 'asha-phone': ashaPhone });
    expect(proposed).toEqual({
      device: 'asha-phone',
      title: 'A date plan for you and Ravi',
      body: expect.stringContaining('Candle Light Cafe'),
      url: link,
      tag: expect.stringMatching(/^datePlan-/),
    });

    await acceptAndPay(ravi, plan!.id);
    await acceptAndPay(asha, plan!.id);
    const all = await received(3, { 'asha-phone': ashaPhone });
    expect(all.map((push) => [push.title, push.url])).toEqual([
      ['A date plan for you and Ravi', link],
      ['Ravi said yes to your date', link],
      ['Your date with Ravi is booked', link],
    ]);
    // Marked sent once the push service answered (a moment after it received the request).
    await expect
      .poll(async () => (await pushesTo(asha)).map((row) => [row.channel, row.kind, row.delivery_status, row.user_id]))
      .toEqual([
        ['push', 'datePlan', 'sent', null],
        ['push', 'datePlan', 'sent', null],
        ['push', 'datePlan', 'sent', null],
      ]);
    // Ravi subscribed nothing: no push is written for him, and no other channel either (decision 227).
    expect(await anyMessageTo(ravi)).toBe(0);
  });

  it('a decline tells only the other member, and a block closes the plan without telling the blocker', async () => {
    const { asha, ravi } = await matchedPair();
    const browsers = { 'asha-laptop': await subscribe(asha, 'asha-laptop'), 'ravi-phone': await subscribe(ravi, 'ravi-phone') };
    const [plan] = (await plansOf(asha)).plans;
    await received(2, browsers);
    expect((await call('POST', `/dating/plans/${plan!.id}/decline`, ravi.cookie)).statusCode).toBe(200);
    const afterDecline = await received(3, browsers);
    expect(afterDecline[2]).toMatchObject({ device: 'asha-laptop', title: 'Your date plan at Candle Light Cafe is off', url: `/dating/app?plan=${plan!.id}` });
    expect(afterDecline[2]!.body).toContain('Ravi declined it');

    // Another pair's plan closed by a block: only the blocked member hears that it is off, and not why.
    const other = await matchedPair({ name: 'Meera Iyer' }, { name: 'Kiran Das' });
    const devices = { ...browsers, 'meera-phone': await subscribe(other.asha, 'meera-phone'), 'kiran-phone': await subscribe(other.ravi, 'kiran-phone') };
    const [second] = (await plansOf(other.asha)).plans;
    await received(5, devices);
    expect((await call('POST', `/dating/suggestions/${other.ravi.id}/block`, other.asha.cookie, {})).statusCode).toBe(204);
    const afterBlock = await received(6, devices);
    expect(afterBlock[5]).toMatchObject({ device: 'kiran-phone', title: expect.stringMatching(/is off$/), url: `/dating/app?plan=${second!.id}` });
    expect(afterBlock[5]!.body).not.toMatch(/block|report/i);
  });

  it('goes once per member however often the change is seen: a lapsed plan swept twice', async () => {
    const { asha, ravi } = await matchedPair();
    const browsers = { 'asha-tab': await subscribe(asha, 'asha-tab'), 'ravi-tab': await subscribe(ravi, 'ravi-tab') };
    await plansOf(asha);
    await received(2, browsers);
    t.clock.set(new Date(new Date(TEST_NOW).getTime() + 25 * 3_600_000));
    await sweep();
    await sweep();
    const lapsed = (await received(4, browsers)).slice(2);
    expect(lapsed.map((push) => push.device).sort()).toEqual(['asha-tab', 'ravi-tab']);
    expect(lapsed.every((push) => push.title.endsWith('has lapsed'))).toBe(true);
    expect((await pushesTo(asha)).filter((row) => row.subject.endsWith('has lapsed'))).toHaveLength(1);
  });

  it('sends nothing to a member who turned push off', async () => {
    const { asha } = await matchedPair();
    await subscribe(asha, 'asha-off');
    expect((await call('PUT', '/dating/me/notification-preferences', asha.cookie, { push: false })).statusCode).toBe(200);
    await plansOf(asha);
    expect(await pushesTo(asha)).toEqual([]);
  });
});
