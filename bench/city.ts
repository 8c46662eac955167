/**
 * `npm run bench:city`: the read path at city scale on PostgreSQL, at the settings production runs
 * (NODE_ENV=production, LOG_LEVEL=info), with the load from wrk in its own process (decision 270).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tablefair_city_bench npm run bench:city
 *
 * 1. The city (bench/generate-city.ts; generated when missing): 2,000 restaurants with floors and
 *    bookings laid on their tables over 30 days.
 * 2. The covers model over the same data: a copy of the database (`<name>_covers`, made with
 *    CREATE DATABASE … TEMPLATE) with the floors removed. A restaurant without tables is on covers
 *    alone (decision 240): the same app, the same slots and bookings, answered by slot capacity.
 * 3. Servers: two app instances (A, B) on the floor database, one (C) on the covers copy, the bare
 *    Fastify same-body baseline and Node's bare HTTP server for the generator's ceiling.
 * 4. The first read (memory cold) of every restaurant on A, B and C: rate and p99; then a check that
 *    sampled answers are 200 with the contract's shape, and how many times each model offers; then
 *    the first answer of every distinct path the rounds ask for, on each instance (the cold
 *    answer's rate), so the rounds measure kept answers as `npm run bench` does.
 * 5. BENCH_ROUNDS (3) interleaved rounds of: baseline; availability spread over A + B (one wrk per
 *    instance, 25 connections each); calendar over A + B; availability on A alone; availability on
 *    C alone (the covers model). Medians; each ratio is the median of the rounds' ratios.
 *    Each round also says how many restaurant reads A, B and C made for their availability memory
 *    (misses and background reloads, from /metrics): more than BENCH_CITY_ROUND_READS (5) in a
 *    round flags it, since its figures then include re-reading restaurants, not only the warm path.
 * 6. With BENCH_CITY_PROFILE_DIR, a fresh A under `--cpu-prof` reads every restaurant once (memory
 *    cold) and the profile's top self-time functions are printed.
 *
 * Random restaurant, date (30 days) and party size (2–8) per availability request.
 * Exit code 1 when a check fails (an answer not 200, a wrong shape, a generator that does not
 * outrun the baseline); the targets (≥ 0.50×, p99 < 10 ms) are printed, not enforced.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { availabilityCalendar, availabilityResponse } from '#common/contract/restaurants.ts';
import { externalLoad, externalLoadSplit, GENERATOR, type ExternalResult } from './external-load.ts';
import { defaultRestaurantCount, ensureCity, readCityMarker } from './generate-city.ts';
import { checkGeneratorCeiling, show } from './hot-path.ts';
import {
  availabilityCacheReads,
  BENCH_METRICS_TOKEN,
  benchTarget,
  fmt,
  machineNote,
  median,
  openBenchDatabase,
  PORTS,
  querySql,
  residentMb,
  restaurantReadsBetween,
  startApp,
  startBaseline,
  startCeiling,
  table,
  type BenchTarget,
  type LoadResult,
  type RunningServer,
} from './lib.ts';
import { availabilityPaths, BROWSER_ENCODINGS, calendarPaths, warmEveryAnswer, warmEveryRestaurant, type ReadOptions } from './reads.ts';

const target = benchTarget();
if (target.kind !== 'postgres') {
  console.error('bench:city needs PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/tablefair_city_bench).');
  process.exit(2);
}
const now = new Date();
const restaurants = defaultRestaurantCount(target);
const options: ReadOptions = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  restaurants,
};
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PRODUCTION_INFO = { NODE_ENV: 'production', LOG_LEVEL: 'info', METRICS_TOKEN: BENCH_METRICS_TOKEN };
/** Restaurant reads a round may cause on one instance and still count as a warm round (a handful: a date outside the held days, say). */
const ROUND_READS_ALLOWED = Number(process.env.BENCH_CITY_ROUND_READS ?? 5);
const HEADERS = { 'accept-encoding': BROWSER_ENCODINGS };
const logDir = mkdtempSync(join(tmpdir(), 'tablefair-city-'));
let failed = false;

console.log('Tablefair city read: PostgreSQL, two instances, production-info settings');
console.log(`  machine: ${machineNote()}`);
console.log(`  database: ${target.label}; generator: ${GENERATOR}; ${options.connections} connections, ${options.seconds} s runs, ${ROUNDS} rounds`);

