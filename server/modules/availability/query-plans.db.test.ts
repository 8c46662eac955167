import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { kolkataInstant } from '#common/domain/time.ts';
import { queryRows, type Db } from '#server/db/client.ts';
import {
  countActiveHolds,
  countCoversTaken,
  countReservationsByStatus,
  findReservation,
  hasLiveReservationAt,
  listHoldStartsSince,
  listReservationsOfUser,
  lockSlot,
  readDinerBookingCounts,
} from '#server/modules/reservations/reservations.repository.ts';
import { createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, type BuiltRestaurant } from '#server/test/factories.ts';
import { listOpenSlotsBetween, listSlotAvailability, listSlotsForCache } from './availability.repository.ts';

/**
 * Every list and availability read is one query that reaches slots and reservations through an
 * index. The repositories' own SQL is run under EXPLAIN (in the same transaction, with
 * enable_seqscan off, over ~11 000 slots and ~32 000 reservations): a Seq Scan on either table,
 * or an index read with no index condition (a whole-index walk), fails the test. The same
 * queries' results are checked on a small known data set.
 */
let t: TestApp;
let target: BuiltRestaurant;
let userId: string;
const reservationIds: Record<string, string> = {};
const slotIds: Record<string, string> = {};
const now = new Date(TEST_NOW); // 10:00 on 2026-11-23 in Kolkata
const CUTOFF = 30;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  // Filler: 60 restaurants × 30 days × 6 times, 3 reservations per slot across 300 diners.
  await db.execute(sql`INSERT INTO restaurants (slug, name) SELECT 'filler-' || g, 'Filler ' || g FROM generate_series(1, 60) g`);
  await db.execute(sql`
    INSERT INTO slots (restaurant_id, slot_date, slot_time, starts_at, capacity)
    SELECT r.id, d::date, tm, ((d::date + tm::time) - interval '330 minutes') AT TIME ZONE 'UTC', 20
    FROM restaurants r
    CROSS JOIN generate_series('2026-11-23'::date, '2026-12-22'::date, interval '1 day') d
    CROSS JOIN unnest(ARRAY['12:00', '13:00', '19:00', '19:30', '20:00', '21:00']) tm
    WHERE r.slug LIKE 'filler-%'`);
  await db.execute(sql`INSERT INTO users (username, password_hash) SELECT 'filler_' || g, 'x' FROM generate_series(1, 300) g`);
  await db.execute(sql`
    WITH u AS (SELECT array_agg(id ORDER BY username) AS ids FROM users WHERE username LIKE 'filler\\_%')
    INSERT INTO reservations (user_id, restaurant_id, slot_id, party_size, status, hold_expires_at, starts_at)
    SELECT u.ids[1 + abs(hashtext(s.id::text || g::text)) % 300], s.restaurant_id, s.id, 2,
           (ARRAY['HELD', 'PENDING', 'CONFIRMED', 'SEATED', 'COMPLETED', 'CANCELLED', 'NO_SHOW'])[1 + (abs(hashtext(s.id::text || g::text)) % 7)],
           ${new Date(now.getTime() + 5 * 60_000).toISOString()}::timestamptz, s.starts_at
    FROM slots s CROSS JOIN generate_series(1, 3) g CROSS JOIN u
    WHERE s.restaurant_id IN (SELECT id FROM restaurants WHERE slug LIKE 'filler-%')`);

  // The known data set.
  target = await buildRestaurant(db);
  const diner = await buildDiner(db);
  userId = diner.id;
  for (const [key, date, time, capacity] of [
    ['24-12', '2026-11-24', '12:00', 4],
    ['24-19', '2026-11-24', '19:00', 8],
    ['25-19', '2026-11-25', '19:00', 8],
    ['20-19', '2026-11-20', '19:00', 8],
  ] as const) {
    slotIds[key] = (await buildSlot(db, target.id, { date, time, capacity })).id;
  }
  const reserve = async (key: string, slot: string, status: string, partySize: number, holdExpiresAt: Date | null) => {
    const [date, time] = {
      '24-12': ['2026-11-24', '12:00'],
      '24-19': ['2026-11-24', '19:00'],
      '25-19': ['2026-11-25', '19:00'],
      '20-19': ['2026-11-20', '19:00'],
    }[slot]!;
    const [row] = await queryRows<{ id: string }>(
      db,
      sql`INSERT INTO reservations (user_id, restaurant_id, slot_id, party_size, status, hold_expires_at, starts_at, created_at)
          VALUES (${userId}, ${target.id}, ${slotIds[slot]}, ${partySize}, ${status}, ${holdExpiresAt?.toISOString() ?? null},
                  ${kolkataInstant(date, time).toISOString()}, ${now.toISOString()}) RETURNING id`,
    );
    reservationIds[key] = row.id;
  };
  await reserve('pending', '24-19', 'PENDING', 3, null);
  await reserve('held', '24-12', 'HELD', 2, new Date(now.getTime() + 5 * 60_000));
  await reserve('expired', '25-19', 'HELD', 2, new Date(now.getTime() - 60_000));
  await reserve('completed', '20-19', 'COMPLETED', 2, null);
  await db.execute(sql`ANALYZE`);
}, 180_000);
afterAll(() => t.close());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

