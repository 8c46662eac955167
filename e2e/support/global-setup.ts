import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { openPglite } from '#server/db/client.ts';
import { seedDemoData } from '#server/db/seed/seed.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';

/** The password hash cost the journeys' servers use, and so the demo snapshot's accounts. */
export const E2E_PASSWORD_HASH_COST = 10;

/**
 * Once per run of the e2e project: one Chromium for every journey file. Each file connects to
 * it (launchBrowser) and works in its own contexts, so a file pays a connection, not a browser
 * start. Without a Chromium this fails, as each file's launch did before.
 *
 * Beside it, on PGlite, one demo-seeded snapshot that each journey's server starts from instead
 * of seeding its own migrated database (decision 180).
 */
export default async function setup(project: TestProject) {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("Chromium not found: install Debian's chromium or set CHROMIUM_PATH");
  const [server, demoSnapshotPath] = await Promise.all([
    chromium.launchServer({ executablePath, headless: true, args: CHROMIUM_ARGS }),
    process.env.DATABASE_URL ? Promise.resolve('') : writeDemoSnapshot(project.getProvidedContext().pgliteSnapshotPath),
  ]);
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  project.provide('pgliteDemoSnapshotPath', demoSnapshotPath);
  return async () => {
    await server.close();
    if (demoSnapshotPath) rmSync(demoSnapshotPath, { force: true });
  };
}

/**
 * The migrated snapshot with the demo restaurants, accounts and slots. The demo drops are left
 * out: their entry windows are measured from the moment of seeding, so each server seeds them
 * at its own start, exactly as a fresh seed would.
 */
async function writeDemoSnapshot(migratedSnapshotPath: string): Promise<string> {
  const handle = await openPglite({ loadDataDir: new Blob([readFileSync(migratedSnapshotPath)]) });
  await seedDemoData(handle.db, { now: new Date(), passwordHashCost: E2E_PASSWORD_HASH_COST, demoAccounts: true });
  await handle.pglite!.exec('DELETE FROM slots WHERE drop_id IS NOT NULL; DELETE FROM drops;');
  const dump = await handle.pglite!.dumpDataDir('none');
  await handle.close();
  const path = join(dirname(migratedSnapshotPath), 'demo-seeded.tar');
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  return path;
}

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumWsEndpoint: string;
    /** Empty when the journeys run on PostgreSQL (DATABASE_URL), which seeds per file. */
    pgliteDemoSnapshotPath: string;
  }
}
