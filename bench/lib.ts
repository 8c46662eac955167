/**
 * Shared pieces of the load benchmarks: where the bench data lives, starting the app and the
 * bare baseline as their own processes, autocannon as a promise, percentiles and a table.
 * Every server listens on loopback only; every load run is bounded in count and time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { kolkataInstant } from '#common/domain/time.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { hashToken } from '#server/modules/accounts/sessions.service.ts';

/** A fixed secret for the bench servers, so N instances sign alike (never a production value). */
export const BENCH_SIGNING_SECRET = 'bench-only-signing-secret-0123456789abcdef';
/** Ports of this bench (loopback): two app instances, the bare baselines, the generator's ceiling. */
export const PORTS = {
  appA: Number(process.env.BENCH_PORT_A ?? 3106),
  appB: Number(process.env.BENCH_PORT_B ?? 3107),
  baseline: Number(process.env.BENCH_PORT_BASELINE ?? 3108),
  pageBaseline: Number(process.env.BENCH_PORT_PAGE_BASELINE ?? 3109),
  ceiling: Number(process.env.BENCH_PORT_CEILING ?? 3105),
};
/** The app's pool size in the bench; the raw-SQL baseline uses the same number of connections. */
export const APP_POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);

export interface BenchTarget {
  kind: 'postgres' | 'pglite';
  databaseUrl?: string;
  /** DATA_DIR for the embedded engine (the database lives in <dataDir>/pglite). */
  dataDir: string;
  /** How the target is shown in the output (no password). */
  label: string;
}

/** PostgreSQL when DATABASE_URL is set, else the embedded PGlite under BENCH_DATA_DIR (default data/bench). */
export function benchTarget(): BenchTarget {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = resolve(process.env.BENCH_DATA_DIR ?? 'data/bench');
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    return { kind: 'postgres', databaseUrl, dataDir, label: `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}` };
  }
  return { kind: 'pglite', dataDir, label: `embedded PGlite (${dataDir}/pglite)` };
}

export function openBenchDatabase(target: BenchTarget, poolSize = APP_POOL_SIZE): Promise<DatabaseHandle> {
  return openDatabase({ databaseUrl: target.databaseUrl, databasePoolSize: poolSize, dataDir: target.dataDir });
}

/** Runs SQL text (no parameters) on either driver. */
export async function execSql(handle: DatabaseHandle, text: string): Promise<void> {
  if (handle.pglite) await handle.pglite.exec(text);
  else await handle.db.execute(sql.raw(text));
}

/** Rows of SQL text with $n parameters, on either driver. */
export async function querySql<T>(handle: DatabaseHandle, text: string, params: unknown[] = []): Promise<T[]> {
  if (handle.pglite) return (await handle.pglite.query<T>(text, params)).rows;
  const session = (handle.db as unknown as { $client: import('pg').Pool }).$client;
  return (await session.query(text, params as unknown[])).rows as T[];
}

/** One slot per time on `date` (Kolkata times), each of `capacity` covers. */
export async function insertSlots(handle: DatabaseHandle, restaurantId: string, date: string, times: readonly string[], capacity: number): Promise<void> {
  for (const time of times) {
    await querySql(handle, 'INSERT INTO slots (restaurant_id, slot_date, slot_time, starts_at, capacity) VALUES ($1, $2, $3, $4, $5)', [
      restaurantId,
      date,
      time,
      kolkataInstant(date, time).toISOString(),
      capacity,
    ]);
  }
}

/** A day-long diner session per token, in one statement, stored hashed as the app stores them. */
export async function insertDinerSessions(handle: DatabaseHandle, sessions: readonly { userId: string; token: string }[]): Promise<void> {
  await querySql(
    handle,
    `INSERT INTO sessions (token_hash, kind, subject_id, expires_at)
     SELECT t.hash, 'diner', t.id, now() + interval '1 day' FROM unnest($1::text[], $2::uuid[]) AS t(hash, id)`,
    [sessions.map((session) => hashToken(session.token)), sessions.map((session) => session.userId)],
  );
}