/** The same database's copy without floors: the covers model over the same data. */
async function ensureCoversCopy(floorTarget: BenchTarget): Promise<BenchTarget> {
  const url = new URL(floorTarget.databaseUrl!);
  const source = url.pathname.slice(1);
  const copy = `${source}_covers`;
  const copyUrl = new URL(url);
  copyUrl.pathname = `/${copy}`;
  const coversTarget: BenchTarget = { ...floorTarget, databaseUrl: copyUrl.href, label: `PostgreSQL ${url.hostname}:${url.port || 5432}/${copy}` };
  const sourceHandle = await openBenchDatabase(floorTarget, 1);
  const wanted = JSON.stringify(await readCityMarker(sourceHandle));
  await sourceHandle.close();
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    const exists = (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [copy])).rowCount! > 0;
    if (exists) {
      const copyHandle = await openBenchDatabase(coversTarget, 1);
      const marker = JSON.stringify(await readCityMarker(copyHandle).catch(() => undefined));
      await copyHandle.close();
      if (marker === wanted) return coversTarget;
      await client.query(`DROP DATABASE ${pg.escapeIdentifier(copy)}`);
    }
    const started = performance.now();
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(copy)} TEMPLATE ${pg.escapeIdentifier(source)}`);
    const copyHandle = await openBenchDatabase(coversTarget, 1);
    // Triggers off: the copy has no listeners yet, and the rows go as a whole.
    await copyHandle.db.transaction(async (tx) => {
      const { sql } = await import('drizzle-orm');
      await tx.execute(sql.raw('SET LOCAL session_replication_role = replica'));
      await tx.execute(sql.raw('TRUNCATE table_assignments, table_combinations, floor_settings, floor_tables'));
    });
    await copyHandle.close();
    console.log(`  covers model: ${copy}, a copy without floors, made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return coversTarget;
  } finally {
    await client.end();
  }
}

/** Sampled answers: every one 200 with the contract's shape; how many times each model offers. */
async function checkAnswers(servers: { name: string; server: RunningServer }[], paths: readonly string[]) {
  const sample = paths.slice(0, 400);
  const offered: Record<string, number[]> = {};
  for (const { name, server } of servers) {
    offered[name] = [];
    for (const path of sample) {
      const response = await fetch(`${server.baseUrl}${path}`);
      const parsed = availabilityResponse.safeParse(await response.json().catch(() => null));
      if (response.status !== 200 || !parsed.success) {
        console.log(`  FAIL ${name} ${path}: ${response.status} ${parsed.success ? '' : 'wrong shape'}`);
        failed = true;
        offered[name].push(-1);
        continue;
      }
      offered[name].push(parsed.data.filter((entry) => entry.available).length);
    }
    const calendar = await fetch(`${server.baseUrl}${calendarPaths(restaurants)[0]}`);
    if (calendar.status !== 200 || !availabilityCalendar.safeParse(await calendar.json()).success) {
      console.log(`  FAIL ${name} calendar: ${calendar.status}`);
      failed = true;
    }
  }
  return { sample: sample.length, offered };
}

const running: RunningServer[] = [];
const stopAll = () => Promise.all(running.splice(0).map((server) => server.stop()));
const loads: string[] = [machineNote('at start')];

