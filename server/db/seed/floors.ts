import { sql } from 'drizzle-orm';
import { DEFAULT_FLOOR_SETTINGS, tablesForCapacity, type FloorSection } from '#common/domain/floor.ts';
import { queryRows, type Db } from '#server/db/client.ts';
import { findSettings, insertCombination, insertTable, upsertSettings } from '#server/modules/floor/floor.repository.ts';
import { seedRestaurants, slugify } from './restaurants.data.ts';

/** A demo table before it has an id. */
export interface DemoTable {
  name: string;
  section: FloorSection;
  minCovers: number;
  maxCovers: number;
  onlineBookable: boolean;
}

const BAR_CATEGORIES = new Set(['bar', 'cocktails', 'wine']);

/**
 * A realistic floor for a demo restaurant of `capacity` covers (decision 240): the migration's
 * 2-, 4- and 6-tops (tablesForCapacity), spread over sections as such a place would have them:
 * half the 2-tops at the bar where drinks lead, a terrace for the bigger rooms' later 4-tops,
 * the 6-top in a private room from 30 covers, and one 2-top kept back for walk-ins once there
 * are six. Joinable: 2-tops side by side in pairs (3-4), the first two indoor 4-tops (5-8), and
 * the 6-top with a 4-top beside it (7-10).
 */
export function demoFloorLayout(
  capacity: number,
  category: string,
): { tables: DemoTable[]; combinations: { tableNames: string[]; minCovers: number; maxCovers: number }[] } {
  const sizes = tablesForCapacity(capacity).map((table) => table.maxCovers);
  const twos = sizes.filter((size) => size === 2).length;
  const fours = sizes.filter((size) => size === 4).length;
  const counters: Record<FloorSection, number> = { indoor: 0, terrace: 0, bar: 0, private: 0 };
  const prefix: Record<FloorSection, string> = { indoor: 'T', terrace: 'Terrace ', bar: 'Bar ', private: 'Private ' };
  const tables: DemoTable[] = [];
  const add = (section: FloorSection, minCovers: number, maxCovers: number, onlineBookable = true) => {
    counters[section] += 1;
    tables.push({ name: `${prefix[section]}${counters[section]}`, section, minCovers, maxCovers, onlineBookable });
  };
  const barTwos = BAR_CATEGORIES.has(category) ? Math.ceil(twos / 2) : 0;
  for (let index = 0; index < twos; index++) add(index < barTwos ? 'bar' : 'indoor', 1, 2, !(twos >= 6 && index === twos - 1));
  const terraceFours = capacity >= 24 ? Math.floor((fours - 2) / 2) : 0;
  for (let index = 0; index < fours; index++) add(index >= fours - terraceFours && terraceFours > 0 ? 'terrace' : 'indoor', 2, 4);
  if (sizes.includes(6)) add(capacity >= 30 ? 'private' : 'indoor', 4, 6);

  const combinations: { tableNames: string[]; minCovers: number; maxCovers: number }[] = [];
  const indoorTwos = tables.filter((table) => table.section === 'indoor' && table.maxCovers === 2 && table.onlineBookable);
  for (let index = 0; index + 1 < indoorTwos.length; index += 2)
    combinations.push({ tableNames: [indoorTwos[index].name, indoorTwos[index + 1].name], minCovers: 3, maxCovers: 4 });
  const indoorFours = tables.filter((table) => table.section === 'indoor' && table.maxCovers === 4);
  if (indoorFours.length >= 2) combinations.push({ tableNames: [indoorFours[0].name, indoorFours[1].name], minCovers: 5, maxCovers: 8 });
  const six = tables.find((table) => table.maxCovers === 6);
  const besideSix =
    tables.find((table) => table.maxCovers === 4 && six && table.section === six.section) ?? (six?.section === 'indoor' ? indoorFours.at(-1) : undefined);
  if (six && besideSix) combinations.push({ tableNames: [six.name, besideSix.name], minCovers: 7, maxCovers: 10 });
  else if (indoorFours.length >= 1 && indoorTwos.length >= 2) {
    // A small room: its 4-top and two 2-tops push together for a party of up to 8.
    combinations.push({ tableNames: [indoorFours[0].name, indoorTwos[0].name, indoorTwos[1].name], minCovers: 5, maxCovers: 8 });
  }
  return { tables, combinations };
}

/** Gives every demo restaurant without tables its floor, with the default shifts and turn times (safe on every start). */
export async function seedDemoFloors(db: Db, now: Date): Promise<number> {
  const rows = await queryRows<{ id: string; slug: string }>(
    db,
    sql`SELECT r.id, r.slug FROM restaurants r WHERE NOT EXISTS (SELECT 1 FROM floor_tables t WHERE t.restaurant_id = r.id)`,
  );
  const bySlug = new Map(seedRestaurants.map(([name, category, , , , , , capacity]) => [slugify(name), { category, capacity }]));
  let floored = 0;
  for (const row of rows) {
    const demo = bySlug.get(row.slug);
    if (!demo) continue;
    const layout = demoFloorLayout(demo.capacity, demo.category);
    await db.transaction(async (tx) => {
      if (!(await findSettings(tx, row.id))) await upsertSettings(tx, row.id, DEFAULT_FLOOR_SETTINGS, now);
      const ids = new Map<string, string>();
      for (const table of layout.tables) ids.set(table.name, await insertTable(tx, row.id, table));
      for (const combination of layout.combinations) {
        await insertCombination(tx, row.id, {
          tableIds: combination.tableNames.map((name) => ids.get(name)!),
          minCovers: combination.minCovers,
          maxCovers: combination.maxCovers,
        });
      }
    });
    floored += 1;
  }
  return floored;
}