export interface RunningServer {
  name: string;
  baseUrl: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<RunningServer>();
process.on('exit', () => {
  for (const server of running) server.child.kill('SIGKILL');
});
// Interrupted (Ctrl-C, or a SIGTERM): take the servers down too, then stop.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const server of running) server.child.kill('SIGKILL');
    process.exit(130);
  });
}

async function waitUntilHealthy(server: RunningServer, path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited early:\n${server.output()}`);
    try {
      if ((await fetch(`${server.baseUrl}${path}`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await server.stop();
  throw new Error(`${server.name} did not start within ${timeoutMs / 1000} s:\n${server.output()}`);
}

function spawnServer(
  name: string,
  script: string,
  port: number,
  env: Record<string, string | undefined>,
  nodeArgs: string[] = [],
  logFile?: string,
): RunningServer {
  const merged: Record<string, string | undefined> = { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env };
  // A variable given as undefined is left unset, as a newcomer's shell leaves NODE_ENV.
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  // With a log file, stdout goes to it as a production log goes to a file or a collector: read by
  // nobody in the bench's own process, which would otherwise pay for every line it receives.
  if (logFile) mkdirSync(dirname(logFile), { recursive: true });
  const stdout = logFile ? openSync(logFile, 'w') : 'pipe';
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], { env: merged, stdio: ['ignore', stdout, 'pipe'] });
  if (typeof stdout === 'number') closeSync(stdout);
  let output = '';
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const server: RunningServer = {
    name,
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    output: () => (logFile ? readFileSync(logFile, 'utf8').slice(-20_000) : '') + output,
    async stop() {
      running.delete(server);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  running.add(server);
  return server;
}

/**
 * The real server (`server/main.ts`) in its own process, so the load generator does not share its
 * event loop: no demo seed, warn-level logs, rate limits far above what one bench run sends.
 */
export async function startApp(
  target: BenchTarget,
  port: number,
  name = `app :${port}`,
  extraEnv: Record<string, string | undefined> = {},
  logFile?: string,
  nodeArgsOverride?: string[],
): Promise<RunningServer> {
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'production',
    // The bench pays through the sandbox, on purpose (decision 201).
    PAYMENTS_SANDBOX_DEMO: '1',
    TEXTS_LOG_DEMO: '1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: '/nonexistent',
    SIGNING_SECRET: BENCH_SIGNING_SECRET,
    DATABASE_POOL_SIZE: String(APP_POOL_SIZE),
    DATA_DIR: target.dataDir,
    // The hold sweeper must not move rows while a race is being counted.
    HOLD_SWEEP_SECONDS: '3600',
    RATE_LIMIT_LOGIN_PER_IP: '1000000',
    RATE_LIMIT_LOGIN_PER_ACCOUNT: '1000000',
    RATE_LIMIT_SIGNUP_PER_IP: '1000000',
    RATE_LIMIT_SIGNUP_PER_ACCOUNT: '1000000',
    RATE_LIMIT_BOOKING_PER_DINER: '1000000',
    RATE_LIMIT_UPLOAD_PER_CALLER: '1000000',
    ...extraEnv,
  };
  if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;
  else env.DATABASE_URL = '';
  // BENCH_APP_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the app under load.
  // A caller may give its own (bench/city.ts profiles one instance of several).
  const nodeArgs = nodeArgsOverride ?? (process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawnServer(name, 'server/main.ts', port, env, nodeArgs, logFile);
  await waitUntilHealthy(server, '/api/health', 120_000);
  return server;
}

/** Node's HTTP server sending the same body with no framework (bench/ceiling-server.ts): the generator's ceiling. */
export async function startCeiling(port: number): Promise<RunningServer> {
  const server = spawnServer(`ceiling :${port}`, 'bench/ceiling-server.ts', port, {});
  await waitUntilHealthy(server, '/', 30_000);
  return server;
}

/**
 * The bare Fastify handler returning a constant JSON (bench/baseline-server.ts), in its own process;
 * with `pageFile`, it also serves that HTML page as a constant at `/page`.
 */
export async function startBaseline(port: number, pageFile?: string): Promise<RunningServer> {
  const server = spawnServer(`baseline :${port}`, 'bench/baseline-server.ts', port, pageFile ? { BENCH_PAGE_FILE: pageFile } : {});
  await waitUntilHealthy(server, pageFile ? '/page' : '/constant', 30_000);
  return server;
}

export interface LoadResult {
  /** performance.now() when the last answer arrived. */
  finishedAt: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytesPerResponse: number;
  statuses: Record<number, number>;
}

type AutocannonRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };

/** One autocannon run; `next` gives each request its path (and headers/body). */
export async function load(options: {
  url: string;
  connections: number;
  durationSeconds?: number;
  amount?: number;
  next?: () => AutocannonRequest;
  headers?: Record<string, string>;
  timeoutSeconds?: number;
}): Promise<LoadResult> {
  const statuses: Record<number, number> = {};
  const started = performance.now();
  let finishedAt = started;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.durationSeconds !== undefined ? { duration: options.durationSeconds } : {}),
    ...(options.amount !== undefined ? { amount: options.amount } : {}),
    timeout: options.timeoutSeconds ?? 30,
    headers: options.headers,
    requests: [
      {
        setupRequest: (request: AutocannonRequest) => (options.next ? { ...request, ...options.next() } : request),
        onResponse: (status: number) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
          finishedAt = performance.now();
        },
      },
    ],
  });
  const result = (await instance) as unknown as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number; max: number };
    non2xx: number;
    errors: number;
    timeouts: number;
    throughput: { total: number };
  };
  const completed = Object.values(statuses).reduce((a, b) => a + b, 0);
  // From start to the last answer: autocannon reports whole seconds and notices the end of a fixed
  // amount only on its next one-second tick, which would skew a burst of a few seconds.
  const seconds = (finishedAt - started) / 1000;
  return {
    finishedAt,
    requests: completed,
    rps: seconds > 0 ? completed / seconds : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerResponse: completed ? result.throughput.total / completed : 0,
    statuses,
  };
}

/** The q-th percentile (0..100) of a list of numbers. */
export function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)];
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const fmt = {
  rps: (n: number) => `${n.toFixed(n >= 100 ? 0 : 1)}/s`,
  ms: (n: number) => `${n.toFixed(n >= 100 ? 0 : 1)} ms`,
  pct: (n: number) => `${(n * 100).toFixed(0)}%`,
};

/** A plain-text table (also valid Markdown). */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [line(headers), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** Resident memory of a process, in MB, from /proc (Linux). */
export function residentMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((text) => text.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
}

/** What the machine is doing, printed beside the figures (the CPUs are shared). */
export function machineNote(when = 'at start'): string {
  const [one, five] = loadavg();
  return `${cpus().length} CPU cores (${cpus()[0]?.model.trim() ?? 'unknown'}), load average ${one.toFixed(2)} / ${five.toFixed(2)} (1/5 min) ${when}, Node ${process.version}`;
}

/** A token for the bench instances' `/metrics` (never a production value). */
export const BENCH_METRICS_TOKEN = 'bench-only-metrics-token-0123456789';

/**
 * The restaurant reads an app instance has made for its availability memory, from its `/metrics`:
 * misses (a read on the request path) and background reloads of aging entries by outcome (decision 239).
 */
export async function availabilityCacheReads(baseUrl: string, token = BENCH_METRICS_TOKEN): Promise<{ misses: number; refreshes: Record<string, number> }> {
  const text = await (await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const misses = Number(/^tablefair_availability_cache_lookups_total\{result="miss"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  const refreshes: Record<string, number> = {};
  for (const match of text.matchAll(/^tablefair_availability_cache_refreshes_total\{outcome="([a-z]+)"\} (\d+)$/gm)) refreshes[match[1]] = Number(match[2]);
  return { misses, refreshes };
}

export type AvailabilityCacheReads = Awaited<ReturnType<typeof availabilityCacheReads>>;

/** The restaurant reads made between two readings: misses, background reloads by outcome, and all of them. */
export function restaurantReadsBetween(before: AvailabilityCacheReads, after: AvailabilityCacheReads) {
  const misses = after.misses - before.misses;
  const reloads = Object.entries(after.refreshes).map(([outcome, count]) => [outcome, count - (before.refreshes[outcome] ?? 0)] as const);
  const reloaded = reloads.reduce((sum, [, count]) => sum + count, 0);
  return { misses, reloads, reloaded, total: misses + reloaded };
}
