import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';

/**
 * The embedded database's cache as the app opens it (PGLITE_SHARED_BUFFERS' default, decision
 * 182), not PGlite's own 128 MB: a test database is then the app's, and opening one costs about
 * 0.2 CPU s instead of 0.35 (docs/performance.md, "Test suite time").
 */
const APP_SHARED_BUFFERS = loadConfig({ NODE_ENV: 'test' }).pgliteSharedBuffers;

/**
 * An isolated, migrated database for one test file: a PGlite on a copy of the run's migrated
 * template folder, or, when DATABASE_URL is set, a fresh schema on that PostgreSQL server
 * (dropped again by close()).
 */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL;
  if (!url) return openPgliteCopy(inject('pgliteTemplateDir'));
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const handle = await openPostgres({ url, poolSize: options.poolSize ?? 10, searchPath: `${schema},public` });
  await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}

/**
 * A copy of a closed PGlite data directory in the run's folder, opened as its own database (and
 * migrated, in case the template is older than a migration) with the app's shared buffers, or
 * `options.sharedBuffers`; close() removes the copy.
 * Copying the folder and opening it costs about half of unpacking a dump into memory
 * (docs/decisions/271-test-databases-are-copied-folders.md).
 */
export async function openPgliteCopy(templateDir: string, options: { sharedBuffers?: string } = {}): Promise<DatabaseHandle> {
  const dataDir = copyPgliteTemplate(templateDir);
  const handle = await openPglite({ dataDir, sharedBuffers: options.sharedBuffers ?? APP_SHARED_BUFFERS });
  await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Copies a closed PGlite data directory to `target` (a new folder in the run's folder when omitted) and returns where. */
export function copyPgliteTemplate(templateDir: string, target = mkdtempSync(join(inject('pgliteRunDir'), 'db-'))): string {
  cpSync(templateDir, target, { recursive: true });
  return target;
}
