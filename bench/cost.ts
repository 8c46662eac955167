/**
 * `npm run bench:cost`: how memory and latency grow with the city, on the embedded engine and on
 * PostgreSQL, printed as one table. For each engine and scale: the city generated when missing
 * (bench/generate-city.ts: floors, bookings over 30 days), one app instance at production-info
 * settings, every restaurant read once (the memory warm: all its kept answers' inputs), its resident
 * memory then, every answer the run asks for built once (the cold answer's rate, and the memory
 * with them), and availability for a random restaurant, date and party size from wrk in its own
 * process (50 connections, BENCH_SECONDS after a warm-up), on those kept answers.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tablefair_city_bench BENCH_DATA_DIR=data/bench npm run bench:cost
 *
 * A city larger than one instance keeps (AVAILABILITY_CACHE_RESTAURANTS, 5,000 by default) is split
 * across instances by restaurant in production, so its row is one instance's share: the first that
 * many restaurants, warmed and read as above. A second row asks that one instance for the whole
 * city for BENCH_COST_WHOLE_SECONDS (30), with no warm pass, to show what the split is for (its
 * restaurant reads are counted).
 *
 * BENCH_COST_SCALES (200,2000,20000) and BENCH_COST_ENGINES (pglite,postgres) choose the rows.
 * PostgreSQL scales live in databases named after DATABASE_URL's with the scale appended
 * (`tablefair_city_bench_200`; the scale of DATABASE_URL's own marker uses it as it is); PGlite's in
 * BENCH_DATA_DIR/cost-<scale>. Exit code 1 when an answer is not 200.
 */
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '#server/config.ts';
import { externalLoad } from './external-load.ts';
import { ensureCity, readCityMarker } from './generate-city.ts';
import {
  availabilityCacheReads,
  BENCH_METRICS_TOKEN,
  benchTarget,
  fmt,
  machineNote,
  openBenchDatabase,
  PORTS,
  residentMb,
  restaurantReadsBetween,
  startApp,
  table,
  type BenchTarget,
  type RunningServer,
} from './lib.ts';
import { availabilityPaths, BROWSER_ENCODINGS, warmEveryAnswer, warmEveryRestaurant } from './reads.ts';

const scales = (process.env.BENCH_COST_SCALES ?? '200,2000,20000').split(',').map(Number);
const engines = (process.env.BENCH_COST_ENGINES ?? 'pglite,postgres').split(',') as ('pglite' | 'postgres')[];
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** The whole-city row reads restaurants from the database on most requests: it needs longer than BENCH_SECONDS to finish any. */
const wholeCitySeconds = Number(process.env.BENCH_COST_WHOLE_SECONDS ?? 30);
const base = benchTarget();
/** The restaurants one instance keeps: AVAILABILITY_CACHE_RESTAURANTS, which the app inherits, or its default. */
const perInstance = loadConfig({ NODE_ENV: 'test', AVAILABILITY_CACHE_RESTAURANTS: process.env.AVAILABILITY_CACHE_RESTAURANTS }).availabilityCache
  .maxRestaurants;
const now = new Date();
if (engines.includes('postgres') && !base.databaseUrl) {
  console.error('bench:cost on PostgreSQL needs DATABASE_URL (or BENCH_COST_ENGINES=pglite).');
  process.exit(2);
}

