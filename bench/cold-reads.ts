/**
 * `npm run bench:cold`: what an availability answer costs when it is not in memory, in the app's own
 * CPU time, so the figure holds on a shared machine (docs/performance.md §10). One app instance at
 * production-info settings on the city (bench/generate-city.ts):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tablefair_city_bench npm run bench:cold
 *
 * 1. First reads: every restaurant's calendar once (the restaurant not held yet), 50 at a time
 *    (BENCH_COLD_RESTAURANTS: only the first N of the city, for a shorter run).
 * 2. Cold dates: BENCH_COLD_REQUESTS (20,000) availability answers, each for a (restaurant, date)
 *    not asked before on this instance, with a random party size of 2–8: the restaurant is held,
 *    its date's answer is not.
 * 3. The same requests again (the answers now kept): the warm figure beside it.
 *
 * For each: answers per second of the app's CPU time (user + system, /proc), the wall rate and
 * p99 (from autocannon in this process, so the wall figures also carry its cost), SQL statements
 * per answer (pg_stat_database's transactions of the database, every statement of the app being
 * its own), and resident memory after it. Exit code 1 when an answer is not 200.
 */
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { cpuSeconds } from './external-load.ts';
import { defaultRestaurantCount, ensureCity } from './generate-city.ts';
import { benchTarget, fmt, load, machineNote, openBenchDatabase, PORTS, residentMb, startApp, table } from './lib.ts';
import { citySlug, PARTY_SIZES, randomStream } from './reads.ts';

const target = benchTarget();
if (target.kind !== 'postgres') {
  console.error('bench:cold needs PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/tablefair_city_bench).');
  process.exit(2);
}
const now = new Date();
const cityRestaurants = defaultRestaurantCount(target);
/** How many of the city's restaurants are read (the first BENCH_COLD_RESTAURANTS; all by default). */
const restaurants = Math.min(Number(process.env.BENCH_COLD_RESTAURANTS ?? cityRestaurants), cityRestaurants);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const coldRequests = Math.min(Number(process.env.BENCH_COLD_REQUESTS ?? 20_000), restaurants * 30);
let failed = false;

console.log(`Tablefair cold availability answers: one instance, PostgreSQL, production-info (${machineNote()})`);
console.log(
  `  ${restaurants.toLocaleString('en-US')} of the city's ${cityRestaurants.toLocaleString('en-US')} restaurants; ${coldRequests.toLocaleString('en-US')} cold dates`,
);

/** Every (restaurant, date) once, in a shuffled order (a fixed seed), each with a party size. */
function coldPaths(): string[] {
  const random = randomStream(17);
  const today = todayInKolkata(now);
  const pairs: [number, number][] = [];
  for (let r = 1; r <= restaurants; r++) for (let d = 0; d < 30; d++) pairs.push([r, d]);
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
  }
  return pairs
    .slice(0, coldRequests)
    .map(
      ([r, d]) => `/api/restaurants/${citySlug(r)}/availability?date=${addDays(today, d)}&partySize=${PARTY_SIZES[Math.floor(random() * PARTY_SIZES.length)]}`,
    );
}

/** The database's committed transactions so far (the statistics are flushed within a second or so). */
async function transactions(client: pg.Client): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const { rows } = await client.query<{ n: string }>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()');
  return Number(rows[0].n);
}

const handle = await openBenchDatabase(target, 1);
await handle.migrate();
await ensureCity(handle, target, cityRestaurants, now);
await handle.close();
const stats = new pg.Client({ connectionString: target.databaseUrl });
await stats.connect();
const app = await startApp(
  target,
  PORTS.appA,
  'app (floor)',
  { NODE_ENV: 'production', LOG_LEVEL: 'info' },
  join(mkdtempSync(join(tmpdir(), 'tablefair-cold-')), 'app.log'),
);
const pid = app.child.pid!;
const rows: string[][] = [];
try {
  const phase = async (label: string, paths: readonly string[]) => {
    let next = 0;
    const statementsBefore = await transactions(stats);
    const cpuBefore = cpuSeconds(pid);
    const result = await load({
      url: app.baseUrl,
      connections,
      amount: paths.length,
      timeoutSeconds: 300,
      next: () => ({ path: paths[next++ % paths.length] }),
    });
    const cpu = cpuSeconds(pid) - cpuBefore;
    // The stats reader's own query counts once per reading.
    const statements = (await transactions(stats)) - statementsBefore - 1;
    const ok = result.errors === 0 && Object.keys(result.statuses).every((status) => status === '200');
    if (!ok) failed = true;
    rows.push([
      label,
      result.requests.toLocaleString('en-US'),
      `${(result.requests / cpu).toFixed(0)}/s (${cpu.toFixed(1)} s)`,
      fmt.rps(result.rps),
      fmt.ms(result.p99),
      (statements / result.requests).toFixed(2),
      residentMb(pid).toFixed(0),
      ok ? 'yes' : `NO ${JSON.stringify(result.statuses)}`,
    ]);
    console.log(`  ${label}: done (${machineNote('now')})`);
  };
  let r = 0;
  await phase(
    'first read (calendar; restaurant not held)',
    Array.from({ length: restaurants }, () => `/api/restaurants/${citySlug(1 + (r++ % restaurants))}/calendar`),
  );
  const paths = coldPaths();
  await phase('availability, date not held (cold)', paths);
  await phase('availability, the same again (kept)', paths);
  console.log(
    '\n' + table(['answers', 'count', 'per CPU-second of the app (CPU s)', 'wall rate', 'p99', 'SQL statements per answer', 'RSS after (MB)', 'all 200'], rows),
  );
} catch (error) {
  console.error(error instanceof Error ? error.stack : error);
  failed = true;
} finally {
  await app.stop();
  await stats.end();
  console.log(`\n${machineNote('at the end')}`);
}
process.exit(failed ? 1 : 0);
