/**
 * `npm run bench`: the availability reads and the drop, each beside a baseline measured in the
 * same run on the same machine, with the ratio, the target and PASS/FAIL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tablefair_bench npm run bench   (2,000 restaurants)
 *   npm run bench                                                                   (embedded PGlite, 200)
 *
 * The data set is generated first when missing or not for today (bench/generate-city.ts).
 * Knobs: BENCH_SECONDS (10 per read run), BENCH_ROUNDS (3 interleaved rounds of baseline, availability,
 * calendar and restaurant page, reported as medians), BENCH_CONNECTIONS (50), BENCH_RESTAURANTS, BENCH_ONLY=reads|drop,
 * BENCH_RESULTS=<file> to keep the figures as JSON. Exit code 1 when a correctness check fails
 * (covers sold ≠ capacity, oversell, an unexpected status, ETag/304/compression); a missed speed
 * target is printed as FAIL but is not an error.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DatabaseHandle } from '#server/db/client.ts';
import { countDrop, DROP_CAPACITY, prepareDrop, raceOverHttp, raceRawSql, type DropCount, type RaceResult } from './drop.ts';
import { defaultRestaurantCount, DROP_DINERS, ensureCity } from './generate-city.ts';
import {
  APP_POOL_SIZE,
  benchTarget,
  fmt,
  load,
  machineNote,
  median,
  openBenchDatabase,
  PORTS,
  startApp,
  startBaseline,
  table,
  type LoadResult,
} from './lib.ts';
import {
  checkCaching,
  warmEveryRestaurant,
  measureAvailability,
  measureBaseline,
  measureBaselineWithHeaders,
  measureBurst,
  measureCalendar,
  measurePage,
  measurePageBaseline,
  samplePage,
  type HeaderCheck,
} from './reads.ts';

const target = benchTarget();
const restaurants = defaultRestaurantCount(target);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** How many interleaved rounds of baseline, availability and calendar; the figures are their medians. */
const benchRounds = Number(process.env.BENCH_ROUNDS ?? 3);
const only = process.env.BENCH_ONLY;
const now = new Date();
const rows: string[][] = [];
let correctnessFailed = false;

type ReadName = 'baseline' | 'baselineWithHeaders' | 'availability' | 'calendar' | 'pageBaseline' | 'page';

const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');

/** The production web build the restaurant page is made from, built first when missing. */
function webBuild(): string {
  const dir = resolve('dist/web');
  if (!existsSync(join(dir, 'index.html'))) {
    const built = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed; the restaurant page needs the web build');
  }
  return dir;
}
function check(pass: boolean): string {
  if (!pass) correctnessFailed = true;
  return verdict(pass);
}

