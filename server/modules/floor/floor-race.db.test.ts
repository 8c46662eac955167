import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { demoFloorLayout } from '#server/db/seed/floors.ts';
import { createTestApp, requestHold, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { createTestDatabase } from '#server/test/database.ts';
import { buildDiner, buildRestaurant, buildSlot, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * The floor under a real race (decision 240): two app instances share one database (on
 * PostgreSQL, DATABASE_URL, the holds truly run at once on a pool of 20 each; on PGlite they
 * interleave at every await). 200 diners of mixed party sizes book one evening at once, half
 * through each instance: no table is ever given to two parties whose turns overlap, every hold
 * has its table, and nobody is seated where no table or combination seats the party.
 */
let a: TestApp;
let b: TestApp;
let restaurant: BuiltRestaurant;
const DATE = '2026-11-24';
const TIMES = ['18:00', '18:30', '19:00', '19:30', '20:00', '20:30', '21:00', '21:30', '22:00'];

beforeAll(async () => {
  a = await createTestApp({ database: await createTestDatabase({ poolSize: 20 }) });
  b = await createTestApp({ database: a.database, now: TEST_NOW });
  restaurant = await buildRestaurant(a.database.db);
  // Slots with far more covers than the room: only the floor decides.
  for (const time of TIMES) await buildSlot(a.database.db, restaurant.id, { date: DATE, time, capacity: 200 });
  const layout = demoFloorLayout(24, 'dinner');
  await a.app.services.floor.replaceTables(
    { kind: 'staff', staffId: '00000000-0000-4000-8000-000000000000', restaurantId: restaurant.id },
    { tables: layout.tables, combinations: layout.combinations },
  );
}, 120_000);
afterAll(async () => {
  await b.app.close(); // the database is shared: a's harness closes it
  await a.close();
});

describe('200 diners for one evening on two instances', () => {
  it('uses every table at most once per turn, gives every hold a table, and seats no party of 20', async () => {
    const diners: BuiltAccount[] = [];
    for (let index = 0; index < 200; index++) diners.push(await buildDiner(a.database.db));
    // A fixed spread of party sizes and times (mostly twos and fours), and a few parties of 20.
    const requests = diners.map((diner, index) => ({
      diner,
      app: index % 2 === 0 ? a : b,
      partySize: index % 50 === 7 ? 20 : [2, 2, 4, 2, 3, 6, 2, 4, 1, 8, 5, 2][index % 12],
      time: TIMES[(index * 7) % TIMES.length],
    }));

    const responses = await Promise.all(
      requests.map((request) =>
        requestHold(request.app.app, request.diner.token, { restaurantSlug: restaurant.slug, date: DATE, time: request.time, partySize: request.partySize }),
      ),
    );

    expect(responses.every((response) => response.statusCode === 201 || response.statusCode === 409)).toBe(true);
    const won = responses.filter((response) => response.statusCode === 201).length;
    expect(won).toBeGreaterThan(10);
    expect(requests.filter((request, index) => request.partySize === 20 && responses[index].statusCode === 201)).toEqual([]);

    // No table holds two live parties whose turns overlap.
    const overlaps = await queryRows<{ first: string; second: string }>(
      a.database.db,
      sql`SELECT x.id AS first, y.id AS second
          FROM table_assignments x JOIN table_assignments y ON x.id < y.id AND x.restaurant_id = y.restaurant_id
          WHERE x.restaurant_id = ${restaurant.id} AND x.released_at IS NULL AND y.released_at IS NULL
            AND x.table_ids && y.table_ids AND x.starts_at < y.ends_at AND y.starts_at < x.ends_at`,
    );
    expect(overlaps).toEqual([]);
    // Every hold has exactly one table assignment, and every assignment a hold.
    const [counts] = await queryRows<{ reservations: number; assigned: number; assignments: number }>(
      a.database.db,
      sql`SELECT (SELECT count(*)::int FROM reservations WHERE restaurant_id = ${restaurant.id}) AS reservations,
                 (SELECT count(DISTINCT reservation_id)::int FROM table_assignments WHERE restaurant_id = ${restaurant.id}) AS assigned,
                 (SELECT count(*)::int FROM table_assignments WHERE restaurant_id = ${restaurant.id}) AS assignments`,
    );
    expect(counts).toEqual({ reservations: won, assigned: won, assignments: won });
  }, 300_000);
});
