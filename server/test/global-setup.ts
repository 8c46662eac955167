import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '#server/db/client.ts';

/**
 * Once per run: migrate one PGlite and dump its data directory, so every test file
 * starts its own database from the snapshot in a fraction of a migration's time.
 * With DATABASE_URL set, each file makes its own schema instead (see database.ts).
 */
export default async function setup(project: TestProject) {
  if (process.env.CI === 'true' && process.env.REQUIRE_POSTGRES === '1' && !process.env.DATABASE_URL) {
    throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set');
  }
  const dir = mkdtempSync(join(tmpdir(), 'tablefair-snapshot-'));
  const handle = await openPglite();
  await handle.migrate();
  const dump = await handle.pglite!.dumpDataDir('none');
  const path = join(dir, 'migrated.tar');
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteSnapshotPath', path);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshotPath: string;
  }
}
