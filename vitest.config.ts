import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The journeys are the longest files (one to two minutes each): started first, they finish
 * while the short database files fill the other worker, instead of one of them running alone
 * at the end. Within a project Vitest's own order stands (longest or largest first).
 *
 * The database files that start real server processes spend most of their time waiting on them
 * (a restart, a hold running out, a drain): each goes in after a journey, so that it waits beside
 * a journey's browser and server, which can use the core it leaves, not beside another
 * single-threaded database file (docs/decisions/237-waiting-files-beside-the-journeys.md).
 */
class JourneysFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isJourney = (file: TestSpecification) => file.project.name === 'e2e';
    const startsServers = (file: TestSpecification) => file.project.name === 'db' && readFileSync(file.moduleId, 'utf8').includes('startServerProcess(');
    const journeys = sorted.filter(isJourney);
    const waiting = journeys.length ? sorted.filter(startsServers) : [];
    const head = journeys.flatMap((journey, index) => (index < waiting.length ? [journey, waiting[index]!] : [journey]));
    return [...head, ...waiting.slice(journeys.length), ...sorted.filter((file) => !isJourney(file) && !waiting.includes(file))];
  }
}

/**
 * Three tiers (docs/testing.md): pure unit tests, tests on a real database
 * (PGlite from a migrated snapshot, or PostgreSQL when DATABASE_URL is set), and
 * end-to-end journeys in Chromium.
 *
 * Every file has its own database (and, in e2e, its own server and data directory), so files of
 * all three projects run side by side in one pool of two workers, one per core of the CI machine
 * (Vitest's default would be cores − 1, which is one file at a time there). VITEST_MAX_WORKERS
 * overrides it (docs/decisions/107-test-files-side-by-side.md).
 *
 * A worker keeps its modules from one file to the next (`isolate: false`): each file builds its own
 * app, database and server from them, so nothing a file changes is seen by the next, and the
 * server's module graph is evaluated once per worker instead of once per file
 * (docs/decisions/188-test-workers-keep-their-modules.md).
 */
export default defineConfig({
  test: {
    maxWorkers: 2,
    sequence: { sequencer: JourneysFirst },
    projects: [
      {
        test: {
          name: 'unit',
          isolate: false,
          include: ['common/**/*.test.ts', 'server/**/*.test.ts', 'web/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.db.test.ts', 'node_modules/**'],
        },
      },
      {
        test: {
          name: 'db',
          isolate: false,
          include: ['server/**/*.db.test.ts'],
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'e2e',
          isolate: false,
          include: ['e2e/**/*.e2e.ts'],
          // One Chromium for the whole project; each file connects to it (e2e/support/browser.ts).
          globalSetup: ['server/test/global-setup.ts', 'e2e/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
        },
      },
    ],
  },
});
