import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '#server/app.ts';
import type { Clock } from '#server/clock.ts';
import { loadConfig, type AppConfig } from '#server/config.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { seedDemoData } from '#server/db/seed/seed.ts';
import { demoAccountsAllowed } from '#server/modules/accounts/demo-passwords.ts';
import { GENEROUS_RATE_LIMITS } from '#server/test/app.ts';
import { createTestDatabase, openPgliteCopy } from '#server/test/database.ts';
import { E2E_PASSWORD_HASH_COST } from './global-setup.ts';

export interface E2eServer {
  baseUrl: string;
  app: FastifyInstance;
  database: DatabaseHandle;
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * The real app, on an ephemeral port, serving the production web build, on its own
 * migrated and demo-seeded database, with the real clock (or the journey's own, `options.clock`). Without a DATA_DIR it gets a
 * temporary one of its own (removed by close()), so journey files can run side by side.
 */
export async function startE2eServer(env: Record<string, string> = {}, options: { clock?: Clock } = {}): Promise<E2eServer> {
  // WEB_DIST_DIR lets parallel runs each test their own build.
  const webDistDir = process.env.WEB_DIST_DIR ?? 'dist/web';
  if (!existsSync(`${webDistDir}/index.html`)) throw new Error(`Build the web app first (npm run build): ${webDistDir} is empty`);
  const ownDataDir = env.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), 'tablefair-e2e-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PASSWORD_HASH_COST: String(E2E_PASSWORD_HASH_COST),
    HOST: '127.0.0.1',
    PORT: '0',
    WEB_DIST_DIR: webDistDir,
    ...GENEROUS_RATE_LIMITS,
    ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
    ...env,
  });
  const database = await openDemoDatabase(config);
  // On the demo snapshot this only adds what depends on the moment: the demo drops, and the
  // evening slots of a day that began since the snapshot was taken.
  await seedDemoData(database.db, {
    now: options.clock?.now() ?? new Date(),
    passwordHashCost: config.passwordHashCost,
    demoAccounts: demoAccountsAllowed(config.nodeEnv),
  });
  const app = await buildApp({ config, database, clock: options.clock, runBackgroundJobs: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/** A copy of the run's demo-seeded template (e2e/support/global-setup.ts) when it fits, else a migrated database. */
async function openDemoDatabase(config: AppConfig): Promise<DatabaseHandle> {
  const templateDir = process.env.DATABASE_URL ? '' : inject('pgliteDemoTemplateDir');
  if (!templateDir || config.passwordHashCost !== E2E_PASSWORD_HASH_COST) return createTestDatabase();
  return openPgliteCopy(templateDir, { sharedBuffers: config.pgliteSharedBuffers });
}
