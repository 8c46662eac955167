/**
 * `npm run bench`: the availability reads and the drop, each beside a baseline measured in the
 * same run on the same machine, with the ratio, the target and PASS/FAIL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tablefair_bench npm run bench   (2,000 restaurants)
 *   npm run bench                                                                   (embedded PGlite, 200)
 *
 * The data set is generated first when missing or not for today (bench/generate-city.ts).
 * The reads (decision 270): the load comes from a separate process (wrk, else autocannon in a child
 * process); first the generator's ceiling against the bare baseline, then, for each setting
 * (`npm start`'s, production with LOG_LEVEL=info, production with LOG_LEVEL=warn), the first read
 * of every restaurant and the first answer of every availability path the rounds ask for (both
 * reported, as what a cold answer costs), then interleaved rounds of the bare baseline,
 * availability and the calendar on kept answers, reported as medians.
 * Knobs: BENCH_SECONDS (5 per read run), BENCH_WARMUP_SECONDS (1 before each), BENCH_ROUNDS (3),
 * BENCH_SETTINGS (default,production-info,production-warn), BENCH_PAGE=1 (the restaurant page too),
 * BENCH_CONNECTIONS (50), BENCH_RESTAURANTS, BENCH_ONLY=reads|drop,
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
import { externalLoad, GENERATOR } from './external-load.ts';
import { checkGeneratorCeiling, chosenSettings, measureSetting, show as showRun, summarise, type CeilingCheck, type SettingResult } from './hot-path.ts';
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
  startCeiling,
  table,
  type LoadResult,
  type RunningServer,
} from './lib.ts';
import { BROWSER_ENCODINGS, checkCaching, measureBurst, pagePaths, samplePage, type HeaderCheck } from './reads.ts';

const target = benchTarget();
const restaurants = defaultRestaurantCount(target);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** How many interleaved rounds of baseline, availability and calendar; the figures are their medians. */
const benchRounds = Number(process.env.BENCH_ROUNDS ?? 3);
const only = process.env.BENCH_ONLY;
const now = new Date();
const rows: string[][] = [];
let correctnessFailed = false;

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
  `  load:     ${GENERATOR}; app and baselines each in their own process; ${connections} connections, ${seconds} s per read run after ${process.env.BENCH_WARMUP_SECONDS ?? 1} s of warm-up, ${benchRounds} interleaved rounds per setting`,
);

const city = await withDatabase(async (handle) => {
  await handle.migrate();
  return ensureCity(handle, target, restaurants, now);
});

const results: Record<string, unknown> = { at: now.toISOString(), target: target.kind, restaurants, connections, seconds, machine: machineNote(), city };

