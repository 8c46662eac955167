/**
 * `npm run bench:startup`: what the embedded default costs, and whose it is (docs/performance.md §7).
 * Each figure is a fresh process, started BENCH_STARTUP_ROUNDS times (default 3), reported as the
 * median:
 *
 * - PGlite alone: the engine created in an empty folder, then with this app's migrations and its
 *   demo data (the seed a production start with SEED_DEMO=1 runs: the city, no demo accounts), then
 *   reopened on that data; resident memory after each, from /proc.
 * - The app: `node --import tsx server/main.ts` on an empty DATA_DIR until /health/ready answers
 *   200 (migrations, demo data, listening), then again on the data it left (a restart), and
 *   its resident memory once ready and after 2,000 availability reads.
 *
 * The app's own share is the difference between the two. Exit code 1 when a process fails.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineNote, median, residentMb, table } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 3);
/** How both the probe and the app run: production, seeding the demo city (no demo accounts there) with payments on the sandbox on purpose (decision 201). */
const PRODUCTION_DEMO = { NODE_ENV: 'production', SEED_DEMO: '1', PAYMENTS_SANDBOX_DEMO: '1', TEXTS_LOG_DEMO: '1' };
const PORT = 3190;
const READY_TIMEOUT_MS = 120_000;

/** Runs the PGlite-only probe (bench/startup-pglite-probe.ts) and returns what it printed. */
function probePglite(dataDir: string, step: 'empty' | 'seeded' | 'reopen'): Promise<{ ms: number; rssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/startup-pglite-probe.ts', dataDir, step], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...PRODUCTION_DEMO },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the PGlite probe (${step}) exited with ${code}`));
      else resolve(JSON.parse(output.trim().split('\n').at(-1)!) as { ms: number; rssMb: number });
    });
  });
}

async function waitReady(started: number): Promise<number> {
  while (Date.now() - started < READY_TIMEOUT_MS) {
    try {
      const response = await fetch(`http://127.0.0.1:${PORT}/health/ready`);
      if (response.status === 200) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the app was not ready within 120 s');
}

/** Starts the app on `dataDir`; returns the time to ready and its memory, ready and after reads. */
async function startAppOnce(dataDir: string, reads: number): Promise<{ ms: number; rssMb: number; afterReadsMb: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...PRODUCTION_DEMO,
      LOG_LEVEL: 'warn',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    },
  });
  try {
    const ms = await waitReady(started);
    const rssMb = residentMb(child.pid!);
    const restaurants = (await (await fetch(`http://127.0.0.1:${PORT}/api/restaurants`)).json()) as { slug: string }[];
    const today = new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10);
    for (let i = 0; i < reads; i++) {
      const slug = restaurants[i % restaurants.length]!.slug;
      await (await fetch(`http://127.0.0.1:${PORT}/api/restaurants/${slug}/availability?date=${today}&partySize=2`)).arrayBuffer();
    }
    return { ms, rssMb, afterReadsMb: residentMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

console.log('Tablefair start-up benchmark: the embedded default (PGlite) and the app around it');
console.log(`  machine: ${machineNote()}`);
console.log(`  rounds:  ${ROUNDS}, each a fresh process; medians below`);

const samples = {
  pgliteEmpty: [] as { ms: number; rssMb: number }[],
  pgliteSeeded: [] as { ms: number; rssMb: number }[],
  pgliteReopen: [] as { ms: number; rssMb: number }[],
  appEmpty: [] as { ms: number; rssMb: number; afterReadsMb: number }[],
  appRestart: [] as { ms: number; rssMb: number; afterReadsMb: number }[],
};
for (let round = 0; round < ROUNDS; round++) {
  const pgliteDir = mkdtempSync(join(tmpdir(), 'tablefair-startup-pglite-'));
  const appDir = mkdtempSync(join(tmpdir(), 'tablefair-startup-app-'));
  try {
    samples.pgliteEmpty.push(await probePglite(join(pgliteDir, 'empty'), 'empty'));
    samples.pgliteSeeded.push(await probePglite(join(pgliteDir, 'seeded'), 'seeded'));
    samples.pgliteReopen.push(await probePglite(join(pgliteDir, 'seeded'), 'reopen'));
    samples.appEmpty.push(await startAppOnce(appDir, 2_000));
    samples.appRestart.push(await startAppOnce(appDir, 2_000));
  } finally {
    rmSync(pgliteDir, { recursive: true, force: true });
    rmSync(appDir, { recursive: true, force: true });
  }
}

const ms = (values: { ms: number }[]) => `${(median(values.map((value) => value.ms)) / 1000).toFixed(1)} s`;
const mb = (values: number[]) => `${Math.round(median(values))} MB`;
const rss = (values: { rssMb: number }[]) => mb(values.map((value) => value.rssMb));
console.log('');
console.log(
  table(
    ['process', 'time', 'resident memory'],
    [
      ['PGlite alone, created in an empty folder', ms(samples.pgliteEmpty), rss(samples.pgliteEmpty)],
      ['PGlite alone, + migrations and demo data', ms(samples.pgliteSeeded), rss(samples.pgliteSeeded)],
      ['PGlite alone, reopened on that data', ms(samples.pgliteReopen), rss(samples.pgliteReopen)],
      ['the app from an empty DATA_DIR, until ready', ms(samples.appEmpty), rss(samples.appEmpty)],
      ['  … after 2,000 availability reads', '', mb(samples.appEmpty.map((value) => value.afterReadsMb))],
      ['the app restarted on its data, until ready', ms(samples.appRestart), rss(samples.appRestart)],
      ['  … after 2,000 availability reads', '', mb(samples.appRestart.map((value) => value.afterReadsMb))],
    ],
  ),
);
const appShare = median(samples.appRestart.map((value) => value.rssMb)) - median(samples.pgliteReopen.map((value) => value.rssMb));
console.log(`  the app's own share once ready on kept data (app − PGlite reopened): ${Math.round(appShare)} MB`);
console.log(`  machine: ${machineNote('at end')}`);
