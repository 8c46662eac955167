import { mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';
import { type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import * as schema from './schema.ts';

/** A Drizzle database or transaction: repositories accept either. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies every migration not yet applied (safe to call from N instances at once). */
  migrate(): Promise<void>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The embedded engine, when that is what runs (tests snapshot it). */
  pglite?: PGlite;
}

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** An arbitrary constant: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK_KEY = 74_210_001;
const DATE_OID = 1082;

async function listMigrations(): Promise<{ name: string; sql: string }[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql')).sort();
  return Promise.all(files.map(async (name) => ({ name, sql: await readFile(join(MIGRATIONS_DIR, name), 'utf8') })));
}

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;

/** Rows of a raw query, whichever driver ran it. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Opens the embedded PGlite, persisted in `dataDir` (or in memory when omitted). */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<DatabaseHandle> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    // Calendar dates stay 'YYYY-MM-DD' strings: a Date would shift with the machine's zone.
    parsers: { [pgliteTypes.DATE]: (value: string) => value },
  });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    async migrate() {
      const migrations = await listMigrations();
      await client.transaction(async (tx) => {
        await tx.exec(CREATE_MIGRATIONS_TABLE);
        const applied = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
        for (const migration of migrations) {
          if (applied.has(migration.name)) continue;
          await tx.exec(migration.sql);
          await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
        }
      });
    },
    async ping() {
      await client.query('SELECT 1');
    },
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

/** Connects to a PostgreSQL server. `searchPath` confines every query to one schema (tests). */
export async function openPostgres(options: { url: string; poolSize?: number; searchPath?: string }): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === DATE_OID ? (value: string) => value : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePostgres({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async migrate() {
      const migrations = await listMigrations();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        await client.query(CREATE_MIGRATIONS_TABLE);
        const applied = new Set((await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
        for (const migration of migrations) {
          if (applied.has(migration.name)) continue;
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
}

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR. */
export async function openDatabase(config: { databaseUrl?: string; databasePoolSize: number; dataDir: string }): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openPostgres({ url: config.databaseUrl, poolSize: config.databasePoolSize });
  return openPglite({ dataDir: join(config.dataDir, 'pglite') });
}

/** A timestamptz from a raw query: drivers give a Date or Postgres's text form, depending on their parsers. */
export function asDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** A Postgres array literal for a text or integer array parameter (`${toPgArray(xs)}::text[]`). */
export function toPgArray(values: readonly (string | number)[]): string {
  return `{${values.map((value) => (typeof value === 'number' ? String(value) : `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`)).join(',')}}`;
}
