import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DATE_ACCOUNT_ID } from '#common/domain/dating-plan.ts';
import { queryRows } from '#server/db/client.ts';
import { buildDatingMember, buildSlot } from '#server/test/factories.ts';
import { acceptAndPay, call, cookieOf, DAY, matchedPair, partner, plansOf, saidYes, setUpDatePlansFixture, t } from './date-plans.test-support.ts';

/**
 * Unpaid date holds are bounded (decision 209; docs/security.md, row 7 of the money-and-dates
 * attack): a member is on one proposed plan at a time, proposed plans take at most a quarter of a
 * restaurant's evening and plans with a new member an eighth, so accounts saying yes to each other
 * cannot shut a restaurant's evening. Besides the fixture's partners, Big Hall in Indiranagar (the
 * members' own neighbourhood, so the first choice) seats 24 at 19:00 tonight.
 */
setUpDatePlansFixture();

let bigHall: { id: string; slotId: string };
beforeAll(async () => {
  const hall = await partner('Big Hall', 'Indiranagar');
  const slot = await buildSlot(t.database.db, hall.id, { date: DAY, time: '19:00', capacity: 24 });
  bigHall = { id: hall.id, slotId: slot.id };
});

type Member = { id: string; cookie: Record<string, string> };

async function members(count: number, name: string): Promise<Member[]> {
  const built: Member[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = await buildDatingMember(t.database.db, {
      name: `${name} ${index}`,
      freeEvenings: ['MON_EARLY'],
      firstDateTypes: ['DINNER'],
      tonightIsFine: true,
    });
    built.push({ id, cookie: await cookieOf(id) });
  }
  return built;
}

/** Members who have been at the table of a date through us: each was marked arrived at a seated date last week (with someone else). */
async function markEstablished(ids: readonly string[]): Promise<void> {
  const past = await buildDatingMember(t.database.db, { name: 'Past Date', freeEvenings: [] });
  const lastWeek = '2026-11-16T13:30:00.000Z';
  for (const id of ids) {
    const [a, b] = id < past ? [id, past] : [past, id];
    const [reservation] = await queryRows<{ id: string }>(
      t.database.db,
      sql`INSERT INTO reservations (user_id, restaurant_id, slot_id, party_size, status, starts_at)
          VALUES (${DATE_ACCOUNT_ID}, ${bigHall.id}, ${bigHall.slotId}, 2, 'COMPLETED', ${lastWeek}) RETURNING id`,
    );
    const [plan] = await queryRows<{ id: string }>(
      t.database.db,
      sql`INSERT INTO dating_plans (member_a, member_b, restaurant_id, reservation_id, starts_at, status, deadline, deposit_paise, created_at, updated_at)
          VALUES (${a}, ${b}, ${bigHall.id}, ${reservation!.id}, ${lastWeek}, 'SEATED', ${lastWeek}, 30000, ${lastWeek}, ${lastWeek}) RETURNING id`,
    );
    await t.database.db.execute(
      sql`INSERT INTO dating_plan_members (plan_id, member_id, arrived_at) VALUES (${plan!.id}, ${a}, ${lastWeek}), (${plan!.id}, ${b}, ${lastWeek})`,
    );
  }
}

/** Proposed plans open now: who is on them and where. */
async function proposedPlans() {
  return queryRows<{ member_a: string; member_b: string; restaurant_id: string }>(
    t.database.db,
    sql`SELECT member_a, member_b, restaurant_id FROM dating_plans WHERE status = 'PROPOSED'`,
  );
}

async function coversHeldAtBigHall(): Promise<number> {
  const [row] = await queryRows<{ covers: number }>(
    t.database.db,
    sql`SELECT coalesce(sum(party_size), 0)::int AS covers FROM reservations WHERE slot_id = ${bigHall.slotId} AND status = 'HELD'`,
  );
  return row!.covers;
}

describe('7. Six new dating accounts say yes to each other', () => {
  it('gives each member one unpaid plan at a time, and new members one table of a restaurant’s evening: Big Hall keeps 22 of its 24 seats on sale', async () => {
    const six = await members(6, 'New');
    for (const [index, one] of six.entries()) for (const other of six.slice(index + 1)) await saidYes(one.id, other.id);
    // All six list their plans at once (on PostgreSQL, in parallel transactions).
    await Promise.all(six.map((member) => plansOf(member)));
    await Promise.all(six.map((member) => plansOf(member)));

    const proposed = await proposedPlans();
    for (const member of six) expect(proposed.filter((plan) => plan.member_a === member.id || plan.member_b === member.id).length).toBeLessThanOrEqual(1);
    // One plan of new members per restaurant evening: Big Hall, Candle Light Cafe and Far Away Grill (Gold Leaf is out of budget).
    const perRestaurant = new Map<string, number>();
    for (const plan of proposed) perRestaurant.set(plan.restaurant_id, (perRestaurant.get(plan.restaurant_id) ?? 0) + 1);
    expect([...perRestaurant.values()]).toEqual([1, 1, 1]);
    expect(await coversHeldAtBigHall()).toBe(2);
  });

  it('proposes a member’s next match once their plan closes, and a plan both paid for frees its share of the evening', async () => {
    const [asha, first, second, dev] = await members(4, 'Member');
    await saidYes(asha!.id, first!.id);
    await saidYes(asha!.id, second!.id);
    const [plan] = (await plansOf(asha!)).plans;
    expect((await plansOf(asha!)).plans).toHaveLength(1);
    const [proposed] = await proposedPlans();
    const [partnerOnPlan, waiting] = [proposed!.member_a, proposed!.member_b].includes(first!.id) ? [first!, second!] : [second!, first!];
    expect((await plansOf(waiting)).plans).toEqual([]);

    expect((await call('POST', `/dating/plans/${plan!.id}/decline`, partnerOnPlan.cookie)).statusCode).toBe(200);
    const [next] = (await plansOf(waiting)).plans;
    expect(next).toMatchObject({ status: 'PROPOSED', restaurant: { name: 'Big Hall' } });

    // Dev and the member who declined, new too, find Big Hall's share for new members taken: their plan goes elsewhere.
    await saidYes(dev!.id, partnerOnPlan.id);
    expect((await plansOf(dev!)).plans[0]!.restaurant.name).not.toBe('Big Hall');
    // Once Asha and her next match have both paid, the table is booked and no longer an unpaid hold: a new pair gets Big Hall.
    await acceptAndPay(asha!, next!.id);
    await acceptAndPay(waiting, next!.id);
    const newcomers = await matchedPair();
    expect((await plansOf(newcomers.asha)).plans[0]!.restaurant.name).toBe('Big Hall');
  });

  it('lets members who have been to a date hold at most a quarter of the evening: 6 of Big Hall’s 24 seats', async () => {
    const eight = await members(8, 'Regular');
    await markEstablished(eight.map((member) => member.id));
    for (let index = 0; index < 8; index += 2) await saidYes(eight[index]!.id, eight[index + 1]!.id);
    await Promise.all(eight.map((member) => plansOf(member)));

    const proposed = await proposedPlans();
    expect(proposed).toHaveLength(4);
    expect(proposed.filter((plan) => plan.restaurant_id === bigHall.id)).toHaveLength(3);
    expect(await coversHeldAtBigHall()).toBe(6);
    // A new pair now finds no room there at all.
    const newcomers = await matchedPair();
    expect((await plansOf(newcomers.asha)).plans[0]!.restaurant.name).not.toBe('Big Hall');
  });
});
