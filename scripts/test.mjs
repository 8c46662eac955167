// `npm test`: every suite. First, side by side, the static checks (ESLint, Prettier's check,
// tsc) and the web app's production build (the end-to-end journeys use it): all four run, then
// any failure stops the run. Then the bundle budget, and the unit, database and end-to-end
// projects in one Vitest run (vitest.config.ts says how they share the machine).
// Without a Chromium the end-to-end project is skipped locally, but under CI=true
// a missing browser is a failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (command, args, env = {}) => {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

/** Runs a command with its output held back, so side-by-side steps print one after another. */
const runQuietly = (name, command, args) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ name, ok: code === 0, output, seconds: (Date.now() - started) / 1000 }));
    child.on('error', (error) => resolve({ name, ok: false, output: String(error), seconds: (Date.now() - started) / 1000 }));
  });

// The same places e2e/support/browser.ts looks, headless shell first.
const chromium = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
);
const isCi = process.env.CI === 'true';
if (!chromium && isCi) {
  console.error('CI=true and no Chromium was found (apt-get install -y chromium chromium-headless-shell, or set CHROMIUM_PATH).');
  process.exit(1);
}

// Caches live under node_modules/.cache (keyed by file content), so a re-run is quick; CI starts without them.
// ESLint and tsc are single-threaded: on two or more cores running them together saves their overlap.
// They run before Vitest, not beside it: beside it, on two cores, they and the tests contended for
// more CPU than the idle core gave back (docs/performance.md, "Schedules measured against the 310 s target").
const steps = await Promise.all([
  runQuietly('lint', 'npm', ['run', '--silent', 'lint']),
  runQuietly('format:check', 'npx', ['prettier', '--check', '.', '--log-level', 'warn', '--cache', '--cache-strategy', 'content']),
  // TypeScript 7's native compiler (package alias typescript-native; decision 172).
  runQuietly('tsc', 'node', [
    'node_modules/typescript-native/bin/tsc',
    '--noEmit',
    '-p',
    '.',
    '--incremental',
    '--tsBuildInfoFile',
    'node_modules/.cache/tsc/tsconfig.tsbuildinfo',
  ]),
  runQuietly('build', 'npx', ['vite', 'build', '--logLevel', 'warn']),
  // The committed OpenAPI document against Redocly's recommended rules (redocly.yaml); its
  // freshness against the routes is server/openapi.db.test.ts.
  runQuietly('openapi:lint', 'npm', ['run', '--silent', 'openapi:lint']),
]);
for (const step of steps) {
  if (step.output.trim()) process.stdout.write(step.output.endsWith('\n') ? step.output : `${step.output}\n`);
  console.log(`${step.ok ? '✓' : '✗'} ${step.name} (${step.seconds.toFixed(1)} s)`);
}
const failed = steps.filter((step) => !step.ok).map((step) => step.name);
if (failed.length) {
  console.error(`Failed: ${failed.join(', ')} (\`npm run format\` fixes formatting).`);
  process.exit(1);
}
run('node', ['scripts/check-bundle-budget.mjs']);
const projects = ['--project', 'unit', '--project', 'db'];
if (chromium) projects.push('--project', 'e2e');
else console.warn('No Chromium found: skipping the end-to-end journeys (they run under CI).');
// Anything after `npm test --` goes to Vitest (a reporter, say: `npm test -- --reporter=default --reporter=json`).
run('npx', ['vitest', 'run', ...projects, ...process.argv.slice(2)]);
