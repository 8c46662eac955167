import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openPostgres, queryRows, type DatabaseHandle } from '#server/db/client.ts';
import { parseMultiHostUrl } from '#server/db/primary-locator.ts';
import { createReplicatedPair, killNode, postgresBinariesPresent, promote, type ReplicatedPair } from '../../scripts/drill/clusters.ts';
import { freePort } from '#server/test/server-process.ts';

describe('a DATABASE_URL naming several hosts', () => {
  it('is split as libpq reads it, without the parameter node-postgres does not know', () => {
    const url = parseMultiHostUrl('postgres://app:s3cret@db1:5432,db2:6543,[::1]/tablefair?target_session_attrs=read-write&sslmode=disable');
    expect(url.hosts).toEqual([
      { host: 'db1', port: 5432 },
      { host: 'db2', port: 6543 },
      { host: '::1', port: 5432 },
    ]);
    expect(url.readWrite).toBe(true);
    expect(url.urlFor(url.hosts[1])).toBe('postgres://app:s3cret@db2:6543/tablefair?sslmode=disable');
    expect(url.urlFor(url.hosts[2])).toBe('postgres://app:s3cret@[::1]:5432/tablefair?sslmode=disable');
    expect(parseMultiHostUrl('postgresql://localhost/db').readWrite).toBe(false);
  });
});

/**
 * Two real PostgreSQL 15 clusters (a primary and its synchronous standby, on free ports)
 * from the machine's binaries. The standby is listed first: the app must still write to the
 * primary, and after the primary is killed and the standby promoted, find it without reopening.
 */
// Without PostgreSQL's server binaries there is nothing to fail over; under CI that must fail
// the run rather than pass by skipping.
const clustersPossible = postgresBinariesPresent() || process.env.CI === 'true';

describe.runIf(clustersPossible)('the writable primary among real servers', () => {
  let pair: ReplicatedPair;
  let database: DatabaseHandle;

  beforeAll(async () => {
    // Ports free now, not fixed ones: 55442 sits in the kernel's ephemeral range (32768–60999), so a
    // client connection of another file running beside this one could hold it as its local port.
    pair = await createReplicatedPair([await freePort(), await freePort()]);
    const url = `postgres://postgres@127.0.0.1:${pair.standby.port},127.0.0.1:${pair.primary.port}/postgres?target_session_attrs=read-write`;
    database = await openPostgres({ url, poolSize: 3, connectTimeoutMs: 1000 });
    await database.migrate();
    await database.db.execute(sql`CREATE TABLE bookings (id serial PRIMARY KEY, note text)`);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await pair?.destroy();
  });

  const serverPort = async () => (await queryRows<{ port: number }>(database.db, sql`SELECT inet_server_port() AS port`))[0].port;

  it('writes to the primary even when the standby is listed first', async () => {
    expect(await serverPort()).toBe(pair.primary.port);
    await database.db.execute(sql`INSERT INTO bookings (note) VALUES ('before')`);
    expect(database.primary?.()).toMatchObject({ port: pair.primary.port, moves: 0 });
    expect(await database.health()).toEqual({ writable: true, pendingMigrations: 0 });
  });

  it('finds the promoted standby after the primary dies, without a restart, and loses no committed row', async () => {
    await killNode(pair.primary);
    // While nobody is primary the queries fail (the app answers 503), they do not hang.
    const started = Date.now();
    await expect(database.db.execute(sql`INSERT INTO bookings (note) VALUES ('during')`)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);

    await promote(pair.standby);
    let port = 0;
    for (let attempt = 0; attempt < 60 && port !== pair.standby.port; attempt++) {
      port = await serverPort().catch(() => 0);
      if (port !== pair.standby.port) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(port).toBe(pair.standby.port);
    await database.db.execute(sql`INSERT INTO bookings (note) VALUES ('after')`);
    const notes = (await queryRows<{ note: string }>(database.db, sql`SELECT note FROM bookings ORDER BY id`)).map((row) => row.note);
    expect(notes).toEqual(['before', 'after']);
    expect(database.primary?.()).toMatchObject({ port: pair.standby.port, moves: 1 });
  }, 60_000);
});
