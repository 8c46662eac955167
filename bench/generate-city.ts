/**
 * `npm run bench:data`: a city-scale data set for the benchmarks, generated set-based
 * (INSERT … SELECT generate_series) so it takes seconds, not minutes.
 *
 *   restaurants × 30 days × 16 slots (12:00–14:30 and 18:00–22:30, every 30 minutes)
 *   a floor per restaurant (10–15 tables, combinations, default turns; decision 240), and bookings
 *   laid on its tables over the month with their table assignments, none overlapping
 *   5,000 city diners who own those bookings, 2,000 "drop" diners for the reservation race
 *   one extra restaurant, bench-drop, whose evening is raced for (slots made by the race itself)
 *
 * Target: the database named by DATABASE_URL (use a dedicated one, e.g. tablefair_bench), or the
 * embedded PGlite under BENCH_DATA_DIR (default data/bench) when DATABASE_URL is unset.
 * Scale: --restaurants N (default 2,000 on PostgreSQL, 200 on the embedded engine).
 * It empties the bench tables first, so it refuses a database that holds anything but bench data.
 */
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { AVAILABILITY_HORIZON_DAYS, categoryEmoji, preferredHoods } from '#common/domain/restaurants.ts';
import { addDays, clockTimesBetween, todayInKolkata } from '#common/domain/time.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { hashPassword } from '#server/modules/accounts/password.ts';
import { DATE_ACCOUNT_ID } from '#server/modules/dating/date-plans.service.ts';
import { benchTarget, execSql, openBenchDatabase, querySql, type BenchTarget } from './lib.ts';

/** Lunch and dinner, every half hour: 16 slots a day. */
export const SLOT_TIMES = [...clockTimesBetween('12:00', '14:30', 30), ...clockTimesBetween('18:00', '22:30', 30)];
export const CITY_DINERS = 5_000;
export const DROP_DINERS = 2_000;
/** Every bench diner's password (bench data only). */
export const BENCH_PASSWORD = 'bench-pass-1234';
const MARKER_KEY = 'bench.city';

type Section = 'indoor' | 'terrace' | 'bar' | 'private';
/** Tables of one section seating `min` to `max` each: one ('P1') or a numbered run ('T1-T4'). */
type TableRun = [names: string, section: Section, min: number, max: number];
interface FloorTemplate {
  tables: TableRun[];
  /** The 2-top kept for walk-ins: not bookable online. */
  walkIn: string;
  combinations: [names: string[], min: number, max: number][];
}

/** The three floors the city's restaurants get, in turn by their number. */
export const FLOOR_TEMPLATES: FloorTemplate[] = [
  {
    tables: [
      ['B1-B2', 'bar', 1, 2],
      ['T1-T4', 'indoor', 1, 2],
      ['T5-T7', 'indoor', 2, 4],
      ['T8', 'indoor', 4, 6],
    ],
    walkIn: 'T4',
    combinations: [
      [['T1', 'T2'], 3, 4],
      [['T5', 'T6'], 5, 8],
    ],
  },
  {
    tables: [
      ['T1-T4', 'indoor', 1, 2],
      ['T5-T8', 'indoor', 2, 4],
      ['T9-T10', 'indoor', 4, 6],
      ['E1-E2', 'terrace', 2, 4],
    ],
    walkIn: 'T4',
    combinations: [
      [['T1', 'T2'], 3, 4],
      [['T5', 'T6'], 5, 8],
      [['T9', 'T10'], 8, 12],
    ],
  },
  {
    tables: [
      ['B1-B3', 'bar', 1, 2],
      ['T1-T3', 'indoor', 1, 2],
      ['T4-T7', 'indoor', 2, 4],
      ['T8', 'indoor', 4, 6],
      ['E1-E2', 'terrace', 2, 4],
      ['E3', 'terrace', 4, 6],
      ['P1', 'private', 8, 14],
    ],
    walkIn: 'T3',
    combinations: [
      [['T1', 'T2'], 3, 4],
      [['T4', 'T5'], 5, 8],
      [['E1', 'E2'], 5, 8],
    ],
  },
];

