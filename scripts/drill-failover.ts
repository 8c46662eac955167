/**
 * `npm run drill:failover`: lose the database's primary under booking load and count what it cost.
 *
 * 1. A PostgreSQL 15 primary (port 55440) and a synchronous streaming standby (55441) from the
 *    machine's binaries, in a /tmp/drill-* folder.
 * 2. Two app instances (ports 3140 and 3141) with
 *    DATABASE_URL=postgres://…@127.0.0.1:55440,127.0.0.1:55441/tablefair?target_session_attrs=read-write
 * 3. A steady booking load (hold then confirm, across both instances) and races of many diners
 *    on one small slot, one before the kill and one started at the moment of the kill.
 * 4. SIGKILL to the primary (and its backends), the standby promoted by hand after
 *    DRILL_PROMOTE_AFTER_SECONDS (default 3, the time an operator or a failover manager takes),
 *    and the load kept running.
 *
 * It prints acknowledged bookings lost, oversell, requests that failed and for how long, and the
 * time until bookings succeed again; exit code 1 when a booking was lost, a slot oversold, or a
 * request got anything but a success, a refusal or a 503 with Retry-After.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { openPostgres, queryRows, type DatabaseHandle } from '#server/db/client.ts';
import { hashToken } from '#server/modules/accounts/sessions.service.ts';
import { buildRestaurant, buildSlot } from '#server/test/factories.ts';
import { startApp, type RunningServer } from '../bench/lib.ts';
import {
  clusterUser,
  createAutoFailoverFormation,
  createReplicatedPair,
  killNode,
  killTree,
  promote,
  type AutoFailoverFormation,
  type ReplicatedPair,
} from './drill/clusters.ts';

const PORTS = { primary: 55440, standby: 55441, monitor: 55446, node1: 55447, node2: 55448, appA: 3140, appB: 3141 };
/** `manual` (default): the drill promotes the standby itself; `pg_auto_failover`: a monitor does, on its own. */
const MODE = process.env.DRILL_MODE === 'pg_auto_failover' ? 'pg_auto_failover' : 'manual';
const WORKERS = Number(process.env.DRILL_WORKERS ?? 8);
const BEFORE_KILL_SECONDS = Number(process.env.DRILL_BEFORE_KILL_SECONDS ?? 8);
const PROMOTE_AFTER_SECONDS = Number(process.env.DRILL_PROMOTE_AFTER_SECONDS ?? 3);
const AFTER_RECOVERY_SECONDS = Number(process.env.DRILL_AFTER_RECOVERY_SECONDS ?? 8);
const REQUEST_TIMEOUT_MS = 10_000;
/** Where the app instances' logs are written at the end, when set. */
const LOG_DIR = process.env.DRILL_LOG_DIR;
const RACE_DINERS = 60;
const RACE_CAPACITY = 10;
const STEADY_SLOT_TIMES = ['12:00', '12:30', '13:00', '13:30', '14:00', '18:00', '18:30', '19:00', '19:30', '20:00', '20:30', '21:00'];

interface Outcome {
  at: number;
  ok: boolean;
  status: number;
  /** A 503 that said when to come back. */
  retryAfter: boolean;
  /** How long the answer took, and to what. */
  ms: number;
  path: string;
}

const outcomes: Outcome[] = [];
const acknowledged = new Map<string, string>();
let startedAt = 0;
const now = () => (performance.now() - startedAt) / 1000;

/** One call; any answer other than 2xx/409 counts as a failed request. */
async function call(baseUrl: string, path: string, token: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> | undefined }> {
  let status = 0;
  let json: Record<string, unknown> | undefined;
  let retryAfter = false;
  const sentAt = performance.now();
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    status = response.status;
    retryAfter = response.headers.has('retry-after');
    json = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  } catch {
    status = 0; // timed out or connection failed
  }
  const ms = performance.now() - sentAt;
  outcomes.push({ at: now(), ok: (status >= 200 && status < 300) || status === 409, status, retryAfter, ms, path: path.replace(/[0-9a-f-]{36}/, '{id}') });
  return { status, json };
}

