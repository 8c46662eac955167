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
  const { dir, path } = await migratedSnapshot();
  project.provide('pgliteSnapshotPath', path);
  return () => rmSync(dir, { recursive: true, force: true });
}

// The db and e2e projects both run this setup in the one Vitest process: they share one
// migration instead of paying for two before the first file starts (decision 180).
const SHARED_SNAPSHOT = Symbol.for('tablefair.migratedSnapshot');
type SnapshotHolder = { [SHARED_SNAPSHOT]?: Promise<{ dir: string; path: string }> };

function migratedSnapshot(): Promise<{ dir: string; path: string }> {
  const holder = globalThis as SnapshotHolder;
  holder[SHARED_SNAPSHOT] ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tablefair-snapshot-'));
    const handle = await openPglite();
    await handle.migrate();
    const dump = await handle.pglite!.dumpDataDir('none');
    const path = join(dir, 'migrated.tar');
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
    await handle.close();
    return { dir, path };
  })();
  return holder[SHARED_SNAPSHOT];
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshotPath: string;
  }
}