/** The PostgreSQL database for a scale, created when missing. */
async function postgresTarget(scale: number): Promise<BenchTarget> {
  const url = new URL(base.databaseUrl!);
  const own = await openBenchDatabase(base, 1);
  const marker = await readCityMarker(own).catch(() => undefined);
  await own.close();
  if (marker?.restaurants === scale) return base;
  const name = `${url.pathname.slice(1)}_${scale}`;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    if (!(await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount)
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  url.pathname = `/${name}`;
  return { kind: 'postgres', databaseUrl: url.href, dataDir: base.dataDir, label: `PostgreSQL ${url.hostname}:${url.port || 5432}/${name}` };
}

/**
 * Availability for `paths` from wrk in its own process (`runSeconds` after a warm-up), with the
 * restaurants the instance read from the database meanwhile (cache misses and reloads, /metrics).
 */
async function readAvailability(app: RunningServer, paths: string[], runSeconds = seconds) {
  const before = await availabilityCacheReads(app.baseUrl);
  const reads = await externalLoad({
    baseUrl: app.baseUrl,
    paths,
    headers: { 'accept-encoding': BROWSER_ENCODINGS },
    connections,
    seconds: runSeconds,
    serverPid: app.child.pid,
  });
  const restaurantReads = restaurantReadsBetween(before, await availabilityCacheReads(app.baseUrl)).total;
  return { ...reads, restaurantReads, ok: reads.requests > 0 && reads.non2xx === 0 && reads.errors === 0 };
}

/** The one-minute load average at a row's start and now. */
const loadSpan = (atStart: string) => `${atStart.match(/load average ([\d.]+)/)?.[1]} → ${machineNote('at end').match(/load average ([\d.]+)/)?.[1]}`;

const rows: string[][] = [];
let failed = false;
console.log(`Tablefair cost by city size (${machineNote()})`);
for (const engine of engines) {
  for (const scale of scales) {
    const target: BenchTarget =
      engine === 'postgres'
        ? await postgresTarget(scale)
        : { kind: 'pglite', dataDir: join(base.dataDir, `cost-${scale}`), label: `embedded PGlite (${join(base.dataDir, `cost-${scale}`)}/pglite)` };
    const loadAtStart = machineNote('at start');
    console.log(`\n== ${engine}, ${scale.toLocaleString('en-US')} restaurants: ${target.label}`);
    const generationStarted = performance.now();
    const handle = await openBenchDatabase(target);
    await handle.migrate();
    await ensureCity(handle, target, scale, now);
    await handle.close();
    const generationSeconds = (performance.now() - generationStarted) / 1000;
    const app = await startApp(
      target,
      PORTS.appA,
      `app (${engine}, ${scale})`,
      { NODE_ENV: 'production', LOG_LEVEL: 'info', METRICS_TOKEN: BENCH_METRICS_TOKEN },
      join(base.dataDir, `cost-app.log`),
    );
    try {
      // The restaurants this instance serves: the whole city, or its share of a larger one.
      const served = Math.min(scale, perInstance);
      const rssStart = residentMb(app.child.pid!);
      const warm = await warmEveryRestaurant(app.baseUrl, { connections, seconds, restaurants: served });
      const warmOk = warm.requests === served && warm.errors === 0 && Object.keys(warm.statuses).every((status) => status === '200');
      const rssWarm = residentMb(app.child.pid!);
      // Every answer the run asks for built once first (as `npm run bench` and bench:city do), so
      // the run measures kept answers and this pass the cold answer's rate.
      const paths = availabilityPaths(served, now);
      const answers = await warmEveryAnswer(app.baseUrl, paths, connections);
      const answersOk = answers.errors === 0 && Object.keys(answers.statuses).every((status) => status === '200');
      const rssAnswered = residentMb(app.child.pid!);
      const reads = await readAvailability(app, paths);
      const ok = warmOk && answersOk && reads.ok;
      if (!ok) failed = true;
      const scaleLabel = served < scale ? `${scale.toLocaleString('en-US')}, one instance's ${served.toLocaleString('en-US')}` : scale.toLocaleString('en-US');
      console.log(
        `  ${scaleLabel}: first reads ${fmt.rps(warm.rps)}, p99 ${fmt.ms(warm.p99)}; first answers (${answers.requests}) ${fmt.rps(answers.rps)}, p99 ${fmt.ms(answers.p99)}; RSS ${rssStart.toFixed(0)} → ${rssWarm.toFixed(0)} → ${rssAnswered.toFixed(0)} MB; availability ${fmt.rps(reads.rps)}, p50 ${fmt.ms(reads.p50)}, p99 ${fmt.ms(reads.p99)}, busy ${Math.round(reads.serverBusy * 100)} %, ${reads.restaurantReads} restaurant reads`,
      );
      rows.push([
        engine === 'postgres' ? 'PostgreSQL 15' : 'PGlite',
        scaleLabel,
        `${generationSeconds.toFixed(0)} s`,
        `${fmt.rps(warm.rps)}, p99 ${fmt.ms(warm.p99)}`,
        rssStart.toFixed(0),
        rssWarm.toFixed(0),
        `${(((rssWarm - rssStart) * 1024) / served).toFixed(0)} KB`,
        `${answers.requests.toLocaleString('en-US')}: ${fmt.rps(answers.rps)}, p99 ${fmt.ms(answers.p99)}`,
        rssAnswered.toFixed(0),
        fmt.rps(reads.rps),
        fmt.ms(reads.p50),
        fmt.ms(reads.p99),
        reads.restaurantReads.toLocaleString('en-US'),
        ok ? 'yes' : 'NO',
        loadSpan(loadAtStart),
      ]);
      if (served < scale) {
        // What the split is for: the one instance asked for the whole city, nothing warmed beyond its share.
        const wholeLoadAtStart = machineNote('at start');
        const whole = await readAvailability(app, availabilityPaths(scale, now), wholeCitySeconds);
        // Slow is this row's finding, not a failure; an answer other than 200 still fails the run.
        if (whole.non2xx > 0) failed = true;
        const rssWhole = residentMb(app.child.pid!);
        console.log(
          `  the whole city on that instance: ${whole.requests} answers in ${wholeCitySeconds} s (${whole.errors} errors), availability ${fmt.rps(whole.rps)}, p50 ${fmt.ms(whole.p50)}, p99 ${fmt.ms(whole.p99)}, busy ${Math.round(whole.serverBusy * 100)} %, ${whole.restaurantReads} restaurant reads; RSS ${rssWhole.toFixed(0)} MB`,
        );
        const none = '–';
        rows.push([
          engine === 'postgres' ? 'PostgreSQL 15' : 'PGlite',
          `${scale.toLocaleString('en-US')}, the whole city on one instance`,
          none,
          none,
          none,
          none,
          none,
          none,
          rssWhole.toFixed(0),
          fmt.rps(whole.rps),
          fmt.ms(whole.p50),
          fmt.ms(whole.p99),
          whole.restaurantReads.toLocaleString('en-US'),
          whole.non2xx === 0 ? `yes (${whole.requests.toLocaleString('en-US')} answers)` : 'NO',
          loadSpan(wholeLoadAtStart),
        ]);
      }
    } finally {
      await app.stop();
    }
  }
}
console.log(`\n== Cost by city size (NODE_ENV=production, LOG_LEVEL=info, one instance, ${connections} connections, ${seconds} s)\n`);
console.log(
  table(
    [
      'engine',
      'restaurants',
      'setup (generate or reuse, migrate)',
      'first reads (memory cold)',
      'RSS at start (MB)',
      'RSS warm (MB)',
      'per restaurant',
      'first answers (answer not kept)',
      'RSS with the answers (MB)',
      'availability (kept answers)',
      'p50',
      'p99',
      'restaurant reads in the run',
      'all 200',
      'load (1 min) start → end',
    ],
    rows,
  ),
);
console.log(`\n${machineNote('at the end')}`);
process.exit(failed ? 1 : 0);
