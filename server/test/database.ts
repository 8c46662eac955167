import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';

/**
 * An isolated, migrated database for one test file: a PGlite loaded from the run's
 * snapshot, or, when DATABASE_URL is set, a fresh schema on that PostgreSQL server
 * (dropped again by close()).
 */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const snapshot = readFileSync(inject('pgliteSnapshotPath'));
    const handle = await openPglite({ loadDataDir: new Blob([snapshot]) });
    await handle.migrate();
    return handle;
  }
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