/** Every table of a floor, one by one: its name, section, covers and whether it is bookable online. */
function tablesOf(floor: FloorTemplate): { name: string; section: Section; min: number; max: number; online: boolean }[] {
  return floor.tables.flatMap(([names, section, min, max]) => {
    const [, prefix, first, last] = /^([A-Z]+)(\d+)(?:-[A-Z]+(\d+))?$/.exec(names)!;
    const tableNames = Array.from({ length: Number(last ?? first) - Number(first) + 1 }, (_, index) => `${prefix}${Number(first) + index}`);
    return tableNames.map((name) => ({ name, section, min, max, online: name !== floor.walkIn }));
  });
}

/** Which floor a city restaurant has, from its slug's number, in SQL. */
const templateOf = (slug: string) => `(substring(${slug} from 6))::int % ${FLOOR_TEMPLATES.length}`;

export function defaultRestaurantCount(target: BenchTarget): number {
  const fromEnv = Number(process.env.BENCH_RESTAURANTS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return target.kind === 'postgres' ? 2_000 : 200;
}

export interface CityMarker {
  restaurants: number;
  fromDate: string;
  slots: number;
  bookings: number;
}

const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;
const sqlArray = (values: readonly string[]) => `ARRAY[${values.map(sqlText).join(',')}]::text[]`;

/** The marker the last generation left: which scale, for which first date. */
export async function readCityMarker(handle: DatabaseHandle): Promise<CityMarker | undefined> {
  const rows = await querySql<{ value: string }>(handle, 'SELECT value FROM app_settings WHERE key = $1', [MARKER_KEY]);
  return rows[0] ? (JSON.parse(rows[0].value) as CityMarker) : undefined;
}

/** Refuses to empty a database that holds restaurants or accounts not made by this script. */
async function assertBenchOnly(handle: DatabaseHandle, target: BenchTarget): Promise<void> {
  if (process.env.BENCH_FORCE === '1') return;
  if (target.kind === 'postgres') {
    const [{ name }] = await querySql<{ name: string }>(handle, 'SELECT current_database() AS name');
    if (!/bench/i.test(name)) {
      throw new Error(`Refusing to generate into database "${name}": use a dedicated database whose name contains "bench" (or set BENCH_FORCE=1).`);
    }
  }
  const [{ foreign }] = await querySql<{ foreign: number }>(
    handle,
    `SELECT ((SELECT count(*) FROM restaurants WHERE slug NOT LIKE 'city-%' AND slug NOT LIKE 'bench-%')
           + (SELECT count(*) FROM users WHERE username NOT LIKE 'city\\_%' AND username NOT LIKE 'drop\\_%' AND id <> ${sqlText(DATE_ACCOUNT_ID)}))::int AS foreign`,
  );
  if (foreign > 0)
    throw new Error('Refusing to generate: this database holds restaurants or accounts that are not bench data (set BENCH_FORCE=1 to empty it anyway).');
}

/** Empties the bench tables and generates the city for the 30 days from `now`'s Kolkata date. */
export async function generateCity(
  handle: DatabaseHandle,
  target: BenchTarget,
  options: { restaurants: number; now: Date; log?: (line: string) => void },
): Promise<CityMarker> {
  const log = options.log ?? console.log;
  const n = options.restaurants;
  const from = todayInKolkata(options.now);
  const to = addDays(from, AVAILABILITY_HORIZON_DAYS - 1);
  await assertBenchOnly(handle, target);
  const started = performance.now();
  const steps: [string, string][] = [];
  const step = (label: string, text: string) => steps.push([label, text]);

  const passwordHash = await hashPassword(BENCH_PASSWORD, Number(process.env.PASSWORD_HASH_COST ?? 15));
  const categories = Object.keys(categoryEmoji);
  const emojis = categories.map((category) => categoryEmoji[category]);
  const firstWords = ['Masala', 'Copper', 'Tamarind', 'Curry Leaf', 'Saffron', 'Banyan', 'Monsoon', 'Cardamom', 'Jasmine', 'Coconut', 'Pepper', 'Mango'];
  const secondWords = ['Kitchen', 'House', 'Table', 'Canteen', 'Bistro', 'Darshini', 'Tavern', 'Café', 'Mess', 'Grill'];
  const tags = [
    'South Indian',
    'North Indian',
    'Biryani',
    'Coffee',
    'Craft Beer',
    'Seafood',
    'Vegetarian',
    'Tandoor',
    'Desserts',
    'Pizza',
    'Sushi',
    'Cocktails',
  ];

  log(
    `Generating ${n.toLocaleString('en-US')} restaurants × ${AVAILABILITY_HORIZON_DAYS} days × ${SLOT_TIMES.length} slots (${from} … ${to}) into ${target.label}`,
  );
  step(
    'emptying the bench tables',
    `TRUNCATE table_assignments, table_combinations, floor_tables, floor_settings, reservation_events, reservations, slots, sessions, staff_accounts, users, restaurants, rate_limit_counters CASCADE`,
  );
  // The platform account that holds dates' tables is not bench data: written back as migration 0015 wrote it.
  step(
    'the platform account of dates',
    `INSERT INTO users (id, username, password_hash, name) VALUES (${sqlText(DATE_ACCOUNT_ID)}, 'tablefair.dates.system', '!', 'Tablefair dates')`,
  );
  step('forgetting the last generation', `DELETE FROM app_settings WHERE key = ${sqlText(MARKER_KEY)}`);
  step(
    'restaurants',
    `INSERT INTO restaurants (slug, name, emoji, neighborhood, hot, cuisine_tags, category, description, lat, lng)
    SELECT 'city-' || lpad(i::text, greatest(4, length(i::text)), '0'),
           (${sqlArray(firstWords)})[1 + i % ${firstWords.length}] || ' ' || (${sqlArray(secondWords)})[1 + (i / ${firstWords.length}) % ${secondWords.length}] || ' ' || i,
           (${sqlArray(emojis)})[1 + (i * 7) % ${categories.length}],
           (${sqlArray(preferredHoods)})[1 + (i * 3) % ${preferredHoods.length}],
           i % 10 = 0,
           ARRAY[(${sqlArray(tags)})[1 + i % ${tags.length}], (${sqlArray(tags)})[1 + (i * 5 + 3) % ${tags.length}]],
           (${sqlArray(categories)})[1 + (i * 7) % ${categories.length}],
           'A generated restaurant for the benchmarks.',
           12.85 + ((i * 7919) % 1000) / 4000.0, 77.48 + ((i * 104729) % 1000) / 4000.0
    FROM generate_series(1, ${n}) AS i`,
  );
  // Each restaurant gets one of three floors (decision 240): a bistro with bar seats, a family
  // place with a terrace, a larger room with a private table; combinations seat 3–4, 5–8, 8–12.
  step(
    'floors: tables',
    `INSERT INTO floor_tables (restaurant_id, name, section, min_covers, max_covers, online_bookable)
    SELECT r.id, t.name, t.section, t.min_covers, t.max_covers, t.online
    FROM restaurants r
    JOIN (VALUES ${FLOOR_TEMPLATES.flatMap((floor, template) =>
      tablesOf(floor).map(({ name, section, min, max, online }) => `(${template}, ${sqlText(name)}, ${sqlText(section)}, ${min}, ${max}, ${online})`),
    ).join(', ')}) AS t(template, name, section, min_covers, max_covers, online)
      ON t.template = ${templateOf('r.slug')}
    WHERE r.slug LIKE 'city-%'`,
  );
  step(
    'floors: combinations',
    `INSERT INTO table_combinations (restaurant_id, table_ids, min_covers, max_covers)
    SELECT r.id, array_agg(ft.id ORDER BY ft.name), c.min_covers, c.max_covers
    FROM restaurants r
    JOIN (VALUES ${FLOOR_TEMPLATES.flatMap((floor, template) =>
      floor.combinations.map(([names, min, max], n) => `(${template}, ${n}, ${sqlArray(names)}, ${min}, ${max})`),
    ).join(', ')}) AS c(template, n, names, min_covers, max_covers)
      ON c.template = ${templateOf('r.slug')}
    JOIN floor_tables ft ON ft.restaurant_id = r.id AND ft.name = ANY (c.names)
    WHERE r.slug LIKE 'city-%'
    GROUP BY r.id, c.n, c.min_covers, c.max_covers`,
  );
  step(
    'floors: shifts and turns',
    `INSERT INTO floor_settings (restaurant_id, shifts, turns)
    SELECT r.id,
      (SELECT jsonb_agg('[{"name":"lunch","start":"12:00","end":"15:00"},{"name":"dinner","start":"18:00","end":"23:00"}]'::jsonb) FROM generate_series(1, 7)),
      '[{"fromPartySize":1,"minutes":75},{"fromPartySize":3,"minutes":105},{"fromPartySize":5,"minutes":120},{"fromPartySize":7,"minutes":150}]'::jsonb
    FROM restaurants r WHERE r.slug LIKE 'city-%'`,
  );
  // Each slot's capacity is the floor's seats, as migration 0022's rule made tables from covers:
  // the same restaurant without its tables is the covers model over the same data.
  step(
    'slots',
    `INSERT INTO slots (restaurant_id, slot_date, slot_time, starts_at, capacity)
    SELECT r.id, d::date, t, (d::date + t::time) AT TIME ZONE 'Asia/Kolkata', seats.total
    FROM restaurants r
    JOIN (SELECT restaurant_id, sum(max_covers)::int AS total FROM floor_tables GROUP BY restaurant_id) AS seats ON seats.restaurant_id = r.id
    CROSS JOIN generate_series(${sqlText(from)}::date, ${sqlText(to)}::date, interval '1 day') AS d
    CROSS JOIN unnest(${sqlArray(SLOT_TIMES)}) AS t`,
  );
  step(
    'diners (city and drop)',
    `INSERT INTO users (username, password_hash, name)
    SELECT 'city_' || lpad(i::text, 5, '0'), ${sqlText(passwordHash)}, 'City Diner ' || i FROM generate_series(1, ${CITY_DINERS}) AS i
    UNION ALL
    SELECT 'drop_' || lpad(i::text, 5, '0'), ${sqlText(passwordHash)}, 'Drop Diner ' || i FROM generate_series(1, ${DROP_DINERS}) AS i`,
  );
  // Bookings are laid on the tables so that no two overlap: each table has up to three sittings a
  // day (lunch from 12:00–13:00, an early dinner from 18:00–19:00, a late one at 21:30 or 22:00;
  // the longest turn, 150 min, ends before the next sitting), taken with a chance of 60 %, 90 % and
  // 70 % (a busy month), by a party its size seats. One in ten is a live hold, one in ten was cancelled (its table
  // is free again), the others are PENDING or CONFIRMED. Each has its table assignment.
  step(
    'bookings on the tables',
    `WITH diners AS (SELECT array_agg(id ORDER BY username) AS ids FROM users WHERE username LIKE 'city\\_%'),
    plan AS (
      SELECT gen_random_uuid() AS rid, ft.restaurant_id, ft.id AS table_id, d::date AS day,
             s.times[1 + x.h % cardinality(s.times)] AS time,
             ft.min_covers + (x.h / 7) % (ft.max_covers - ft.min_covers + 1) AS party, x.h
      FROM floor_tables ft
      CROSS JOIN generate_series(${sqlText(from)}::date, ${sqlText(to)}::date, interval '1 day') AS d
      CROSS JOIN (VALUES ('lunch', ${sqlArray(['12:00', '12:30', '13:00'])}, 6), ('early', ${sqlArray(['18:00', '18:30', '19:00'])}, 9), ('late', ${sqlArray(['21:30', '22:00'])}, 7)) AS s(name, times, per10)
      CROSS JOIN LATERAL (SELECT abs(hashtext(ft.id::text || d::text || s.name)) AS h) AS x
      WHERE (x.h / 13) % 10 < s.per10),
    booked AS (
      SELECT p.*, sl.id AS slot_id, sl.starts_at,
             CASE p.h % 10 WHEN 0 THEN 'HELD' WHEN 1 THEN 'CANCELLED' WHEN 2 THEN 'PENDING' WHEN 3 THEN 'PENDING' ELSE 'CONFIRMED' END AS status,
             CASE WHEN p.party <= 2 THEN 75 WHEN p.party <= 4 THEN 105 WHEN p.party <= 6 THEN 120 ELSE 150 END AS turn
      FROM plan p JOIN slots sl ON sl.restaurant_id = p.restaurant_id AND sl.slot_date = p.day AND sl.slot_time = p.time),
    made AS (
      INSERT INTO reservations (id, user_id, restaurant_id, slot_id, party_size, status, hold_expires_at, cancel_reason, starts_at, created_at, updated_at)
      SELECT b.rid, diners.ids[1 + b.h % ${CITY_DINERS}], b.restaurant_id, b.slot_id, b.party, b.status,
             CASE WHEN b.status = 'HELD' THEN now() + interval '1 day' END,
             CASE WHEN b.status = 'CANCELLED' THEN 'DINER_CANCELLED' END,
             b.starts_at, now(), now()
      FROM booked b, diners)
    INSERT INTO table_assignments (restaurant_id, reservation_id, table_ids, party_size, starts_at, ends_at)
    SELECT b.restaurant_id, b.rid, ARRAY[b.table_id], b.party, b.starts_at, b.starts_at + make_interval(mins => b.turn) FROM booked b`,
  );
  step(
    'booking history',
    `INSERT INTO reservation_events (reservation_id, from_status, to_status, actor_kind, actor_id, created_at)
    SELECT id, NULL, 'HELD', 'diner', user_id, created_at FROM reservations`,
  );
  step(
    'the drop restaurant',
    `INSERT INTO restaurants (slug, name, emoji, neighborhood, hot, cuisine_tags, category, description)
    VALUES ('bench-drop', 'The Drop', '🍽️', 'Indiranagar', true, ARRAY['Tasting Menu'], 'dinner', 'Forty covers, two thousand diners.')`,
  );
  step('ANALYZE', 'ANALYZE');

  // One transaction: all or nothing. Foreign keys hold by construction, so their per-row
  // triggers are skipped for this bulk load only (session_replication_role, superuser).
  await handle.db.transaction(async (tx) => {
    if (process.env.BENCH_KEEP_FK_TRIGGERS !== '1') await tx.execute(sql.raw('SET LOCAL session_replication_role = replica'));
    for (const [label, text] of steps) {
      const t0 = performance.now();
      await tx.execute(sql.raw(text));
      log(`  ${label.padEnd(40)} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  });

  // Vacuumed now, outside the load's transaction, so that autovacuum does not pick the fresh
  // tables up while a benchmark runs and take CPU from the processes being measured.
  const vacuumStarted = performance.now();
  await execSql(handle, 'VACUUM (ANALYZE) slots, reservations, reservation_events, users, sessions');
  log(`  ${'VACUUM (ANALYZE)'.padEnd(40)} ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s`);

  const [counts] = await querySql<{ slots: number; bookings: number }>(
    handle,
    'SELECT (SELECT count(*) FROM slots)::int AS slots, (SELECT count(*) FROM reservations)::int AS bookings',
  );
  const marker: CityMarker = { restaurants: n, fromDate: from, slots: counts.slots, bookings: counts.bookings };
  await querySql(handle, 'INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
    MARKER_KEY,
    JSON.stringify(marker),
  ]);
  log(
    `Done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${counts.slots.toLocaleString('en-US')} slots, ${counts.bookings.toLocaleString('en-US')} bookings.`,
  );
  return marker;
}

/** Generates the city unless the data already there is for this scale and today's 30 days. */
export async function ensureCity(handle: DatabaseHandle, target: BenchTarget, restaurants: number, now: Date): Promise<CityMarker> {
  const marker = await readCityMarker(handle).catch(() => undefined);
  if (marker && marker.restaurants === restaurants && marker.fromDate === todayInKolkata(now)) {
    console.log(
      `Bench data present: ${restaurants.toLocaleString('en-US')} restaurants, ${marker.slots.toLocaleString('en-US')} slots, ${marker.bookings.toLocaleString('en-US')} bookings (from ${marker.fromDate}).`,
    );
    return marker;
  }
  return generateCity(handle, target, { restaurants, now });
}

async function main(): Promise<void> {
  const target = benchTarget();
  const flag = process.argv.indexOf('--restaurants');
  const restaurants = flag > 0 ? Number(process.argv[flag + 1]) : defaultRestaurantCount(target);
  if (!Number.isInteger(restaurants) || restaurants < 1 || restaurants > 99_999) throw new Error('--restaurants must be a whole number from 1 to 99999');
  const handle = await openBenchDatabase(target);
  try {
    await handle.migrate();
    await generateCity(handle, target, { restaurants, now: new Date() });
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
