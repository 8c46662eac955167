/**
 * The hot path against bare Fastify at the settings the app runs with (decision 270): for each
 * setting, the app is started as its own process and measured in interleaved rounds beside the
 * same-body baseline, with the load sent from a separate process (bench/external-load.ts).
 * Before the settings, the generator's ceiling: Node's bare HTTP server with the same body, to show
 * that the generator outruns the Fastify baseline rather than the baseline running into it.
 */
import { join } from 'node:path';
import { externalLoad, type ExternalResult } from './external-load.ts';
import { fmt, median, startApp, type BenchTarget, type RunningServer } from './lib.ts';
import { availabilityPaths, BROWSER_ENCODINGS, calendarPaths, warmEveryAnswer, warmEveryRestaurant, type ReadOptions } from './reads.ts';

export interface Setting {
  name: string;
  /** How the setting is written in the output and in docs/performance.md. */
  label: string;
  env: Record<string, string | undefined>;
  /** Throughput targets as a share of the baseline; p99 in ms (none: printed, not judged). */
  targets: { availability?: number; calendar?: number; p99?: number };
}

/** The settings side by side: as a newcomer runs `npm start`, and production with request logs on and off. */
export const SETTINGS: readonly Setting[] = [
  { name: 'default', label: '`npm start` settings (NODE_ENV unset, LOG_LEVEL=info)', env: { NODE_ENV: undefined, LOG_LEVEL: 'info' }, targets: {} },
  {
    name: 'production-info',
    label: 'NODE_ENV=production, LOG_LEVEL=info',
    env: { NODE_ENV: 'production', LOG_LEVEL: 'info' },
    targets: { availability: 0.6, calendar: 0.55, p99: 10 },
  },
  {
    name: 'production-warn',
    label: 'NODE_ENV=production, LOG_LEVEL=warn',
    env: { NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    targets: { availability: 0.75 },
  },
];

/** BENCH_SETTINGS=default,production-info picks some; all three otherwise. */
export function chosenSettings(): Setting[] {
  const names = (process.env.BENCH_SETTINGS ?? '').split(',').filter(Boolean);
  const unknown = names.filter((name) => !SETTINGS.some((setting) => setting.name === name));
  if (unknown.length) throw new Error(`BENCH_SETTINGS: unknown ${unknown.join(', ')} (known: ${SETTINGS.map((s) => s.name).join(', ')})`);
  return SETTINGS.filter((setting) => names.length === 0 || names.includes(setting.name));
}

const HEADERS = { 'accept-encoding': BROWSER_ENCODINGS };

export const show = (name: string, r: ExternalResult) =>
  console.log(
    `  ${name.padEnd(24)} ${fmt.rps(r.rps).padStart(9)}, p50 ${fmt.ms(r.p50)}, p99 ${fmt.ms(r.p99)}, ${Math.round(r.bytesPerResponse).toLocaleString('en-US')} B/response, server busy ${Math.round(r.serverBusy * 100)} % of a core${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}${r.errors ? `, ${r.errors} errors` : ''}`,
  );

export interface CeilingCheck {
  ceiling: ExternalResult;
  baseline: ExternalResult;
  /** The generator reached clearly more on the bare HTTP server than on the Fastify baseline. */
  outruns: boolean;
}

/** The generator against Node's bare HTTP server, then against the Fastify baseline, same body. */
export async function checkGeneratorCeiling(ceiling: RunningServer, baseline: RunningServer, options: ReadOptions): Promise<CeilingCheck> {
  const run = (server: RunningServer, path: string) =>
    externalLoad({
      baseUrl: server.baseUrl,
      paths: [path],
      headers: HEADERS,
      connections: options.connections,
      seconds: options.seconds,
      serverPid: server.child.pid,
    });
  const ceilingResult = await run(ceiling, '/');
  show('generator ceiling', ceilingResult);
  const baselineResult = await run(baseline, '/constant');
  show('baseline', baselineResult);
  // 10 % above the baseline: the baseline is then held back by its own work, not by the generator.
  return { ceiling: ceilingResult, baseline: baselineResult, outruns: ceilingResult.rps > baselineResult.rps * 1.1 };
}

export interface SettingRound {
  baseline: ExternalResult;
  availability: ExternalResult;
  calendar: ExternalResult;
}

export interface SettingResult {
  setting: Setting;
  rounds: SettingRound[];
  firstReads: { rps: number; p99: number; ok: boolean };
  /** The first answer of each distinct availability path of the rounds (warmEveryAnswer). */
  firstAnswers: { rps: number; p99: number; answers: number; ok: boolean };
}

/**
 * One setting: the app started with it, every restaurant read once (the memory warm, as after a
 * server's first minutes) and every availability answer the rounds ask for built once (each is
 * kept until a change), then `rounds` interleaved rounds of baseline, availability, calendar.
 * `alsoWhileRunning` runs against the same app afterwards (the caching checks and bursts).
 */
export async function measureSetting(
  setting: Setting,
  context: { target: BenchTarget; port: number; baseline: RunningServer; options: ReadOptions; rounds: number; now: Date; logDir: string; webDistDir: string },
  alsoWhileRunning?: (app: RunningServer) => Promise<void>,
): Promise<SettingResult> {
  const { target, port, baseline, options, now } = context;
  console.log(`\n-- ${setting.label}`);
  const logFile = join(context.logDir, `app-${setting.name}.log`);
  const app = await startApp(target, port, `app (${setting.name}) :${port}`, { ...setting.env, WEB_DIST_DIR: context.webDistDir }, logFile);
  const availability = availabilityPaths(options.restaurants, now);
  const calendar = calendarPaths(options.restaurants);
  const rounds: SettingRound[] = [];
  try {
    const warm = await warmEveryRestaurant(app.baseUrl, options);
    const firstReads = { rps: warm.rps, p99: warm.p99, ok: warm.errors === 0 && Object.keys(warm.statuses).every((s) => s === '200') };
    const answers = await warmEveryAnswer(app.baseUrl, availability, options.connections);
    const firstAnswers = {
      rps: answers.rps,
      p99: answers.p99,
      answers: answers.requests,
      ok: answers.errors === 0 && Object.keys(answers.statuses).every((s) => s === '200'),
    };
    const run = (server: RunningServer, paths: readonly string[]) =>
      externalLoad({
        baseUrl: server.baseUrl,
        paths,
        headers: HEADERS,
        connections: options.connections,
        seconds: options.seconds,
        serverPid: server.child.pid,
      });
    for (let round = 1; round <= context.rounds; round++) {
      const result = {
        baseline: await run(baseline, ['/constant']),
        availability: await run(app, availability),
        calendar: await run(app, calendar),
      };
      show(`baseline ${round}`, result.baseline);
      show(`availability ${round}`, result.availability);
      show(`calendar ${round}`, result.calendar);
      rounds.push(result);
    }
    await alsoWhileRunning?.(app);
    return { setting, rounds, firstReads, firstAnswers };
  } finally {
    await app.stop();
  }
}

/** A ratio is taken within each round, then the median of the rounds' ratios (decision 181). */
export function summarise(result: SettingResult, name: 'availability' | 'calendar') {
  const { rounds } = result;
  const ratios = rounds.map((round) => round[name].rps / round.baseline.rps);
  return {
    baselineRps: median(rounds.map((round) => round.baseline.rps)),
    rps: median(rounds.map((round) => round[name].rps)),
    ratio: median(ratios),
    ratios,
    p99: median(rounds.map((round) => round[name].p99)),
    busy: median(rounds.map((round) => round[name].serverBusy)),
    allOk: rounds.every((round) => round[name].requests > 0 && round[name].non2xx === 0 && round[name].errors === 0),
  };
}
