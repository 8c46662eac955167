/**
 * `npm run bench:kept-answers`: whether junk query parameters grow the server's memory (decision 200).
 * Starts the real server (`server/main.ts`, the embedded database with its demo data, as `npm start`
 * runs it) on BENCH_PORT (default 3103) and a fresh DATA_DIR, then asks each public read that keeps
 * answers for everyone — the today strip, the restaurant list and, when the web app is built, a
 * restaurant's page — with BENCH_JUNK (default 3,000) distinct unknown parameters (`?junk=N`), 8 at a
 * time, while nothing is booked. Prints the resident memory (from /proc) before and after, and the
 * kept answers /metrics reports. Exit code 1 when memory grew by more than BENCH_MAX_GROWTH_MB
 * (default 60) or the kept answers grew with the junk.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineNote, residentMb, table } from './lib.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3103);
const JUNK = Number(process.env.BENCH_JUNK ?? 3_000);
const MAX_GROWTH_MB = Number(process.env.BENCH_MAX_GROWTH_MB ?? 60);
const METRICS_TOKEN = 'bench-kept-answers-metrics-token';
const CONCURRENCY = 8;
const base = `http://127.0.0.1:${PORT}`;

async function waitReady(deadlineMs: number): Promise<void> {
  while (Date.now() < deadlineMs) {
    try {
      if ((await fetch(`${base}/health/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server was not ready within 120 s');
}

/** The kept answers per store, from /metrics. */
async function keptAnswers(): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const kept: Record<string, number> = {};
  for (const match of text.matchAll(/^tablefair_kept_answers\{store="([^"]+)"\} (\d+)$/gm)) kept[match[1]] = Number(match[2]);
  return kept;
}

/** Asks `count` addresses, CONCURRENCY at a time; every answer must be 200. */
async function askAll(addressOf: (n: number) => string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const address = addressOf(next++);
      const response = await fetch(`${base}${address}`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${address} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const dataDir = mkdtempSync(join(tmpdir(), 'tablefair-bench-kept-'));
const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    METRICS_TOKEN,
  },
});
let failed = false;
try {
  await waitReady(Date.now() + 120_000);
  console.log(machineNote());
  const slug = ((await (await fetch(`${base}/api/restaurants`)).json()) as { slug: string }[])[0]!.slug;
  const routes = [
    { name: 'GET /api/discover/available-today', path: '/api/discover/available-today' },
    { name: 'GET /api/restaurants', path: '/api/restaurants' },
    ...(existsSync('dist/web/index.html') ? [{ name: `GET /r/${slug}`, path: `/r/${slug}` }] : []),
  ];
  // Each asked once as it is, so what stays is the answer itself, then the junk.
  for (const route of routes) await askAll(() => route.path, 1);
  const rows: string[][] = [];
  const startMb = residentMb(child.pid!);
  const keptBefore = await keptAnswers();
  for (const route of routes) {
    const beforeMb = residentMb(child.pid!);
    await askAll((n) => `${route.path}?junk=${n}`, JUNK);
    rows.push([route.name, String(JUNK), beforeMb.toFixed(0), residentMb(child.pid!).toFixed(0)]);
  }
  const keptAfter = await keptAnswers();
  const growthMb = residentMb(child.pid!) - startMb;
  console.log(table(['route', 'junk addresses', 'RSS before (MB)', 'RSS after (MB)'], rows));
  console.log(`kept answers before: ${JSON.stringify(keptBefore)}; after: ${JSON.stringify(keptAfter)}`);
  console.log(`resident memory grew by ${growthMb.toFixed(0)} MB in all (limit ${MAX_GROWTH_MB} MB)`);
  failed = growthMb > MAX_GROWTH_MB || JSON.stringify(keptAfter) !== JSON.stringify(keptBefore);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  failed = true;
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
