import { defineConfig } from 'vitest/config';

/**
 * Three tiers (ARCHITECTURE.md rule 7): pure unit tests, tests on a real database
 * (PGlite from a migrated snapshot, or PostgreSQL when DATABASE_URL is set), and
 * end-to-end journeys in Chromium.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['common/**/*.test.ts', 'server/**/*.test.ts', 'web/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.db.test.ts', 'node_modules/**'],
        },
      },
      {
        test: {
          name: 'db',
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
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
    ],
  },
});
