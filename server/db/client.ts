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
import { clientClassFor, clientWithConnectTimeout, parseMultiHostUrl, PrimaryLocator } from './primary-locator.ts';

/** A Drizzle database or transaction: repositories accept either. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies every migration not yet applied (safe to call from N instances at once). */
  migrate(): Promise<void>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** For readiness: whether the database takes writes, and how many migrations are not applied yet. Throws when it does not answer. */
  health(): Promise<{ writable: boolean; pendingMigrations: number }>;
  /** The pool's connections (PostgreSQL only), for /metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Which host of a multi-host DATABASE_URL is in use, and how many times the primary moved. */
  primary?(): { host: string; port: number; moves: number };
  close(): Promise<void>;
  /** The embedded engine, when that is what runs (tests snapshot it). */
  pglite?: PGlite;
  /** Restaurants whose availability changed, written by this or any other instance (decision 073). */
  availabilityChanges: ChangeFeed;
  /** Carries app events to the other instances on the same PostgreSQL (decision 076); none for PGlite, which has one. */
  eventRelay?: EventRelay;
}

/** The NOTIFY channel that carries app events between instances. */
export const EVENTS_CHANNEL = 'tablefair_events';

/** Messages to and from every other instance on the same database (best effort: none while disconnected). */
export interface EventRelay {
  publish(message: string): Promise<void>;
  subscribe(onMessage: (message: string) => void): () => void;
}

/** The NOTIFY channel of migration 0006: the payload is the id of a restaurant whose availability changed. */
export const AVAILABILITY_CHANNEL = 'tablefair_availability';

/**
 * Change notifications from the database (LISTEN/NOTIFY). A change committed through this
 * handle reaches the subscribers before the write's own promise resolves, so an instance
 * always reads its own writes; changes from other instances arrive within milliseconds.
 */
export interface ChangeFeed {
  subscribe(onChange: (payload: string) => void): () => void;
  /**
   * A number that stays the same while every committed change is sure to be delivered, and
   * changes after any gap (a lost listening connection); null during a gap. A cache keyed
   * by it never trusts what it read before a gap.
   */
  deliveryEpoch(): number | null;
}

/** The subscribers of a feed and how to tell them of a change; each engine decides when it is live. */
class Subscribers {
  private readonly listeners = new Set<(payload: string) => void>();

  add(listener: (payload: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deliver(payload: string): void {
    for (const listener of this.listeners) listener(payload);
  }
}

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** An arbitrary constant: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK_KEY = 74_210_001;
const DATE_OID = 1082;

async function listMigrations(): Promise<{ name: string; sql: string }[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql')).sort();
  return Promise.all(files.map(async (name) => ({ name, sql: await readFile(join(MIGRATIONS_DIR, name), 'utf8') })));
}

/** Readiness in one round trip: read-only means a standby (or a primary being demoted). */
const HEALTH_QUERY = `SELECT current_setting('transaction_read_only') AS read_only, (SELECT count(*)::int FROM schema_migrations) AS applied`;

let migrationCount: Promise<number> | undefined;
/** How many migration files ship with this build (read once). */
function shippedMigrationCount(): Promise<number> {
  migrationCount ??= listMigrations().then((migrations) => migrations.length);
  return migrationCount;
}

async function healthOf(row: { read_only: string; applied: number } | undefined): Promise<{ writable: boolean; pendingMigrations: number }> {
  return { writable: row?.read_only === 'off', pendingMigrations: Math.max(0, (await shippedMigrationCount()) - (row?.applied ?? 0)) };
}

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;

/** Rows of a raw query, whichever driver ran it. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Opens the embedded PGlite, persisted in `dataDir` (or in memory when omitted). */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob; sharedBuffers?: string } = {}): Promise<DatabaseHandle> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    ...(options.sharedBuffers ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`] } : {}),
    // Calendar dates stay 'YYYY-MM-DD' strings: a Date would shift with the machine's zone.
    parsers: { [pgliteTypes.DATE]: (value: string) => value },
  });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    availabilityChanges: pgliteChangeFeed(client),
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
    async health() {
      return healthOf((await client.query<{ read_only: string; applied: number }>(HEALTH_QUERY)).rows[0]);
    },
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

/**
 * PGlite has one connection, which both writes and listens: a notification is handled while
 * the committing query is answered, and nothing is ever missed while the engine is open.
 */
function pgliteChangeFeed(client: PGlite): ChangeFeed {
  const subscribers = new Subscribers();
  let epoch: number | null = null;
  let listening: Promise<unknown> | undefined;
  return {
    subscribe(onChange) {
      listening ??= client
        .listen(AVAILABILITY_CHANNEL, (payload) => subscribers.deliver(payload))
        .then(() => {
          epoch = 1;
        });
      return subscribers.add(onChange);
    },
    deliveryEpoch: () => (client.closed ? null : epoch),
  };
}

/** The application_name of this process's listening connection, as pg_stat_activity shows it. */
export function changeListenerName(): string {
  return `tablefair availability listener ${process.pid}`;
}

/**
 * On PostgreSQL, every pooled connection LISTENs and passes on its own transactions'
 * notifications (they arrive on the connection that committed them, before the write's promise
 * resolves); one dedicated connection, open all the time, passes on everything else (other
 * instances' writes). That connection is what makes delivery sure: while it is down the epoch is
 * null, and it reconnects with backoff.
 */
class PostgresChangeFeed implements ChangeFeed {
  private readonly subscribers = new Subscribers();
  /** App events from other instances, heard on the same dedicated connection. */
  readonly relayed = new Subscribers();
  private epoch: number | null = null;
  private epochs = 0;
  private listener: pg.Client | undefined;
  private started = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;

  constructor(
    private readonly clientConfig: pg.ClientConfig,
    private readonly Client: typeof pg.Client = pg.Client,
  ) {}

  /** Backends of this process's pooled connections: their notifications arrive on them, in band. */
  private readonly ownBackends = new Set<number>();

  /**
   * For the pool's onConnect: this connection listens too, and passes on the notifications its
   * own transactions sent (each notification reaches every listening connection; taking each
   * from exactly one place keeps a late copy from dropping what was just read again).
   */
  readonly listenOn = async (client: pg.ClientBase): Promise<void> => {
    const backend = (client as pg.ClientBase & { processID?: number }).processID;
    if (backend !== undefined) {
      this.ownBackends.add(backend);
      client.on('end', () => this.ownBackends.delete(backend));
    }
    client.on('notification', (message) => {
      if (message.channel === AVAILABILITY_CHANNEL && message.payload && message.processId === backend) this.subscribers.deliver(message.payload);
    });
    await client.query(`LISTEN ${AVAILABILITY_CHANNEL}`);
  };

  subscribe(onChange: (payload: string) => void): () => void {
    this.start();
    return this.subscribers.add(onChange);
  }

  /** Opens the dedicated listening connection on first use. */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.connect();
  }

  deliveryEpoch(): number | null {
    return this.epoch;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new this.Client({ ...this.clientConfig, application_name: changeListenerName() });
    this.listener = client;
    const lost = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.epoch = null;
      client.end().catch(() => {});
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    // Everything but what this process's own pooled connections already passed on.
    client.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === EVENTS_CHANNEL) this.relayed.deliver(message.payload);
      else if (message.channel === AVAILABILITY_CHANNEL && !this.ownBackends.has(message.processId)) this.subscribers.deliver(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${AVAILABILITY_CHANNEL}; LISTEN ${EVENTS_CHANNEL}`);
      if (this.listener !== client) return;
      this.failures = 0;
      this.epoch = ++this.epochs;
    } catch {
      lost();
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return;
    this.failures += 1;
    const delay = Math.min(10_000, 250 * 2 ** Math.min(this.failures, 6));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.epoch = null;
    clearTimeout(this.retryTimer);
    const client = this.listener;
    this.listener = undefined;
    await client?.end().catch(() => {});
  }
}