try {
  const handle = await openBenchDatabase(target);
  await handle.migrate();
  const marker = await ensureCity(handle, target, restaurants, now);
  const [{ tables, assignments }] = await querySql<{ tables: number; assignments: number }>(
    handle,
    'SELECT (SELECT count(*) FROM floor_tables)::int AS tables, (SELECT count(*) FROM table_assignments)::int AS assignments',
  );
  console.log(
    `  city: ${restaurants.toLocaleString('en-US')} restaurants, ${marker.slots.toLocaleString('en-US')} slots, ${tables.toLocaleString('en-US')} tables, ${marker.bookings.toLocaleString('en-US')} bookings, ${assignments.toLocaleString('en-US')} table assignments`,
  );
  await handle.close();
  const coversTarget = await ensureCoversCopy(target);

  const ceiling = await startCeiling(PORTS.ceiling);
  const baseline = await startBaseline(PORTS.baseline);
  running.push(ceiling, baseline);
  const a = await startApp(target, PORTS.appA, 'app A (floor)', PRODUCTION_INFO, join(logDir, 'app-a.log'));
  running.push(a);
  const b = await startApp(target, PORTS.appB, 'app B (floor)', PRODUCTION_INFO, join(logDir, 'app-b.log'));
  running.push(b);
  // The covers model's instance takes the port the page baseline would (this bench has no page).
  const c = await startApp(coversTarget, PORTS.pageBaseline, 'app C (covers)', PRODUCTION_INFO, join(logDir, 'app-c.log'));
  running.push(c);
  console.log(`  instances: A ${a.baseUrl} (pid ${a.child.pid}), B ${b.baseUrl} (pid ${b.child.pid}), C ${c.baseUrl} (pid ${c.child.pid}, covers)`);
  const rssAtStart = [a, b, c].map((server) => residentMb(server.child.pid!));

  console.log('\n== First read of every restaurant (memory cold): one calendar each, 50 at a time');
  const instances = [
    ['A', a, 'floor'],
    ['B', b, 'floor'],
    ['C', c, 'covers'],
  ] as const;
  /** One warm pass on each instance in turn, printed and checked: every answer a 200, and `expected` of them when given. */
  const warmEach = async (warm: (server: RunningServer) => Promise<LoadResult>, expected?: number) => {
    const results: Record<string, { rps: number; p99: number; answers: number; ok: boolean }> = {};
    for (const [letter, server, model] of instances) {
      const name = `${letter} (${model})`;
      const result = await warm(server);
      const ok =
        result.errors === 0 && (expected === undefined || result.requests === expected) && Object.keys(result.statuses).every((status) => status === '200');
      if (!ok) failed = true;
      results[name] = { rps: result.rps, p99: result.p99, answers: result.requests, ok };
      console.log(
        `  ${name}: ${result.requests} answered, ${fmt.rps(result.rps)}, p50 ${fmt.ms(result.p50)}, p99 ${fmt.ms(result.p99)}, statuses ${JSON.stringify(result.statuses)}`,
      );
    }
    return results;
  };
  const firstReads = await warmEach((server) => warmEveryRestaurant(server.baseUrl, options), restaurants);
  const rssWarm = [a, b, c].map((server) => residentMb(server.child.pid!));

  const availability = availabilityPaths(restaurants, now);
  const calendar = calendarPaths(restaurants);
  console.log('\n== The answers: 200 and the contract shape, sampled');
  const check = await checkAnswers(
    [
      { name: 'floor', server: a },
      { name: 'covers', server: c },
    ],
    availability,
  );
  const floorOffered = check.offered.floor;
  const coversOffered = check.offered.covers;
  const differing = floorOffered.filter((count, i) => count !== coversOffered[i]).length;
  const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
  const noneOffered = (values: number[]) => values.filter((v) => v === 0).length;
  console.log(
    `  ${check.sample} availability answers each: floor offers ${mean(floorOffered).toFixed(1)} of 16 times on average (${noneOffered(floorOffered)} answers offer none), ` +
      `covers ${mean(coversOffered).toFixed(1)} (${noneOffered(coversOffered)} none); the two differ in ${differing} answers`,
  );

  // As `npm run bench` does (warmEveryAnswer): every answer the rounds ask for is built once, on
  // each instance, so the rounds measure a running city's kept answers and this pass the cost of
  // building them (the cold answer), each on its own row.
  console.log(`\n== The first answer of every (restaurant, date, party size) the rounds ask for, on each instance`);
  const firstAnswers = await warmEach((server) => warmEveryAnswer(server.baseUrl, availability, options.connections));
  const rssAnswered = [a, b, c].map((server) => residentMb(server.child.pid!));

  console.log('\n== The generator against the bare servers');
  const ceilingCheck = await checkGeneratorCeiling(ceiling, baseline, options);
  console.log(`  ceiling ${fmt.rps(ceilingCheck.ceiling.rps)} vs baseline ${fmt.rps(ceilingCheck.baseline.rps)}: ${ceilingCheck.outruns ? 'PASS' : 'FAIL'}`);
  if (!ceilingCheck.outruns) failed = true;

  const one = (server: RunningServer, paths: readonly string[]) =>
    externalLoad({ baseUrl: server.baseUrl, paths, headers: HEADERS, connections: options.connections, seconds: options.seconds, serverPid: server.child.pid });
  const both = (paths: readonly string[]) =>
    externalLoadSplit({
      servers: [a, b].map((server) => ({ baseUrl: server.baseUrl, pid: server.child.pid })),
      paths,
      headers: HEADERS,
      connections: options.connections,
      seconds: options.seconds,
    });
  interface Round {
    baseline: ExternalResult;
    availability: Awaited<ReturnType<typeof both>>;
    calendar: Awaited<ReturnType<typeof both>>;
    floorOne: ExternalResult;
    coversOne: ExternalResult;
  }
  const rounds: Round[] = [];
  /** Restaurant reads per instance: misses plus background reloads (decision 239). */
  const readsNow = () => Promise.all(instances.map(([, server]) => availabilityCacheReads(server.baseUrl)));
  const flaggedRounds: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`\n== Round ${round} (${machineNote('now')})`);
    const readsBefore = await readsNow();
    const result: Round = {
      baseline: await one(baseline, ['/constant']),
      availability: await both(availability),
      calendar: await both(calendar),
      floorOne: await one(a, availability),
      coversOne: await one(c, availability),
    };
    show('baseline', result.baseline);
    show('availability A+B', result.availability);
    console.log(
      `    A busy ${Math.round(result.availability.perServer[0].serverBusy * 100)} %, B busy ${Math.round(result.availability.perServer[1].serverBusy * 100)} % of a core`,
    );
    show('calendar A+B', result.calendar);
    console.log(
      `    A busy ${Math.round(result.calendar.perServer[0].serverBusy * 100)} %, B busy ${Math.round(result.calendar.perServer[1].serverBusy * 100)} % of a core`,
    );
    show('availability A (floor)', result.floorOne);
    show('availability C (covers)', result.coversOne);
    const readsAfter = await readsNow();
    const readsText = instances.map(([name], i) => {
      const { misses, reloads, reloaded, total } = restaurantReadsBetween(readsBefore[i], readsAfter[i]);
      if (total > ROUND_READS_ALLOWED) flaggedRounds.push(`round ${round} ${name}: ${total}`);
      const outcomes = reloads.filter(([, count]) => count > 0).map(([outcome, count]) => `${count} ${outcome}`);
      return `${name} ${total} (${misses} misses, ${reloaded} reloads ahead${outcomes.length ? `: ${outcomes.join(', ')}` : ''})`;
    });
    console.log(`    restaurant reads in the round: ${readsText.join('; ')}`);
    rounds.push(result);
    for (const run of [result.baseline, result.availability, result.calendar, result.floorOne, result.coversOne]) {
      if (run.requests === 0 || run.non2xx > 0 || run.errors > 0) failed = true;
    }
  }
  const rssEnd = [a, b, c].map((server) => residentMb(server.child.pid!));
  loads.push(machineNote('at the end of the rounds'));

  const pick = (name: 'availability' | 'calendar' | 'floorOne' | 'coversOne') => ({
    rps: median(rounds.map((r) => r[name].rps)),
    ratios: rounds.map((r) => r[name].rps / r.baseline.rps),
    p50: median(rounds.map((r) => r[name].p50)),
    p99: median(rounds.map((r) => r[name].p99)),
  });
  const busy = (name: 'availability' | 'calendar', k: number) => median(rounds.map((r) => r[name].perServer[k].serverBusy));
  const rows: string[][] = [];
  const baselineRps = median(rounds.map((r) => r.baseline.rps));
  rows.push(['bare Fastify, same body (one process)', fmt.rps(baselineRps), '', '', '', '']);
  for (const [label, name, busyText] of [
    ['availability, A + B (floor)', 'availability', `A ${Math.round(busy('availability', 0) * 100)} %, B ${Math.round(busy('availability', 1) * 100)} %`],
    ['calendar, A + B (floor)', 'calendar', `A ${Math.round(busy('calendar', 0) * 100)} %, B ${Math.round(busy('calendar', 1) * 100)} %`],
    ['availability, A alone (floor)', 'floorOne', `${Math.round(median(rounds.map((r) => r.floorOne.serverBusy)) * 100)} %`],
    ['availability, C alone (covers model)', 'coversOne', `${Math.round(median(rounds.map((r) => r.coversOne.serverBusy)) * 100)} %`],
  ] as const) {
    const figures = pick(name);
    rows.push([
      label,
      fmt.rps(figures.rps),
      `**${fmt.pct(median(figures.ratios))}** (${figures.ratios.map((ratio) => (ratio * 100).toFixed(0)).join(' / ')})`,
      fmt.ms(figures.p50),
      fmt.ms(figures.p99),
      busyText,
    ]);
  }
  const floorVsCovers = rounds.map((r) => r.floorOne.rps / r.coversOne.rps);
  console.log(`\n== Results (${restaurants.toLocaleString('en-US')} restaurants, PostgreSQL, NODE_ENV=production LOG_LEVEL=info)\n`);
  console.log(table(['run', 'rate (median)', 'ratio to baseline (rounds)', 'p50', 'p99', 'server busy (share of a core)'], rows));
  console.log(
    `\nfloor / covers on one instance, per round: ${floorVsCovers.map((ratio) => (ratio * 100).toFixed(0)).join(' / ')} % (median ${fmt.pct(median(floorVsCovers))})`,
  );
  console.log(
    '\n' +
      table(
        ['first read (memory cold), one calendar per restaurant', 'rate', 'p99', 'all 200'],
        Object.entries(firstReads).map(([name, r]) => [name, fmt.rps(r.rps), fmt.ms(r.p99), r.ok ? 'yes' : 'NO']),
      ),
  );
  console.log(
    '\n' +
      table(
        ['first answer (answer not kept), one per distinct path of the rounds', 'answers', 'rate', 'p99', 'all 200'],
        Object.entries(firstAnswers).map(([name, r]) => [name, r.answers.toLocaleString('en-US'), fmt.rps(r.rps), fmt.ms(r.p99), r.ok ? 'yes' : 'NO']),
      ),
  );
  console.log(
    '\n' +
      table(
        ['instance', 'RSS at start (MB)', 'RSS after the first reads (MB)', 'RSS after the first answers (MB)', 'RSS at the end (MB)'],
        ['A (floor)', 'B (floor)', 'C (covers)'].map((name, i) => [
          name,
          rssAtStart[i].toFixed(0),
          rssWarm[i].toFixed(0),
          rssAnswered[i].toFixed(0),
          rssEnd[i].toFixed(0),
        ]),
      ),
  );
  console.log(
    flaggedRounds.length === 0
      ? `\nrestaurant reads in the rounds: at most ${ROUND_READS_ALLOWED} per instance and round: the rounds measure the warm path`
      : `\nFLAG: rounds re-read restaurants (more than ${ROUND_READS_ALLOWED} reads: ${flaggedRounds.join('; ')}); their figures include those reads, not the warm path alone`,
  );
  const availabilityFigures = pick('availability');
  const met = median(availabilityFigures.ratios) >= 0.5 && availabilityFigures.p99 < 10;
  console.log(`\ntarget (two instances): availability ≥ 50 % of the baseline with p99 < 10 ms: ${met ? 'met' : 'not met'}`);
  await stopAll();

  const profileDir = process.env.BENCH_CITY_PROFILE_DIR;
  if (profileDir) {
    console.log(`\n== Where the time goes when the answer is not in memory: a fresh A under --cpu-prof`);
    const profiled = await startApp(target, PORTS.appA, 'app A (profiled)', PRODUCTION_INFO, join(logDir, 'app-a-profiled.log'), [
      '--cpu-prof',
      `--cpu-prof-dir=${profileDir}`,
    ]);
    running.push(profiled);
    const warm = await warmEveryRestaurant(profiled.baseUrl, options);
    console.log(`  first reads: ${warm.requests} answered, ${fmt.rps(warm.rps)}, p99 ${fmt.ms(warm.p99)} (with the profiler on)`);
    show('then availability', await one(profiled, availability));
    await stopAll();
    // The main thread's profile is the largest (tsx's loader thread writes one too).
    const file = readdirSync(profileDir)
      .filter((name) => name.endsWith('.cpuprofile'))
      .map((name) => join(profileDir, name))
      .sort((x, y) => statSync(y).size - statSync(x).size)[0];
    if (file) console.log(profileSummary(file));
  }
} catch (error) {
  console.error(error instanceof Error ? error.stack : error);
  failed = true;
} finally {
  await stopAll();
  loads.push(machineNote('at the end'));
  console.log(`\n${loads.join('\n')}`);
}
process.exit(failed ? 1 : 0);