function* walk(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* walk(child);
}

/** The scans of slots and reservations in a plan that do not narrow by an index condition. */
function unindexedScans(plan: PlanNode): string[] {
  const problems: string[] = [];
  for (const node of walk(plan)) {
    if (node['Node Type'] === 'Bitmap Heap Scan' && ['slots', 'reservations'].includes(node['Relation Name'] ?? '')) {
      const indexes = [...walk(node)].filter((child) => child['Node Type'] === 'Bitmap Index Scan');
      if (indexes.length === 0 || indexes.some((child) => !child['Index Cond']))
        problems.push(`${node['Node Type']} on ${node['Relation Name']} without an index condition`);
      continue;
    }
    if (!['slots', 'reservations'].includes(node['Relation Name'] ?? '')) continue;
    if (node['Node Type'] === 'Seq Scan') problems.push(`Seq Scan on ${node['Relation Name']}`);
    else if (['Index Scan', 'Index Only Scan'].includes(node['Node Type']) && !node['Index Cond']) {
      problems.push(`${node['Node Type']} on ${node['Relation Name']} (${node['Index Name']}) reads the whole index`);
    }
  }
  return problems;
}

/**
 * Runs `read` against a Db that EXPLAINs every statement before running it, inside one
 * transaction with sequential scans priced out, and rolls it back.
 */
async function plansOf<T>(read: (db: Db) => Promise<T>): Promise<{ result: T; plans: PlanNode[] }> {
  const plans: PlanNode[] = [];
  let result: T | undefined;
  const rollback = new Error('rollback');
  await t.database.db
    .transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const explaining = new Proxy(tx, {
        get(target, property, receiver) {
          if (property !== 'execute') return Reflect.get(target, property, receiver);
          return async (query: SQL) => {
            const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(tx, sql`EXPLAIN (FORMAT JSON) ${query}`);
            const document = typeof row['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row['QUERY PLAN'];
            plans.push((document as { Plan: PlanNode }[])[0].Plan);
            return tx.execute(query);
          };
        },
      });
      result = await read(explaining as Db);
      throw rollback;
    })
    .catch((error) => {
      if (error !== rollback) throw error;
    });
  return { result: result as T, plans };
}

async function expectOneIndexedQuery<T>(read: (db: Db) => Promise<T>): Promise<T> {
  const { result, plans } = await plansOf(read);
  expect(plans).toHaveLength(1);
  const tables = [...walk(plans[0])].map((node) => node['Relation Name']).filter((name) => name === 'slots' || name === 'reservations');
  expect(tables.length, 'the plan reads slots or reservations').toBeGreaterThan(0);
  expect(unindexedScans(plans[0]), JSON.stringify(plans[0])).toEqual([]);
  return result;
}

