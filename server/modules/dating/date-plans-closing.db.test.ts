import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { DatePlan, DatePlanShareLink } from '#common/contract/dating-plans.ts';
import { queryRows } from '#server/db/client.ts';
import { bearer } from '#server/test/app.ts';
import { buildDiner } from '#server/test/factories.ts';
import {
  acceptAndPay,
  bookedPair,
  call,
  intent,
  matchedPair,
  plansOf,
  reservationOf,
  sandbox,
  setUpDatePlansFixture,
  sweep,
  t,
} from './date-plans.test-support.ts';

/**
 * Date plans closing before their date, on a real database, through HTTP and the sandbox gateway
 * (decisions 205, 207, 208; docs/security.md, rows 3, 6 and 10 of the money-and-dates attack). "Now" is Monday 2026-11-23, 10:00 in Kolkata; the members are free on Monday
 * evenings, so tonight's 19:00 is the first table that fits.
 */
setUpDatePlansFixture();

describe('3. A report or block against a date partner leaves the plan open', () => {
  async function strikesOf(member: { cookie: Record<string, string> }) {
    return (await plansOf(member)).strikes;
  }

  it('a report closes a booked plan with nobody at fault: both deposits released, no strike, no payout, the table back on sale', async () => {
    const { plan, asha, ravi, ashaIntent, raviIntent } = await bookedPair();
    // Within 24 hours of the start: a cancel now would be a flake.
    const reported = await call('POST', `/dating/suggestions/${ravi.id}/report`, asha.cookie, { reason: 'HARASSMENT', note: '' });
    expect(reported.statusCode, reported.body).toBe(204);
    await sandbox.settle();

    expect((await reservationOf(plan.id))!.status).toBe('CANCELLED');
    for (const id of [ashaIntent, raviIntent]) expect(await intent(id)).toMatchObject({ status: 'RELEASED', capturedPaise: 0 });
    const cancel = await call('POST', `/dating/plans/${plan.id}/cancel`, asha.cookie);
    expect(cancel.statusCode).toBe(409);
    await sandbox.settle();
    expect((await plansOf(asha)).plans[0]).toMatchObject({ status: 'CANCELLED', flaked: null, payoutToMe: null });
    expect((await plansOf(ravi)).plans[0]).toMatchObject({ status: 'CANCELLED', flaked: null, payoutToMe: null });
    expect(await strikesOf(asha)).toBe(0);
    expect(await strikesOf(ravi)).toBe(0);
    const [payouts] = await queryRows<{ count: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS count FROM payouts WHERE source_intent_id IN (${ashaIntent}, ${raviIntent})`,
    );
    expect(payouts!.count).toBe(0);
  });

  it('a block closes a proposed plan, the paid deposit is released, and the blocked member can no longer accept or pay', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const raviIntent = await acceptAndPay(pair.ravi, plan!.id);
    const blocked = await call('POST', `/dating/suggestions/${pair.ravi.id}/block`, pair.asha.cookie);
    expect(blocked.statusCode, blocked.body).toBe(204);
    await sandbox.settle();

    expect((await reservationOf(plan!.id))!.status).toBe('CANCELLED');
    expect(await intent(raviIntent)).toMatchObject({ status: 'RELEASED' });
    for (const member of [pair.asha, pair.ravi]) {
      const accept = await call('POST', `/dating/plans/${plan!.id}/accept`, member.cookie);
      expect(accept.statusCode).toBe(409);
      expect(await strikesOf(member)).toBe(0);
    }
    expect((await plansOf(pair.ravi)).plans.map((p) => p.status)).toEqual(['DECLINED']);
  });

  it('the sweep closes a plan between a blocked pair that a block left open (a listener that never ran)', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    await t.database.db.execute(sql`INSERT INTO dating_blocks (blocker_id, blocked_id) VALUES (${pair.ravi.id}, ${pair.asha.id})`);
    await sweep();
    expect((await reservationOf(plan!.id))!.status).toBe('CANCELLED');
    expect((await plansOf(pair.asha)).plans.map((p) => p.status)).toEqual(['DECLINED']);
  });
});

describe('6. The platform’s hold for a proposed date cancelled by its bare id', () => {
  it('does not let anyone but the plan move or read the platform’s date hold by its id, with or without a diner token', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const held = await reservationOf(plan!.id);
    const diner = await buildDiner(t.database.db);
    for (const headers of [{}, bearer(diner.token)]) {
      for (const action of ['cancel', 'confirm']) {
        const moved = await call('POST', `/api/reservations/${held!.id}/${action}`, headers);
        expect(moved.statusCode, `${action} ${moved.body}`).toBe(404);
      }
      expect((await call('GET', `/api/reservations/${held!.id}`, headers)).statusCode).toBe(404);
    }
    expect((await reservationOf(plan!.id))!.status).toBe('HELD');
    expect((await plansOf(pair.asha)).plans[0]!.status).toBe('PROPOSED');
  });

  it('closes a proposed plan whose hold goes any other way, releasing the deposit already paid', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const ashaIntent = await acceptAndPay(pair.asha, plan!.id);
    const held = await reservationOf(plan!.id);
    // Any code path that cancels the hold without its plan (as the bare-id cancel once did).
    await t.app.services.reservations.moveReservation({ id: held!.id, to: 'CANCELLED', cause: { kind: 'diner', userId: null }, authorise: () => {} });
    await sandbox.settle();
    expect(await intent(ashaIntent)).toMatchObject({ status: 'RELEASED' });
    expect((await plansOf(pair.ravi)).plans[0]!.status).toBe('DECLINED');
    expect((await call('POST', `/dating/plans/${plan!.id}/accept`, pair.ravi.cookie)).statusCode).toBe(409);
    expect((await plansOf(pair.ravi)).strikes).toBe(0);
  });
});

describe('10. A declined plan’s share link still answers', () => {
  it('ends a share link when its plan is declined, and when a booked plan is cancelled', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const token = (await call('POST', `/dating/plans/${plan!.id}/share`, pair.asha.cookie)).json<DatePlanShareLink>().path.replace('/dating/share/', '');
    expect((await call('GET', `/api/date-share/${token}`, {})).statusCode).toBe(200);
    expect((await call('POST', `/dating/plans/${plan!.id}/decline`, pair.ravi.cookie)).statusCode).toBe(200);
    const ended = await call('GET', `/api/date-share/${token}`, {});
    expect(ended.statusCode).toBe(404);
    expect(ended.json<{ error: string }>().error).toBe('This date plan has ended, so this link no longer works.');

    await t.database.db.execute(sql`DELETE FROM dating_plans`);
    await t.database.db.execute(sql`DELETE FROM dating_users`);
    const booked = await bookedPair();
    const bookedToken = (await call('POST', `/dating/plans/${booked.plan.id}/share`, booked.ravi.cookie))
      .json<DatePlanShareLink>()
      .path.replace('/dating/share/', '');
    // A booked plan closed (here by a block, nobody at fault): its link ends too.
    expect((await call('GET', `/api/date-share/${bookedToken}`, {})).statusCode).toBe(200);
    await t.app.services.datePlans.onPairBlocked(booked.asha.id, booked.ravi.id);
    expect((await call('GET', `/api/date-share/${bookedToken}`, {})).statusCode).toBe(404);
  });

  it('lets the member stop sharing: every link they made for the plan ends at once, their partner’s stays, and anyone else is told 404', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    expect(plan!.sharing).toBe(false);
    const linkOf = async (member: { cookie: Record<string, string> }) =>
      (await call('POST', `/dating/plans/${plan!.id}/share`, member.cookie)).json<DatePlanShareLink>().path.replace('/dating/share/', '');
    const [first, second, ravis] = [await linkOf(pair.asha), await linkOf(pair.asha), await linkOf(pair.ravi)];
    expect((await plansOf(pair.asha)).plans[0]!.sharing).toBe(true);

    const stranger = await matchedPair({ freeEvenings: ['SUN_LATE'] });
    expect((await call('DELETE', `/dating/plans/${plan!.id}/share`, stranger.asha.cookie)).statusCode).toBe(404);
    expect((await call('DELETE', `/dating/plans/${plan!.id}/share`, {})).statusCode).toBe(401);
    expect((await call('GET', `/api/date-share/${first}`, {})).statusCode).toBe(200);

    const stopped = await call('DELETE', `/dating/plans/${plan!.id}/share`, pair.asha.cookie);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json<DatePlan>()).toMatchObject({ id: plan!.id, status: 'PROPOSED', sharing: false });
    for (const token of [first, second]) {
      const ended = await call('GET', `/api/date-share/${token}`, {});
      expect(ended.statusCode).toBe(404);
      expect(ended.json<{ error: string }>().error).toBe('This link no longer works: the person who shared it has stopped sharing.');
    }
    // Ravi's own link is his to stop; a new link of Asha's works again.
    expect((await call('GET', `/api/date-share/${ravis}`, {})).statusCode).toBe(200);
    expect((await call('GET', `/api/date-share/${await linkOf(pair.asha)}`, {})).statusCode).toBe(200);
  });
});