/** Runs `work` in one transaction on a client of the pool: committed when it returns, rolled back when it throws. */
export async function inPoolTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Connects to a PostgreSQL server. `searchPath` confines every query to one schema (tests). */
export async function openPostgres(options: { url: string; poolSize?: number; searchPath?: string; connectTimeoutMs?: number }): Promise<DatabaseHandle> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  // Several hosts, or target_session_attrs: the app finds the writable primary itself (node-postgres would take the first host).
  const hostList = parseMultiHostUrl(options.url);
  const locator = hostList.hosts.length > 1 || hostList.readWrite ? new PrimaryLocator(hostList, { connectTimeoutMs }) : undefined;
  // No primary yet is not fatal: the first queries fail with 503 and the locator keeps looking.
  if (locator) await locator.find().catch(() => locator.suspect());
  const Client = locator ? clientClassFor(locator, connectTimeoutMs) : clientWithConnectTimeout(connectTimeoutMs);
  const connection = {
    connectionString: locator ? locator.connectionFor().connectionString : options.url,
    options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
  };
  const changes = new PostgresChangeFeed(connection, Client);
  const pool = new pg.Pool({
    ...connection,
    Client,
    max: options.poolSize ?? 10,
    onConnect: changes.listenOn,
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
    availabilityChanges: changes,
    eventRelay: {
      async publish(message) {
        await pool.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, message]);
      },
      subscribe(onMessage) {
        changes.start();
        return changes.relayed.add(onMessage);
      },
    },
    async migrate() {
      const migrations = await listMigrations();
      await inPoolTransaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        await client.query(CREATE_MIGRATIONS_TABLE);
        const applied = new Set((await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
        for (const migration of migrations) {
          if (applied.has(migration.name)) continue;
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
        }
      });
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async health() {
      return healthOf((await pool.query<{ read_only: string; applied: number }>(HEALTH_QUERY)).rows[0]);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    primary: locator ? () => ({ ...locator.current, moves: locator.moves }) : undefined,
    async close() {
      locator?.close();
      await changes.close();
      await pool.end();
    },
  };
}

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR. */
export async function openDatabase(config: {
  databaseUrl?: string;
  databasePoolSize: number;
  dataDir: string;
  databaseConnectTimeoutMs?: number;
  pgliteSharedBuffers?: string;
}): Promise<DatabaseHandle> {
  if (config.databaseUrl)
    return openPostgres({ url: config.databaseUrl, poolSize: config.databasePoolSize, connectTimeoutMs: config.databaseConnectTimeoutMs });
  return openPglite({ dataDir: join(config.dataDir, 'pglite'), sharedBuffers: config.pgliteSharedBuffers });
}

/** A timestamptz from a raw query: drivers give a Date or Postgres's text form, depending on their parsers. */
export function asDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** A timestamptz as the contract sends it: an ISO 8601 string in UTC. */
export function iso(value: Date | string): string {
  return asDate(value).toISOString();
}

/** The same for a column that may be NULL: no time stays null. */
export function isoOrNull(value: Date | string | null | undefined): string | null {
  return value ? iso(value) : null;
}

/** A LIKE pattern for "contains `text`", lower-cased, with the characters LIKE reads specially (%, _ and the backslash) taken literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** A Postgres array literal for a text or integer array parameter (`${toPgArray(xs)}::text[]`). */
export function toPgArray(values: readonly (string | number)[]): string {
  return `{${values.map((value) => (typeof value === 'number' ? String(value) : `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`)).join(',')}}`;
}