describe('availability reads', () => {
  it('lists one date’s slots with their free covers through the indexes', async () => {
    const rows = await expectOneIndexedQuery((db) => listSlotAvailability(db, target.id, '2026-11-24', now, CUTOFF));
    expect(rows.map((row) => ({ time: row.time, isOpen: row.is_open, free: row.free_covers }))).toEqual([
      { time: '12:00', isOpen: true, free: 2 },
      { time: '19:00', isOpen: true, free: 5 },
    ]);
  });

  it('reads a restaurant’s 30 days for the availability memory (and the calendar) through the indexes', async () => {
    const rows = await expectOneIndexedQuery((db) => listSlotsForCache(db, target.id, '2026-11-23', '2026-12-22', now));
    // The expired hold on the 25th is left out; the 20th is outside the range; live holds keep their expiry.
    expect(rows.map((row) => ({ date: row.date, time: row.time, lasting: row.lasting_covers, holds: row.holds.length }))).toEqual([
      { date: '2026-11-24', time: '12:00', lasting: 0, holds: 1 },
      { date: '2026-11-24', time: '19:00', lasting: 3, holds: 0 },
      { date: '2026-11-25', time: '19:00', lasting: 0, holds: 0 },
    ]);
    const free = rows.map((row) => row.capacity - row.lasting_covers - row.holds.reduce((sum, [, covers]) => sum + covers, 0));
    expect(free).toEqual([2, 5, 8]);
  });

  it('finds the next 24 hours’ open slots across every restaurant through the starts_at index', async () => {
    const rows = await expectOneIndexedQuery((db) => listOpenSlotsBetween(db, now, new Date(now.getTime() + 24 * 3_600_000), CUTOFF, 2));
    // Filler slots from 12:00 today to 09:59 tomorrow: today's six times for each of 60 restaurants.
    expect(rows).toHaveLength(360);
    expect(rows.every((row) => row.slug.startsWith('filler-') && row.date === '2026-11-23')).toBe(true);
  });
});

describe('a diner’s reads', () => {
  it('lists their reservations through the user index, live ones first', async () => {
    const rows = await expectOneIndexedQuery((db) => listReservationsOfUser(db, userId, now));
    expect(rows.map((row) => row.id)).toEqual([reservationIds.held, reservationIds.pending, reservationIds.expired, reservationIds.completed]);
  });

  it('counts them by status through the user index, an expired hold as CANCELLED', async () => {
    const counts = await expectOneIndexedQuery((db) => countReservationsByStatus(db, userId, now));
    expect(Object.fromEntries(counts)).toEqual({ HELD: 1, PENDING: 1, CANCELLED: 1, COMPLETED: 1 });
  });

  it('checks the hold limit and the same-time rule through the user index', async () => {
    expect(await expectOneIndexedQuery((db) => readDinerBookingCounts(db, userId, kolkataInstant('2026-11-24', '19:00'), now))).toEqual({
      activeHolds: 1,
      upcoming: 2,
      hasLiveAtStart: true,
    });
    expect(await expectOneIndexedQuery((db) => countActiveHolds(db, userId, now))).toBe(1);
    expect(await expectOneIndexedQuery((db) => hasLiveReservationAt(db, userId, kolkataInstant('2026-11-24', '19:00'), now))).toBe(true);
    expect(await expectOneIndexedQuery((db) => hasLiveReservationAt(db, userId, kolkataInstant('2026-11-25', '19:00'), now))).toBe(false);
  });

  it('counts the holds they started at a restaurant in the last hour through the user index (their own, not offers)', async () => {
    await t.database.db.execute(
      sql`INSERT INTO reservation_events (reservation_id, from_status, to_status, actor_kind, actor_id, created_at)
          VALUES (${reservationIds.held}, NULL, 'HELD', 'diner', ${userId}, ${now.toISOString()}),
                 (${reservationIds.pending}, NULL, 'HELD', 'system', NULL, ${now.toISOString()})`,
    );
    const started = await expectOneIndexedQuery((db) => listHoldStartsSince(db, userId, target.id, new Date(now.getTime() - 3_600_000), 4));
    expect(started).toEqual([now]);
  });
});

describe('the hold’s own reads', () => {
  it('locks the slot and counts its covers through the indexes', async () => {
    const slot = await expectOneIndexedQuery((db) => lockSlot(db, target.id, '2026-11-24', '19:00'));
    expect(slot).toMatchObject({ id: slotIds['24-19'], capacity: 8, status: 'available' });
    expect(await expectOneIndexedQuery((db) => countCoversTaken(db, slotIds['24-19'], now))).toBe(3);
    expect(await expectOneIndexedQuery((db) => countCoversTaken(db, slotIds['25-19'], now))).toBe(0);
  });

  it('reads one reservation by id through its key', async () => {
    const row = await expectOneIndexedQuery((db) => findReservation(db, reservationIds.pending, { forUpdate: true }));
    expect(row).toMatchObject({ id: reservationIds.pending, status: 'PENDING', party_size: 3, slot_date: '2026-11-24', slot_time: '19:00' });
  });
});

describe('the plan checker itself', () => {
  it('flags a query that scans reservations without an index', async () => {
    const { plans } = await plansOf((db) => queryRows(db, sql`SELECT count(*) FROM reservations WHERE party_size = 7`));
    expect(unindexedScans(plans[0]).length).toBeGreaterThan(0);
  });
});
