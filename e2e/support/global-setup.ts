import { cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { openPglite } from '#server/db/client.ts';
import { seedDemoData } from '#server/db/seed/seed.ts';
import { CHROMIUM_ARGS, featuresOverridden, findChromium } from './browser.ts';

/** The password hash cost the journeys' servers use, and so the demo snapshot's accounts. */
export const E2E_PASSWORD_HASH_COST = 10;

/**
 * Once per run of the e2e project: one Chromium for every journey file. Each file connects to
 * it (launchBrowser) and works in its own contexts, so a file pays a connection, not a browser
 * start. Without a Chromium this fails, as each file's launch did before.
 *
 * Beside it, on PGlite, one demo-seeded template folder that each journey's server starts from a
 * copy of, instead of seeding its own migrated database (decisions 180 and 271).
 */
export default async function setup(project: TestProject) {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("Chromium not found: install Debian's chromium or set CHROMIUM_PATH");
  const [server, demoTemplateDir] = await Promise.all([
    chromium.launchServer({ executablePath, headless: true, args: CHROMIUM_ARGS }),
    process.env.DATABASE_URL ? Promise.resolve('') : writeDemoTemplate(project.getProvidedContext().pgliteTemplateDir),
  ]);
  const overridden = featuresOverridden(server.process().spawnargs);
  if (overridden.length) {
    await server.close();
    throw new Error(`Playwright now turns off Chromium features that DISABLED_FEATURES (e2e/support/browser.ts) lacks: ${overridden.join(', ')}`);
  }
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  project.provide('pgliteDemoTemplateDir', demoTemplateDir);
  return async () => {
    await server.close();
    if (demoTemplateDir) rmSync(demoTemplateDir, { recursive: true, force: true });
  };
}

/**
 * The migrated snapshot with the demo restaurants, accounts and slots. The demo drops are left
 * out: their entry windows are measured from the moment of seeding, so each server seeds them
 * at its own start, exactly as a fresh seed would.
 */
async function writeDemoTemplate(migratedTemplateDir: string): Promise<string> {
  const dataDir = join(dirname(migratedTemplateDir), 'demo-seeded');
  cpSync(migratedTemplateDir, dataDir, { recursive: true });
  const handle = await openPglite({ dataDir });
  await seedDemoData(handle.db, { now: new Date(), passwordHashCost: E2E_PASSWORD_HASH_COST, demoAccounts: true });
  await handle.pglite!.exec('DELETE FROM slots WHERE drop_id IS NOT NULL; DELETE FROM drops;');
  await handle.close();
  return dataDir;
}

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumWsEndpoint: string;
    /** A closed, demo-seeded PGlite data directory to copy; empty on PostgreSQL (DATABASE_URL), which seeds per file. */
    pgliteDemoTemplateDir: string;
  }
}