/** Opens the database for a step; the embedded engine is opened only while no server holds it. */
async function withDatabase<T>(work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = await openBenchDatabase(target);
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

console.log('Tablefair benchmarks');
console.log(`  machine:  ${machineNote()}; compare the ratios, each measured in this run`);
console.log(
  `  database: ${target.label}${target.kind === 'postgres' ? `, app pool ${APP_POOL_SIZE} connections` : ' (one connection, inside the app process)'}`,
);
console.log(
  `  load:     autocannon in this process; app and baseline each in their own process; ${connections} connections, ${seconds} s per read run, ${benchRounds} interleaved rounds`,
);

const city = await withDatabase(async (handle) => {
  await handle.migrate();
  return ensureCity(handle, target, restaurants, now);
});

const results: Record<string, unknown> = { at: now.toISOString(), target: target.kind, restaurants, connections, seconds, machine: machineNote(), city };

if (only !== 'drop') {
  console.log('\n== Availability reads');
  const options = { connections, seconds, restaurants };
  const baselineServer = await startBaseline(PORTS.baseline);
  const reads: Record<string, LoadResult> = {};
  let checks: HeaderCheck[] = [];
  /** Each round measures the baseline (the same body, then with the app's headers too), availability, the calendar, the page's baseline and the page, back to back. */
  const rounds: Record<ReadName, LoadResult>[] = [];
  const show = (name: string, r: LoadResult) =>
    console.log(
      `  ${name.padEnd(14)} ${fmt.rps(r.rps).padStart(9)}, p50 ${fmt.ms(r.p50)}, p99 ${fmt.ms(r.p99)}, ${Math.round(r.bytesPerResponse).toLocaleString('en-US')} B/response, statuses ${JSON.stringify(r.statuses)}${r.errors + r.timeouts ? `, ${r.errors} errors (${r.timeouts} timeouts)` : ''}`,
    );
  try {
    const app = await startApp(target, PORTS.appA, undefined, { WEB_DIST_DIR: webBuild() });
    let pageBaseline: Awaited<ReturnType<typeof startBaseline>> | null = null;
    try {
      checks = [await checkCaching(app.baseUrl, '/api/restaurants'), await checkCaching(app.baseUrl, '/api/discover/available-today')];
      reads['first-reads'] = await warmEveryRestaurant(app.baseUrl, options);
      show('first-reads', reads['first-reads']);
      const pageFile = join(mkdtempSync(join(tmpdir(), 'tablefair-bench-')), 'page.html');
      writeFileSync(pageFile, await samplePage(app.baseUrl));
      pageBaseline = await startBaseline(PORTS.pageBaseline, pageFile);
      // Interleaved, so that whatever else the machine does falls on both sides of each ratio.
      for (let round = 1; round <= benchRounds; round++) {
        const baseline = await measureBaseline(baselineServer.baseUrl, options);
        show(`baseline ${round}`, baseline);
        const baselineWithHeaders = await measureBaselineWithHeaders(baselineServer.baseUrl, options);
        show(`+headers ${round}`, baselineWithHeaders);
        const availability = await measureAvailability(app.baseUrl, options, now);
        show(`availability ${round}`, availability);
        const calendar = await measureCalendar(app.baseUrl, options);
        show(`calendar ${round}`, calendar);
        const pageBare = await measurePageBaseline(pageBaseline.baseUrl, options);
        show(`page bare ${round}`, pageBare);
        const page = await measurePage(app.baseUrl, options);
        show(`page ${round}`, page);
        rounds.push({ baseline, baselineWithHeaders, availability, calendar, pageBaseline: pageBare, page });
      }
      const bursts: [string, () => Promise<LoadResult>][] = [
        ['today-304', () => measureBurst(app.baseUrl, options, '/api/discover/available-today', true)],
        ['today-full', () => measureBurst(app.baseUrl, options, '/api/discover/available-today', false)],
        ['list-304', () => measureBurst(app.baseUrl, options, '/api/restaurants', true)],
        ['list-full', () => measureBurst(app.baseUrl, options, '/api/restaurants', false)],
      ];
      for (const [name, measure] of bursts) {
        reads[name] = await measure();
        show(name, reads[name]);
      }
    } finally {
      await pageBaseline?.stop();
      await app.stop();
    }
  } finally {
    await baselineServer.stop();
  }
  const medianOf = (name: ReadName, figure: 'rps' | 'p99') => median(rounds.map((round) => round[name][figure]));
  // A ratio is taken within each round, then the median of the rounds' ratios: a machine whose
  // speed shifts between rounds shifts both sides of a round alike.
  const ratioOf = (name: ReadName, base: ReadName) => median(rounds.map((round) => round[name].rps / round[base].rps));
  const baseRps = medianOf('baseline', 'rps');
  const baseCell = `${fmt.rps(baseRps)} (bare Fastify, same body, median of ${rounds.length})`;
  const okStatuses = (r: LoadResult, status: number) =>
    r.requests > 0 && r.errors === 0 && r.timeouts === 0 && Object.keys(r.statuses).every((s) => Number(s) === status);
  for (const [name, label, ratioTarget] of [
    ['availability', 'GET /api/restaurants/{slug}/availability', 0.7],
    ['calendar', 'GET /api/restaurants/{slug}/calendar', 0.6],
  ] as const) {
    const rps = medianOf(name, 'rps');
    const ratio = ratioOf(name, 'baseline');
    const p99 = medianOf(name, 'p99');
    const allOk = rounds.every((round) => okStatuses(round[name], 200));
    rows.push([
      `${label}: requests/s (median of ${rounds.length})`,
      fmt.rps(rps),
      baseCell,
      fmt.pct(ratio),
      `>= ${fmt.pct(ratioTarget)}`,
      verdict(ratio >= ratioTarget && allOk),
    ]);
    rows.push([`${label}: p99 (median of ${rounds.length})`, fmt.ms(p99), fmt.ms(medianOf('baseline', 'p99')), '', '< 10 ms', verdict(p99 < 10)]);
    // The targets are against the same body; this says how much of the gap is the bytes the app
    // must send besides it (security headers, request id), which cost the server and the load
    // generator alike. No target of its own.
    const withHeadersRps = medianOf('baselineWithHeaders', 'rps');
    rows.push([
      `${label}: against the same body and the app's headers`,
      fmt.rps(rps),
      `${fmt.rps(withHeadersRps)} (bare Fastify, same body and headers, median of ${rounds.length})`,
      fmt.pct(ratioOf(name, 'baselineWithHeaders')),
      '',
      '',
    ]);
    if (!allOk) correctnessFailed = true;
  }
  // The restaurant page has no target of its own (it asks the same work as availability);
  // its ratio is printed against its own same-bytes baseline.
  const pageRps = medianOf('page', 'rps');
  const pageBaseRps = medianOf('pageBaseline', 'rps');
  const pageOk = rounds.every((round) => okStatuses(round.page, 200));
  rows.push([
    `GET /r/{slug} (the restaurant page's HTML with its first screen): requests/s (median of ${rounds.length})`,
    fmt.rps(pageRps),
    `${fmt.rps(pageBaseRps)} (bare Fastify, same page as constant compressed bytes, median of ${rounds.length})`,
    fmt.pct(ratioOf('page', 'pageBaseline')),
    '',
    check(pageOk),
  ]);
  rows.push([`GET /r/{slug}: p99 (median of ${rounds.length})`, fmt.ms(medianOf('page', 'p99')), fmt.ms(medianOf('pageBaseline', 'p99')), '', '', '']);
  const firstReads = reads['first-reads'];
  rows.push([
    `first read of each of the ${restaurants.toLocaleString('en-US')} restaurants (calendar, memory cold): requests/s, p99`,
    `${fmt.rps(firstReads.rps)}, p99 ${fmt.ms(firstReads.p99)}`,
    '',
    '',
    'all 200',
    check(okStatuses(firstReads, 200)),
  ]);
  for (const [name, label, status] of [
    ['today-304', `GET /api/discover/available-today, If-None-Match (304), burst of ${connections}`, 304],
    ['today-full', `GET /api/discover/available-today, full, compressed, burst of ${connections}`, 200],
    ['list-304', `GET /api/restaurants, If-None-Match (304), burst of ${connections}`, 304],
    ['list-full', `GET /api/restaurants, full, compressed, burst of ${connections}`, 200],
  ] as const) {
    const r = reads[name];
    rows.push([`${label}: requests/s, p99`, `${fmt.rps(r.rps)}, p99 ${fmt.ms(r.p99)}`, '', '', `all ${status}`, check(okStatuses(r, status))]);
  }
  for (const c of checks) {
    rows.push([
      `${c.path}: ETag, ${c.encoding ?? 'no'} compression, 304`,
      `${c.identityBytes.toLocaleString('en-US')} B → ${c.compressedBytes.toLocaleString('en-US')} B ${c.encoding ?? ''}; If-None-Match → ${c.conditionalStatus}, ${c.conditionalBytes} B`,
      '',
      '',
      'ETag + gzip/br + 304',
      check(c.ok),
    ]);
  }
  Object.assign(results, { reads, rounds, checks });
}

if (only !== 'reads') {
  console.log(`\n== The drop: ${DROP_DINERS.toLocaleString('en-US')} diners race for ${DROP_CAPACITY} covers`);
  const plan = await withDatabase((handle) => prepareDrop(handle, now));
  const app = await startApp(target, PORTS.appA);
  let http: RaceResult;
  try {
    // Open the app's pool and warm its code paths before the race (not counted).
    await load({
      url: `${app.baseUrl}/api/restaurants/bench-drop/availability?date=${plan.date}&partySize=2`,
      connections: APP_POOL_SIZE * 2,
      durationSeconds: 2,
    });
    http = await raceOverHttp([app.baseUrl], plan);
  } finally {
    await app.stop();
  }
  const { httpCount, raw, rawCount } = await withDatabase(async (handle) => {
    const httpCount = await countDrop(handle, plan.restaurantId);
    const rawPlan = await prepareDrop(handle, now);
    const raw = await raceRawSql(target, handle, rawPlan);
    const rawCount = await countDrop(handle, rawPlan.restaurantId);
    return { httpCount, raw, rawCount };
  });
  const show = (name: string, r: RaceResult, c: DropCount) =>
    console.log(
      `  ${name.padEnd(8)} ${r.attempts} attempts in ${r.seconds.toFixed(2)} s: ${r.holds} holds, ${r.refused} refused, ${r.unexpected} unexpected; ` +
        `covers sold ${c.sold}/${DROP_CAPACITY}, oversell ${c.oversell}; per slot ${c.perSlot.map((s) => `${s.time} ${s.taken}/${s.capacity}`).join(', ')}; p99 ${fmt.ms(r.p99)}`,
    );
  show('app', http, httpCount);
  show('raw SQL', raw, rawCount);
  rows.push([
    'Drop (app, HTTP): covers sold',
    String(httpCount.sold),
    `${rawCount.sold} (raw SQL)`,
    '',
    `= ${DROP_CAPACITY}`,
    check(httpCount.sold === DROP_CAPACITY && rawCount.sold === DROP_CAPACITY),
  ]);
  rows.push([
    'Drop (app, HTTP): oversell',
    String(httpCount.oversell),
    `${rawCount.oversell} (raw SQL)`,
    '',
    '= 0',
    check(httpCount.oversell === 0 && rawCount.oversell === 0),
  ]);
  rows.push([
    'Drop (app, HTTP): answers other than 201/409',
    String(http.unexpected),
    String(raw.unexpected),
    '',
    '= 0',
    check(http.unexpected === 0 && raw.unexpected === 0),
  ]);
  rows.push([
    'Drop (app, HTTP): successful holds/s',
    fmt.rps(http.holdsPerSecond),
    `${fmt.rps(raw.holdsPerSecond)} (raw SQL, ${target.kind === 'postgres' ? `pg pool of ${APP_POOL_SIZE}` : 'PGlite in-process'})`,
    fmt.pct(http.holdsPerSecond / raw.holdsPerSecond),
    '>= 50%',
    verdict(http.holdsPerSecond / raw.holdsPerSecond >= 0.5),
  ]);
  rows.push([
    'Drop (app, HTTP): attempts/s (201 + 409)',
    fmt.rps(http.attemptsPerSecond),
    fmt.rps(raw.attemptsPerSecond),
    fmt.pct(http.attemptsPerSecond / raw.attemptsPerSecond),
    '',
    '',
  ]);
  rows.push(['Drop (app, HTTP): p99 latency of create', fmt.ms(http.p99), `${fmt.ms(raw.p99)} (raw SQL)`, '', '', '']);
  Object.assign(results, { drop: { http, httpCount, raw, rawCount } });
}

console.log(
  `\n== Results (${target.kind === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'}, ${restaurants.toLocaleString('en-US')} restaurants; ${machineNote('at the end')})\n`,
);
console.log(table(['figure', 'measured', 'baseline (same run)', 'ratio', 'target', 'verdict'], rows));
if (process.env.BENCH_RESULTS) writeFileSync(process.env.BENCH_RESULTS, JSON.stringify(results, null, 2));
process.exit(correctnessFailed ? 1 : 0);