/** Hold then confirm; the booking is acknowledged when the confirmation answers 200. Retries a 503 as a client would. */
async function book(baseUrl: string, token: string, hold: { restaurantSlug: string; date: string; time: string; partySize: number }, until: () => boolean) {
  for (;;) {
    const held = await call(baseUrl, '/api/reservations', token, hold);
    if (held.status === 409) return 'refused';
    if (held.status === 201 && held.json) {
      const id = held.json.id as string;
      for (;;) {
        const confirmed = await call(baseUrl, `/api/reservations/${id}/confirm`, token, {});
        if (confirmed.status === 200) {
          acknowledged.set(id, hold.time);
          return 'booked';
        }
        if (confirmed.status === 409 || until()) return 'lost-hold';
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    if (until()) return 'gave-up';
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function makeDiners(database: DatabaseHandle, count: number, prefix: string): Promise<string[]> {
  const tokens: string[] = [];
  const password = 'drill-only-not-a-login';
  const ids = await queryRows<{ id: string }>(
    database.db,
    sql.raw(
      `INSERT INTO users (username, password_hash, name, email)
       SELECT '${prefix}_' || i, '${password}', 'Drill diner ' || i, '${prefix}_' || i || '@example.com' FROM generate_series(1, ${count}) AS i
       RETURNING id`,
    ),
  );
  for (const { id } of ids) {
    const token = randomBytes(32).toString('base64url');
    tokens.push(token);
    await database.db.execute(
      sql`INSERT INTO sessions (token_hash, kind, subject_id, expires_at) VALUES (${hashToken(token)}, 'diner', ${id}, now() + interval '1 day')`,
    );
  }
  return tokens;
}

async function main(): Promise<void> {
  let pair: ReplicatedPair | undefined;
  let formation: AutoFailoverFormation | undefined;
  const apps: RunningServer[] = [];
  let verify: DatabaseHandle | undefined;
  const exitCleanup = () => {
    for (const keeper of formation?.nodes ?? []) {
      try {
        if (keeper.keeper.pid) process.kill(keeper.keeper.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    for (const node of [pair?.primary, pair?.standby]) {
      try {
        if (node?.pid) process.kill(node.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  };
  process.on('exit', exitCleanup);
  let failed = false;
  try {
    let url: string;
    let root: string;
    if (MODE === 'manual') {
      console.log('Tablefair failover drill: a synchronous standby promoted by hand after the primary is killed, under booking load');
      pair = await createReplicatedPair([PORTS.primary, PORTS.standby]);
      root = pair.root;
      console.log(`  clusters: primary :${PORTS.primary}, synchronous standby :${PORTS.standby} (PostgreSQL 15, run as ${clusterUser()}, in ${pair.root})`);
      const admin = await openPostgres({ url: pair.primary.url(), poolSize: 1 });
      await admin.db.execute(sql`CREATE DATABASE tablefair`);
      await admin.close();
      url = `postgres://postgres@127.0.0.1:${PORTS.primary},127.0.0.1:${PORTS.standby}/tablefair?target_session_attrs=read-write`;
    } else {
      console.log('Tablefair failover drill: pg_auto_failover promotes the secondary after the primary node is killed, under booking load');
      formation = await createAutoFailoverFormation([PORTS.monitor, PORTS.node1, PORTS.node2], 'tablefair');
      root = formation.root;
      url = formation.url;
      console.log(
        `  formation: monitor :${PORTS.monitor}, nodes :${PORTS.node1} (primary) and :${PORTS.node2} (synchronous secondary), run as ${clusterUser()}, in ${root}`,
      );
    }
    const setup = await openPostgres({ url, poolSize: 2 });
    await setup.migrate();
    const date = addDays(todayInKolkata(new Date()), 1);
    const restaurant = await buildRestaurant(setup.db, { slug: 'drill-steady' });
    for (const time of STEADY_SLOT_TIMES) await buildSlot(setup.db, restaurant.id, { date, time, capacity: 500 });
    const raceRestaurant = await buildRestaurant(setup.db, { slug: 'drill-race' });
    const raceSlots = ['19:00', '20:00'];
    for (const time of raceSlots) await buildSlot(setup.db, raceRestaurant.id, { date, time, capacity: RACE_CAPACITY });
    const steadyDiners = await makeDiners(setup, WORKERS * 40, 'steady');
    const raceDiners = await makeDiners(setup, RACE_DINERS * raceSlots.length, 'race');
    await setup.close();

    const env = {
      SIGNING_SECRET: 'drill-only-signing-secret-0123456789abcdef',
      MAX_UPCOMING_RESERVATIONS: '100',
      MAX_ACTIVE_HOLDS: '100',
      MAX_HOLDS_PER_RESTAURANT_PER_HOUR: '100000',
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      DATABASE_POOL_SIZE: '8',
    };
    for (const [name, port] of [
      ['app A', PORTS.appA],
      ['app B', PORTS.appB],
    ] as const) {
      const dataDir = join(root, name.replace(' ', '-'));
      mkdirSync(dataDir, { recursive: true });
      apps.push(await startApp({ kind: 'postgres', databaseUrl: url, dataDir, label: name }, port, name, env));
    }
    console.log(
      `  instances: ${apps.map((app) => `${app.name} ${app.baseUrl}`).join(', ')}; ${WORKERS} booking workers, ${RACE_DINERS} diners per race on a ${RACE_CAPACITY}-cover slot`,
    );
    console.log(`  DATABASE_URL=${url}`);

    startedAt = performance.now();
    let stopAt = Number.POSITIVE_INFINITY;
    const stopping = () => now() >= stopAt;
    let nextSteady = 0;
    const workers = Array.from({ length: WORKERS }, async (_, worker) => {
      for (let n = 0; !stopping(); n++) {
        const token = steadyDiners[nextSteady++ % steadyDiners.length];
        const time = STEADY_SLOT_TIMES[(worker + n) % STEADY_SLOT_TIMES.length];
        await book(apps[(worker + n) % 2].baseUrl, token, { restaurantSlug: 'drill-steady', date, time, partySize: 1 }, stopping);
      }
    });
    const race = (slot: number, giveUpAt: () => boolean) =>
      Promise.all(
        raceDiners
          .slice(slot * RACE_DINERS, (slot + 1) * RACE_DINERS)
          .map((token, i) => book(apps[i % 2].baseUrl, token, { restaurantSlug: 'drill-race', date, time: raceSlots[slot], partySize: 1 }, giveUpAt)),
      );
    const raceBefore = race(0, stopping);

    await new Promise((resolve) => setTimeout(resolve, BEFORE_KILL_SECONDS * 1000));
    await raceBefore;
    const beforeKill = acknowledged.size;
    const killedAt = now();
    if (pair) await killNode(pair.primary);
    else await killTree(formation!.nodes[0].keeper.pid!);
    console.log(
      `\n  t=${killedAt.toFixed(1)} s  SIGKILL to the primary${formation ? ' node (its keeper and PostgreSQL)' : ''} (${beforeKill} bookings acknowledged so far)`,
    );
    // The second race starts as the primary dies: its diners retry 503s as a browser would.
    const raceDuring = race(1, stopping);
    let promotedAt: number;
    if (pair) {
      await new Promise((resolve) => setTimeout(resolve, PROMOTE_AFTER_SECONDS * 1000));
      promotedAt = now();
      await promote(pair.standby);
      console.log(`  t=${promotedAt.toFixed(1)} s  standby promoted`);
    } else {
      while ((await formation!.primaryPort()) !== PORTS.node2 && now() - killedAt < 120) await new Promise((resolve) => setTimeout(resolve, 250));
      promotedAt = now();
      console.log(`  t=${promotedAt.toFixed(1)} s  the monitor reports :${PORTS.node2} primary`);
    }

    // Recovered: the first booking confirmed after the kill.
    let recoveredAt: number | undefined;
    const watchFrom = acknowledged.size;
    while (recoveredAt === undefined && now() - killedAt < 120) {
      const okAfterKill = outcomes.find((o) => o.at > promotedAt && o.ok && o.status === 200);
      if (okAfterKill && acknowledged.size > watchFrom) recoveredAt = okAfterKill.at;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    console.log(`  t=${(recoveredAt ?? now()).toFixed(1)} s  ${recoveredAt === undefined ? 'bookings never recovered' : 'bookings succeed again'}`);
    await new Promise((resolve) => setTimeout(resolve, AFTER_RECOVERY_SECONDS * 1000));
    stopAt = now();
    await Promise.all([...workers, raceDuring]);
    const endedAt = now();

    // Count from the new primary, through the same multi-host URL.
    verify = await openPostgres({ url, poolSize: 2 });
    const stored = await queryRows<{ id: string; status: string }>(
      verify.db,
      sql`SELECT id, status FROM reservations WHERE status IN ('PENDING', 'CONFIRMED')`,
    );
    // A confirmed booking is PENDING (the restaurant accepts it) or CONFIRMED; either way it holds its covers.
    const confirmed = new Set(stored.map((row) => row.id));
    const lost = [...acknowledged.keys()].filter((id) => !confirmed.has(id));
    const slots = await queryRows<{ time: string; capacity: number; taken: number }>(
      verify.db,
      sql`SELECT s.slot_time AS time, s.capacity,
                 coalesce(sum(r.party_size) FILTER (WHERE r.status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED')), 0)::int AS taken
          FROM slots s LEFT JOIN reservations r ON r.slot_id = s.id GROUP BY s.id`,
    );
    const oversell = slots.reduce((sum, slot) => sum + Math.max(0, slot.taken - slot.capacity), 0);
    const raceTaken = slots.filter((slot) => slot.capacity === RACE_CAPACITY).map((slot) => `${slot.time} ${slot.taken}/${slot.capacity}`);
    const failures = outcomes.filter((o) => !o.ok);
    const statusCounts = new Map<number, number>();
    for (const o of outcomes) statusCounts.set(o.status, (statusCounts.get(o.status) ?? 0) + 1);
    const unclear = failures.filter((o) => !(o.status === 503 && o.retryAfter));
    // Nothing is wrong with the database before the kill, so nothing may fail then.
    const failedBeforeKill = failures.filter((o) => o.at < killedAt);
    const slowestBeforeKill = outcomes
      .filter((o) => o.at < killedAt)
      .reduce<Outcome | undefined>((slowest, o) => (slowest && slowest.ms >= o.ms ? slowest : o), undefined);
    const firstFailure = failures[0]?.at;
    const lastFailure = failures.at(-1)?.at;
    const primaryNow = verify.primary?.();

    console.log('\n== Results');
    const rows: [string, string, string][] = [
      ['acknowledged bookings (confirm answered 200)', `${acknowledged.size} (${acknowledged.size - beforeKill} after the kill)`, ''],
      ['acknowledged bookings lost', String(lost.length), lost.length === 0 ? 'PASS (must be 0)' : 'FAIL'],
      ['oversell (covers beyond capacity, every slot)', String(oversell), oversell === 0 ? 'PASS (must be 0)' : 'FAIL'],
      ['race slots (covers taken)', raceTaken.join(', '), ''],
      ['requests sent', `${outcomes.length} in ${endedAt.toFixed(1)} s`, ''],
      ['requests that failed', String(failures.length), ''],
      [
        'failed requests, first to last',
        firstFailure === undefined ? 'none' : `t=${firstFailure.toFixed(1)}–${lastFailure!.toFixed(1)} s (${(lastFailure! - firstFailure).toFixed(1)} s)`,
        '',
      ],
      ['failed requests before the kill', String(failedBeforeKill.length), failedBeforeKill.length === 0 ? 'PASS (must be 0)' : 'FAIL'],
      [
        'slowest answer before the kill',
        slowestBeforeKill ? `${slowestBeforeKill.ms.toFixed(0)} ms, ${slowestBeforeKill.path} (${slowestBeforeKill.status || 'timeout/refused'})` : 'none',
        '',
      ],
      ['failed requests other than 503 + Retry-After', String(unclear.length), unclear.length === 0 ? 'PASS (must be 0)' : 'FAIL'],
      ['answers by status', [...statusCounts].map(([status, count]) => `${status === 0 ? 'timeout/refused' : status}: ${count}`).join(', '), ''],
      ['time until bookings succeed again (from the kill)', recoveredAt === undefined ? 'never' : `${(recoveredAt - killedAt).toFixed(1)} s`, ''],
      [MODE === 'manual' ? 'of which waiting for the promotion' : 'of which the monitor took to promote', `${(promotedAt - killedAt).toFixed(1)} s`, ''],
      ['primary now', primaryNow ? `${primaryNow.host}:${primaryNow.port}` : '?', ''],
    ];
    for (const [what, value, verdict] of rows) console.log(`  ${what.padEnd(48)} ${value}${verdict ? `   ${verdict}` : ''}`);
    failed = lost.length > 0 || oversell > 0 || unclear.length > 0 || failedBeforeKill.length > 0 || recoveredAt === undefined;
  } finally {
    await verify?.close().catch(() => {});
    for (const app of apps) await app.stop().catch(() => {});
    // The apps' own warnings (each 503's cause is logged with its code) outlive the drill's folders.
    if (LOG_DIR && apps.length > 0) {
      mkdirSync(LOG_DIR, { recursive: true });
      for (const app of apps) writeFileSync(join(LOG_DIR, `${app.name.replace(' ', '-')}.log`), app.output());
      console.log(`  app logs (last 20 kB each): ${LOG_DIR}`);
    }
    await pair?.destroy();
    await formation?.destroy();
    process.off('exit', exitCleanup);
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error('The drill could not run:', error instanceof Error ? error.message : error);
  process.exit(2);
});