/** A V8 CPU profile's busy samples: the functions with the most self time, and the shares of the answers' own work. */
function profileSummary(file: string, count = 12): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
    samples: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const nameOf = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    return `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|server|common)\//, '$1/')}`.trim();
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    busy++;
    self.set(nameOf(id), (self.get(nameOf(id)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) seen.add(nameOf(at));
    for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
  }
  const share = (n: number) => `${((n / busy) * 100).toFixed(1)} %`;
  const top = [...self.entries()].sort((x, y) => y[1] - x[1]).slice(0, count);
  const watched = [
    'getAvailabilityJson',
    'getCalendarJson',
    'floorSeatsAt',
    'placeParty',
    'readFloorForAvailability',
    'parseRow',
    '(garbage collector)',
    'writev',
  ];
  const inclusiveRows = [...inclusive.entries()].filter(([name]) => watched.some((word) => name.startsWith(word)));
  return [
    `  ${busy} busy samples of ${profile.samples.length} (${file})`,
    table(
      ['function (self time)', 'share of busy samples'],
      top.map(([name, n]) => [name, share(n)]),
    ),
    table(
      ['function (with what it calls)', 'share of busy samples'],
      inclusiveRows.sort((x, y) => y[1] - x[1]).map(([name, n]) => [name, share(n)]),
    ),
  ].join('\n');
}
