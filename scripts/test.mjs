// `npm test`: every suite. First the static checks (ESLint, Prettier's check, tsc: all three
// run, then any failure stops the run), then builds the web app (the end-to-end journeys use
// the production build) and runs the unit, database and end-to-end projects.
// Without a Chromium the end-to-end project is skipped locally, but under CI=true
// a missing browser is a failure.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (command, args, env = {}) => {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
const isCi = process.env.CI === 'true';
if (!chromium && isCi) {
  console.error("CI=true and no Chromium was found (install Debian's chromium or set CHROMIUM_PATH).");
  process.exit(1);
}

const checks = [
  // The cache (under node_modules, keyed by file content) turns a re-run into a second or two; CI starts without one.
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['format:check', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']],
  ['tsc', 'npx', ['tsc', '--noEmit', '-p', '.']],
];
const failed = checks.filter(([, command, args]) => spawnSync(command, args, { stdio: 'inherit' }).status !== 0).map(([name]) => name);
if (failed.length) {
  console.error(`Static checks failed: ${failed.join(', ')} (\`npm run format\` fixes formatting).`);
  process.exit(1);
}
run('npx', ['vite', 'build', '--logLevel', 'warn']);
run('node', ['scripts/check-bundle-budget.mjs']);
const projects = ['--project', 'unit', '--project', 'db'];
if (chromium) projects.push('--project', 'e2e');
else console.warn('No Chromium found: skipping the end-to-end journeys (they run under CI).');
run('npx', ['vitest', 'run', ...projects]);
