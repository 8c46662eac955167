/**
 * `npm run bench:web`: what each route costs a phone, from the production build.
 * 1. Gzipped JavaScript and CSS per route (home, restaurant page, map, admin, dating signup):
 *    the app shell plus the route's own chunk and everything it imports statically.
 * 2. Lighthouse (mobile emulation, the machine's Chromium) on the home and restaurant pages,
 *    against the real server with the embedded database and demo data.
 * Prints each figure beside its target.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openPglite } from '#server/db/client.ts';
import { seedDemoData } from '#server/db/seed/seed.ts';

const outDir = mkdtempSync(join(tmpdir(), 'tablefair-bench-web-'));
const build = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

type ManifestChunk = { file: string; imports?: string[]; css?: string[]; isEntry?: boolean };
const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
const gz = (file: string) => gzipSync(readFileSync(join(outDir, file))).length;

/** A chunk and its static imports, transitively. */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(imported, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry)!;
const routes: [string, string][] = [
  ['home (/)', 'routes/home.tsx'],
  ['restaurant (/r/:slug)', 'routes/restaurant.tsx'],
  ['map (/map)', 'routes/map.tsx'],
  ['admin (/admin/:id)', 'routes/admin.tsx'],
  ['dating signup', 'routes/dating-signup.tsx'],
];

console.log('\nPer-route transfer, gzipped (app shell + route chunk + its static imports)');
console.log('route'.padEnd(26), 'JS KB'.padStart(8), 'CSS KB'.padStart(8), '  Leaflet?');
for (const [name, source] of routes) {
  const keys = new Set([...closure(entryKey), ...closure(source)]);
  const js = [...keys].map((key) => manifest[key]?.file).filter(Boolean) as string[];
  const css = [...keys].flatMap((key) => manifest[key]?.css ?? []);
  const jsKb = js.reduce((sum, file) => sum + gz(file), 0) / 1024;
  const cssKb = [...new Set(css)].reduce((sum, file) => sum + gz(file), 0) / 1024;
  const hasLeaflet = js.some((file) => readFileSync(join(outDir, file), 'utf8').includes('Leaflet'));
  console.log(name.padEnd(26), jsKb.toFixed(1).padStart(8), cssKb.toFixed(1).padStart(8), `  ${hasLeaflet ? 'yes' : 'no'}`);
}

// Lighthouse against the real server.
const dataDir = mkdtempSync(join(tmpdir(), 'tablefair-bench-web-db-'));
const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', WEB_DIST_DIR: outDir, PASSWORD_HASH_COST: '10' });
const database = await openPglite({ dataDir });
await database.migrate();
await seedDemoData(database.db, { now: new Date(), passwordHashCost: 10 });
const app = await buildApp({ config, database });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const targets = { performance: 90, accessibility: 95, 'best-practices': 95 } as const;
let failed = false;
console.log('\nLighthouse, mobile emulation (targets: performance 90, accessibility 95, best practices 95)');
try {
  for (const [name, path] of [['home', '/'], ['restaurant page', '/r/toit-tandoor']] as const) {
    const result = await lighthouse(`${base}${path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: Object.keys(targets),
      formFactor: 'mobile',
      screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
    });
    const categories = result!.lhr.categories;
    const scores = Object.entries(targets).map(([key, target]) => {
      const score = Math.round((categories[key]?.score ?? 0) * 100);
      if (score < target) failed = true;
      return `${key} ${score} (${score >= target ? 'PASS' : 'FAIL'} ≥ ${target})`;
    });
    console.log(`${name.padEnd(16)} ${scores.join(' · ')}`);
    // The metrics behind the performance score, so a low one says where the time went.
    const audits = result!.lhr.audits;
    const metric = (id: string) => audits[id]?.displayValue ?? 'n/a';
    console.log(
      `${''.padEnd(16)} FCP ${metric('first-contentful-paint')} · LCP ${metric('largest-contentful-paint')} · TBT ${metric('total-blocking-time')} · CLS ${metric('cumulative-layout-shift')} · Speed Index ${metric('speed-index')}`,
    );
  }
} finally {
  await chrome.kill();
  await app.close();
  await database.close();
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