if (only !== 'drop') {
  console.log('\n== Availability reads');
  const options = { connections, seconds, restaurants };
  const logDir = mkdtempSync(join(tmpdir(), 'tablefair-bench-logs-'));
  const webDistDir = webBuild();
  const baselineServer = await startBaseline(PORTS.baseline);
  const reads: Record<string, LoadResult> = {};
  let checks: HeaderCheck[] = [];
  const settings: SettingResult[] = [];
  const pageRounds: { pageBare: LoadResult; page: LoadResult }[] = [];
  let ceiling: CeilingCheck;
  try {
    const ceilingServer = await startCeiling(PORTS.ceiling);
    try {
      ceiling = await checkGeneratorCeiling(ceilingServer, baselineServer, options);
    } finally {
      await ceilingServer.stop();
    }
    // The caching checks, the bursts and (BENCH_PAGE=1) the restaurant page run against the app at
    // production settings with request logs on, the settings the targets are for.
    const alsoAtProductionInfo = async (app: RunningServer) => {
      checks = [await checkCaching(app.baseUrl, '/api/restaurants'), await checkCaching(app.baseUrl, '/api/discover/available-today')];
      const pageFile = join(logDir, 'page.html');
      writeFileSync(pageFile, await samplePage(app.baseUrl));
      if (process.env.BENCH_PAGE === '1') {
        const pageBaseline = await startBaseline(PORTS.pageBaseline, pageFile);
        try {
          const headers = { 'accept-encoding': BROWSER_ENCODINGS };
          const paths = pagePaths(restaurants);
          for (let round = 1; round <= benchRounds; round++) {
            const pageBare = await externalLoad({
              baseUrl: pageBaseline.baseUrl,
              paths: ['/page'],
              headers,
              connections,
              seconds,
              serverPid: pageBaseline.child.pid,
            });
            const page = await externalLoad({ baseUrl: app.baseUrl, paths, headers, connections, seconds, serverPid: app.child.pid });
            showRun(`page bare ${round}`, pageBare);
            showRun(`page ${round}`, page);
            pageRounds.push({ pageBare, page });
          }
        } finally {
          await pageBaseline.stop();
        }
      }
      for (const [name, path, conditional] of [
        ['today-304', '/api/discover/available-today', true],
        ['today-full', '/api/discover/available-today', false],
        ['list-304', '/api/restaurants', true],
        ['list-full', '/api/restaurants', false],
      ] as const) {
        reads[name] = await measureBurst(app.baseUrl, options, path, conditional);
      }
    };
    const context = { target, port: PORTS.appA, baseline: baselineServer, options, rounds: benchRounds, now, logDir, webDistDir };
    for (const setting of chosenSettings()) {
      settings.push(await measureSetting(setting, context, setting.name === 'production-info' ? alsoAtProductionInfo : undefined));
    }
  } finally {
    await baselineServer.stop();
  }
  rows.push([
    'load generator: its ceiling (bare node:http, same body) against the bare Fastify baseline',
    `${fmt.rps(ceiling.ceiling.rps)}, p99 ${fmt.ms(ceiling.ceiling.p99)}`,
    `${fmt.rps(ceiling.baseline.rps)}, p99 ${fmt.ms(ceiling.baseline.p99)}, the baseline busy ${Math.round(ceiling.baseline.serverBusy * 100)} % of a core`,
    fmt.pct(ceiling.baseline.rps / ceiling.ceiling.rps),
    'ceiling > 1.1 × baseline',
    verdict(ceiling.outruns),
  ]);
  const okStatuses = (r: LoadResult, status: number) =>
    r.requests > 0 && r.errors === 0 && r.timeouts === 0 && Object.keys(r.statuses).every((s) => Number(s) === status);
  for (const result of settings) {
    const { setting } = result;
    for (const name of ['availability', 'calendar'] as const) {
      const figures = summarise(result, name);
      const ratioTarget = setting.targets[name];
      const p99Target = name === 'availability' ? setting.targets.p99 : undefined;
      const pass = (ratioTarget === undefined || figures.ratio >= ratioTarget) && (p99Target === undefined || figures.p99 < p99Target);
      rows.push([
        `${setting.label}: ${name} (median of ${result.rounds.length}; rounds ${figures.ratios.map((r) => fmt.pct(r)).join(' / ')})`,
        `${fmt.rps(figures.rps)}, p99 ${fmt.ms(figures.p99)}, app busy ${Math.round(figures.busy * 100)} %`,
        `${fmt.rps(figures.baselineRps)} bare Fastify, same body`,
        fmt.pct(figures.ratio),
        [ratioTarget === undefined ? '' : `>= ${fmt.pct(ratioTarget)}`, p99Target === undefined ? '' : `p99 < ${p99Target} ms`].filter(Boolean).join(', '),
        ratioTarget === undefined && p99Target === undefined ? check(figures.allOk) : verdict(pass && figures.allOk),
      ]);
      if (!figures.allOk) correctnessFailed = true;
    }
    rows.push([
      `${setting.label}: first read of each of the ${restaurants.toLocaleString('en-US')} restaurants (calendar, memory cold)`,
      `${fmt.rps(result.firstReads.rps)}, p99 ${fmt.ms(result.firstReads.p99)}`,
      '',
      '',
      'all 200',
      check(result.firstReads.ok),
    ]);
    rows.push([
      `${setting.label}: first answer of each (restaurant, date, party size) the rounds ask for (${result.firstAnswers.answers.toLocaleString('en-US')}; availability, answer not kept)`,
      `${fmt.rps(result.firstAnswers.rps)}, p99 ${fmt.ms(result.firstAnswers.p99)}`,
      '',
      '',
      'all answered',
      check(result.firstAnswers.ok),
    ]);
  }
  if (pageRounds.length) {
    const ratio = median(pageRounds.map((round) => round.page.rps / round.pageBare.rps));
    rows.push([
      `GET /r/{slug} at production-info (median of ${pageRounds.length})`,
      `${fmt.rps(median(pageRounds.map((round) => round.page.rps)))}, p99 ${fmt.ms(median(pageRounds.map((round) => round.page.p99)))}`,
      `${fmt.rps(median(pageRounds.map((round) => round.pageBare.rps)))} (bare Fastify, the same compressed bytes)`,
      fmt.pct(ratio),
      '',
      check(pageRounds.every((round) => round.page.non2xx === 0 && round.page.errors === 0)),
    ]);
  }
  for (const [name, label, status] of [
    ['today-304', `GET /api/discover/available-today, If-None-Match (304), burst of ${connections}`, 304],
    ['today-full', `GET /api/discover/available-today, full, compressed, burst of ${connections}`, 200],
    ['list-304', `GET /api/restaurants, If-None-Match (304), burst of ${connections}`, 304],
    ['list-full', `GET /api/restaurants, full, compressed, burst of ${connections}`, 200],
  ] as const) {
    const r = reads[name];
    if (r) rows.push([`${label}: requests/s, p99`, `${fmt.rps(r.rps)}, p99 ${fmt.ms(r.p99)}`, '', '', `all ${status}`, check(okStatuses(r, status))]);
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
  Object.assign(results, { ceiling, settings, pageRounds, reads, checks });
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
