import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { DatePlanShareLink } from '#common/contract/dating-plans.ts';
import { queryRows } from '#server/db/client.ts';
import { unbalancedPostings } from '#server/modules/payments/payments.test-support.ts';
import { bearer } from '#server/test/app.ts';
import { buildDiner } from '#server/test/factories.ts';
import { acceptAndPay, bookedPair, call, matchedPair, near, plansOf, sandbox, setUpDatePlansFixture, t } from './date-plans.test-support.ts';

/**
 * The red-team pass over HTTP on the date plans' money routes, run again after the fixes
 * (docs/security.md, "The red-team pass, again"): forged webhooks, tampered and foreign share
 * links, other members and other restaurants, malformed and oversized bodies, and races of
 * accept, decline, cancel and a report in parallel. Each attack is counted; what must hold is
 * asserted: no 5xx, the ledger balanced and unchanged by forgeries, no plan in two states.
 */
setUpDatePlansFixture();

async function ledgerRows(): Promise<number> {
  const [row] = await queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM ledger_lines`);
  return row!.count;
}

describe('the red-team pass on date plans and their money, again', () => {
  it('refuses 40 forged webhooks with 400 and leaves the ledger as it was', async () => {
    const pair = await matchedPair();
    const [plan] = (await plansOf(pair.asha)).plans;
    const accepted = (await call('POST', `/dating/plans/${plan!.id}/accept`, pair.asha.cookie)).json<{ payment: { intentId: string } }>();
    const before = await ledgerRows();
    const forgeries = Array.from({ length: 40 }, (_, index) => ({
      signature: index % 4 === 0 ? '' : index % 4 === 1 ? 'sha256=00' : index % 4 === 2 ? 'x'.repeat(64) : `t=1,v1=${'ab'.repeat(32)}`,
      body: JSON.stringify({
        id: `evt_forged_${index}`,
        intentId: accepted.payment.intentId,
        status: index % 2 ? 'AUTHORISED' : 'CAPTURED',
        amountPaise: 30_000,
      }),
    }));
    for (const forged of forgeries) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/payments/webhooks/sandbox',
        headers: { 'content-type': 'application/json', 'x-sandbox-signature': forged.signature, 'x-sandbox-event-id': `evt_${forged.signature.length}` },
        payload: forged.body,
      });
      expect(answer.statusCode, answer.body).toBe(400);
    }
    expect(await ledgerRows()).toBe(before);
    expect((await t.app.services.payments.readIntent(accepted.payment.intentId)).status).toBe('CREATED');
  });

  it('answers tampered, truncated and foreign share links, other members and other restaurants without a leak or a 5xx', async () => {
    const { plan, asha } = await bookedPair();
    const token = (await call('POST', `/dating/plans/${plan.id}/share`, asha.cookie)).json<DatePlanShareLink>().path.replace('/dating/share/', '');
    const variants = [
      token.slice(0, -1),
      `${token}A`,
      token.split('').reverse().join(''),
      `${token.slice(0, 5)}${token[5] === 'a' ? 'b' : 'a'}${token.slice(6)}`,
      'A'.repeat(token.length),
      '%00'.repeat(10),
      'x'.repeat(500),
    ];
    for (const variant of variants) {
      const answer = await call('GET', `/api/date-share/${variant}`, {});
      // 414 is the server's own refusal of an address longer than it reads.
      expect([400, 404, 414], `${variant.slice(0, 40)}: ${answer.body}`).toContain(answer.statusCode);
      expect(answer.body).not.toContain('Candle Light');
    }
    // Another member, a diner, another restaurant's staff, nobody: every plan route refuses.
    const stranger = await matchedPair({ freeEvenings: ['SUN_LATE'] });
    const diner = await buildDiner(t.database.db);
    for (const path of ['accept', 'decline', 'another', 'cancel', 'share']) {
      expect((await call('POST', `/dating/plans/${plan.id}/${path}`, stranger.asha.cookie)).statusCode).toBe(404);
      expect((await call('POST', `/dating/plans/${plan.id}/${path}`, bearer(diner.token))).statusCode).toBe(401);
    }
    expect((await call('DELETE', `/dating/plans/${plan.id}/share`, stranger.asha.cookie)).statusCode).toBe(404);
    expect((await call('GET', `/api/reservations/${plan.id}`, bearer(diner.token))).statusCode).toBe(404);
    const otherStaff = await call('POST', `/api/admin/dates/${plan.id}/arrivals`, bearer(near.staff.token), { memberId: asha.id });
    expect(otherStaff.statusCode).not.toBeGreaterThanOrEqual(500);
  });

  it('answers malformed and oversized requests on every plan route with a 4xx, never a 5xx', async () => {
    const { plan, asha } = await bookedPair();
    const bodies: (string | undefined)[] = [
      '{',
      'null',
      '[]',
      '"x"',
      JSON.stringify({ showedUp: 'yes' }),
      JSON.stringify({ a: 'x'.repeat(2_000_000) }),
      '\u0000',
    ];
    const ids = [plan.id, 'not-a-uuid', '00000000-0000-0000-0000-000000000000', '../../etc/passwd', 'x'.repeat(300)];
    let tried = 0;
    for (const id of ids) {
      for (const [method, path] of [
        ['POST', 'accept'],
        ['POST', 'decline'],
        ['POST', 'cancel'],
        ['POST', 'share'],
        ['PUT', 'after-date'],
        ['DELETE', 'share'],
      ] as const) {
        for (const body of bodies) {
          const answer = await t.app.inject({
            method,
            url: `/dating/plans/${encodeURIComponent(id)}/${path}`,
            headers: { ...asha.cookie, 'content-type': 'application/json' },
            payload: body,
          });
          tried += 1;
          expect(answer.statusCode, `${method} ${path} ${id} ${body?.slice(0, 20)}: ${answer.body.slice(0, 200)}`).toBeLessThan(500);
        }
      }
    }
    expect(tried).toBe(ids.length * 6 * bodies.length);
  });

  it('runs accept, decline, cancel and a report in parallel on one plan and leaves one consistent outcome, the ledger balanced', async () => {
    for (let round = 0; round < 3; round += 1) {
      await t.database.db.execute(sql`DELETE FROM dating_plans`);
      await t.database.db.execute(sql`DELETE FROM reservations`);
      const pair = await matchedPair();
      const [plan] = (await plansOf(pair.asha)).plans;
      await acceptAndPay(pair.asha, plan!.id);
      const answers = await Promise.all([
        call('POST', `/dating/plans/${plan!.id}/accept`, pair.ravi.cookie),
        call('POST', `/dating/plans/${plan!.id}/decline`, pair.ravi.cookie),
        call('POST', `/dating/plans/${plan!.id}/cancel`, pair.asha.cookie),
        round === 2 ? call('POST', `/dating/suggestions/${pair.ravi.id}/report`, pair.asha.cookie, { reason: 'OTHER', note: '' }) : Promise.resolve(undefined),
      ]);
      for (const answer of answers) if (answer) expect(answer.statusCode, answer.body).toBeLessThan(500);
      await sandbox.settle();
      const [row] = await queryRows<{ plan: string; reservation: string }>(
        t.database.db,
        sql`SELECT p.status AS plan, r.status AS reservation FROM dating_plans p JOIN reservations r ON r.id = p.reservation_id WHERE p.id = ${plan!.id}`,
      );
      // A closed plan's table is cancelled; an open one's is still held or booked.
      const tableFor: Record<string, string[]> = { DECLINED: ['CANCELLED'], CANCELLED: ['CANCELLED'], PROPOSED: ['HELD'], BOOKED: ['CONFIRMED'] };
      expect(tableFor[row!.plan], JSON.stringify(row)).toContain(row!.reservation);
      expect(await unbalancedPostings(t.database.db)).toBe(0);
    }
  });
});
