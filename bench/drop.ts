/**
 * The drop: 2,000 diners (distinct accounts, one token each) race for the 40 covers of one
 * restaurant's evening — four slots of 10 covers tomorrow — with party sizes 1 and 2.
 * Each diner books once, so the per-diner rules (MAX_ACTIVE_HOLDS, one reservation per time)
 * never refuse anyone: every refusal is the slot being full.
 *
 * Used by `npm run bench` (one app process, then the same SQL straight through the driver)
 * and by `npm run bench:scale` (the race split across two app processes).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { addDays, kolkataInstant, todayInKolkata } from '#common/domain/time.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { DROP_DINERS } from './generate-city.ts';
import { APP_POOL_SIZE, insertDinerSessions, insertSlots, load, percentile, querySql, type BenchTarget } from './lib.ts';

export const DROP_SLUG = 'bench-drop';
export const DROP_TIMES = ['19:00', '19:30', '20:00', '20:30'];
export const DROP_SLOT_CAPACITY = 10;
export const DROP_CAPACITY = DROP_TIMES.length * DROP_SLOT_CAPACITY;
/** Mirrors HOLD_MINUTES' default: a hold made by the raw baseline lasts as long as the app's. */
const HOLD_MINUTES = 10;

export interface DropEntry {
  userId: string;
  token: string;
  time: string;
  partySize: number;
}

export interface DropPlan {
  restaurantId: string;
  date: string;
  entries: DropEntry[];
}

/**
 * Clears the last race, (re)creates tomorrow's four evening slots and gives every drop diner a
 * fresh session token (inserted set-based, stored hashed as the app stores them).
 * Diner i asks for the slot (7i mod 4) with a party of 2 when 13i is a multiple of 3, else 1.
 */
export async function prepareDrop(handle: DatabaseHandle, now: Date): Promise<DropPlan> {
  const date = addDays(todayInKolkata(now), 1);
  const [restaurant] = await querySql<{ id: string }>(handle, 'SELECT id FROM restaurants WHERE slug = $1', [DROP_SLUG]);
  if (!restaurant) throw new Error('The drop restaurant is missing: run npm run bench:data first.');
  await querySql(handle, 'DELETE FROM reservations WHERE restaurant_id = $1', [restaurant.id]);
  await querySql(handle, 'DELETE FROM slots WHERE restaurant_id = $1', [restaurant.id]);
  await insertSlots(handle, restaurant.id, date, DROP_TIMES, DROP_SLOT_CAPACITY);
  const diners = await querySql<{ id: string }>(handle, "SELECT id FROM users WHERE username LIKE 'drop\\_%' ORDER BY username");
  if (diners.length !== DROP_DINERS) throw new Error(`Expected ${DROP_DINERS} drop diners, found ${diners.length}: run npm run bench:data.`);
  const entries = diners.map((diner, i) => ({
    userId: diner.id,
    token: randomBytes(32).toString('base64url'),
    time: DROP_TIMES[(i * 7) % DROP_TIMES.length],
    partySize: 1 + ((i * 13) % 3 === 0 ? 1 : 0),
  }));
  await querySql(handle, "DELETE FROM sessions WHERE kind = 'diner' AND subject_id = ANY($1::uuid[])", [entries.map((e) => e.userId)]);
  await insertDinerSessions(handle, entries);

  return { restaurantId: restaurant.id, date, entries };
}

export interface DropCount {
  /** Covers held by live reservations on the drop's slots. */
  sold: number;
  /** Covers beyond a slot's capacity, summed over the slots (must be 0). */
  oversell: number;
  reservations: number;
  perSlot: { time: string; capacity: number; taken: number }[];
}

/** Counts the covers taken on the drop's slots straight from SQL. */
export async function countDrop(handle: DatabaseHandle, restaurantId: string): Promise<DropCount> {
  const rows = await querySql<{ time: string; capacity: number; taken: number; reservations: number }>(
    handle,
    `SELECT s.slot_time AS time, s.capacity,
            coalesce(sum(r.party_size) FILTER (WHERE r.status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED')), 0)::int AS taken,
            count(r.id) FILTER (WHERE r.status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED'))::int AS reservations
     FROM slots s LEFT JOIN reservations r ON r.slot_id = s.id
     WHERE s.restaurant_id = $1 GROUP BY s.id ORDER BY s.slot_time`,
    [restaurantId],
  );
  return {
    sold: rows.reduce((sum, row) => sum + row.taken, 0),
    oversell: rows.reduce((sum, row) => sum + Math.max(0, row.taken - row.capacity), 0),
    reservations: rows.reduce((sum, row) => sum + row.reservations, 0),
    perSlot: rows.map(({ time, capacity, taken }) => ({ time, capacity, taken })),
  };
}

export interface RaceResult {
  attempts: number;
  holds: number;
  refused: number;
  /** Anything but 201 or 409 (must be 0). */
  unexpected: number;
  seconds: number;
  holdsPerSecond: number;
  attemptsPerSecond: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
}

/**
 * All the entries at once over HTTP: `entries` split evenly across `baseUrls`, one connection
 * per diner (2,000 concurrent connections in all), one POST /api/reservations each.
 */
export async function raceOverHttp(baseUrls: string[], plan: DropPlan, entries = plan.entries): Promise<RaceResult> {
  const shares = baseUrls.map((_, k) => entries.filter((_, i) => i % baseUrls.length === k));
  const started = performance.now();
  const results = await Promise.all(
    baseUrls.map((url, k) => {
      const share = shares[k];
      let next = 0;
      return load({
        url,
        connections: share.length,
        amount: share.length,
        timeoutSeconds: 120,
        next: () => {
          const entry = share[next++ % share.length];
          return {
            method: 'POST',
            path: '/api/reservations',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${entry.token}` },
            body: JSON.stringify({ restaurantSlug: DROP_SLUG, date: plan.date, time: entry.time, partySize: entry.partySize }),
          };
        },
      });
    }),
  );
  // Until the last answer (autocannon would add up to a second before it notices the end).
  const seconds = (Math.max(...results.map((r) => r.finishedAt)) - started) / 1000;
  const statuses: Record<number, number> = {};
  for (const result of results) for (const [status, n] of Object.entries(result.statuses)) statuses[Number(status)] = (statuses[Number(status)] ?? 0) + n;
  const holds = statuses[201] ?? 0;
  const refused = statuses[409] ?? 0;
  const attempts = Object.values(statuses).reduce((a, b) => a + b, 0);
  const errors = results.reduce((sum, r) => sum + r.errors + r.timeouts, 0);
  return {
    attempts,
    holds,
    refused,
    unexpected: attempts - holds - refused + errors,
    seconds,
    holdsPerSecond: holds / seconds,
    attemptsPerSecond: attempts / seconds,
    p50: Math.max(...results.map((r) => r.p50)),
    // autocannon keeps a histogram per run; with two runs the worse p99 is shown.
    p99: Math.max(...results.map((r) => r.p99)),
    statuses,
  };
}

// The statements of createReservation (reservations.service.ts / reservations.repository.ts), verbatim in meaning.
const SQL = {
  /** readDinerBookingCounts: live holds, upcoming reservations, one at that instant. */
  dinerCounts: `SELECT count(*) FILTER (WHERE status = 'HELD')::int AS active_holds,
                       count(*) FILTER (WHERE starts_at > $2 AND status IN ('HELD', 'PENDING', 'CONFIRMED'))::int AS upcoming,
                       count(*) FILTER (WHERE starts_at = $3)::int AS live_at_start
                FROM reservations WHERE user_id = $1 AND status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED')
                  AND (status <> 'HELD' OR hold_expires_at > $2)`,
  /** listHoldStartsSince: the holds the diner started at the restaurant in the last hour (decision 098). */
  holdStarts: `SELECT r.created_at FROM reservations r
               WHERE r.user_id = $1 AND r.restaurant_id = $2 AND r.created_at > $3
                 AND EXISTS (SELECT 1 FROM reservation_events e WHERE e.reservation_id = r.id AND e.from_status IS NULL AND e.actor_kind = 'diner')
               ORDER BY r.created_at DESC LIMIT 4`,
  /** The pre-check's view of the slot, without locks (the app reads it from memory). */
  freeCovers: `SELECT s.capacity - taken.covers AS free FROM slots s LEFT JOIN LATERAL (
                 SELECT coalesce(sum(r.party_size), 0)::int AS covers FROM reservations r
                 WHERE r.slot_id = s.id AND r.status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED')
                   AND (r.status <> 'HELD' OR r.hold_expires_at > $4)) taken ON true
               WHERE s.restaurant_id = $1 AND s.slot_date = $2 AND s.slot_time = $3`,
  lockUser: 'SELECT id FROM users WHERE id = $1 FOR UPDATE',
  lockSlot: `SELECT id, restaurant_id, capacity, status, starts_at, drop_id FROM slots
             WHERE restaurant_id = $1 AND slot_date = $2 AND slot_time = $3 FOR UPDATE`,
  coversTaken: `SELECT taken.covers FROM slots s LEFT JOIN LATERAL (
                  SELECT coalesce(sum(r.party_size), 0)::int AS covers FROM reservations r
                  WHERE r.slot_id = s.id AND r.status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED')
                    AND (r.status <> 'HELD' OR r.hold_expires_at > $2)) taken ON true WHERE s.id = $1`,
  insert: `INSERT INTO reservations (user_id, restaurant_id, slot_id, party_size, status, hold_expires_at, starts_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, 'HELD', $5, $6, $7, $7) RETURNING id`,
  event: `INSERT INTO reservation_events (reservation_id, from_status, to_status, actor_kind, actor_id, reason, created_at)
          VALUES ($1, NULL, 'HELD', 'diner', $2, NULL, $3)`,
  readBack: `SELECT r.id, r.status, rest.slug, to_char(s.slot_date, 'YYYY-MM-DD') AS slot_date, s.slot_time
             FROM reservations r JOIN restaurants rest ON rest.id = r.restaurant_id JOIN slots s ON s.id = r.slot_id WHERE r.id = $1`,
};

/** Every column the statements above return, by name (each statement fills its own few). */
interface BenchRow {
  id: string;
  free: number;
  covers: number;
  capacity: number;
  active_holds: number;
  upcoming: number;
  live_at_start: number;
}
type Query = (text: string, params: unknown[]) => Promise<{ rows: BenchRow[] }>;

const breaksDinerRule = (row: { active_holds: number; upcoming: number; live_at_start: number }) =>
  row.active_holds >= 2 || row.upcoming >= 4 || row.live_at_start > 0;

/**
 * createReservation's pre-check, before any lock (decision 073): true when the diner's rules
 * pass and the slot has no room, so the request is refused without a transaction.
 */
async function isRefusedWithoutLocks(q: Query, plan: DropPlan, entry: DropEntry): Promise<boolean> {
  const at = new Date().toISOString();
  const free = (await q(SQL.freeCovers, [plan.restaurantId, plan.date, entry.time, at])).rows[0].free;
  if (free >= entry.partySize) return false;
  const startsAt = kolkataInstant(plan.date, entry.time).toISOString();
  return !breaksDinerRule((await q(SQL.dinerCounts, [entry.userId, at, startsAt])).rows[0]);
}

/** createReservation's transaction body: true when it took the covers, false when the slot was full. */
async function holdTransaction(q: Query, plan: DropPlan, entry: DropEntry): Promise<boolean> {
  const now = new Date();
  const at = now.toISOString();
  const startsAt = kolkataInstant(plan.date, entry.time).toISOString();
  await q(SQL.lockUser, [entry.userId]);
  if (breaksDinerRule((await q(SQL.dinerCounts, [entry.userId, at, startsAt])).rows[0])) return false;
  if ((await q(SQL.holdStarts, [entry.userId, plan.restaurantId, new Date(now.getTime() - 3_600_000).toISOString()])).rows.length >= 4) return false;
  // The app's second look before the slot's lock (from memory there, an unlocked read here).
  if ((await q(SQL.freeCovers, [plan.restaurantId, plan.date, entry.time, at])).rows[0].free < entry.partySize) return false;
  const slot = (await q(SQL.lockSlot, [plan.restaurantId, plan.date, entry.time])).rows[0];
  const taken = (await q(SQL.coversTaken, [slot.id, at])).rows[0].covers;
  if (slot.capacity - taken < entry.partySize) return false;
  const holdExpiresAt = new Date(now.getTime() + HOLD_MINUTES * 60_000).toISOString();
  const id = (await q(SQL.insert, [entry.userId, plan.restaurantId, slot.id, entry.partySize, holdExpiresAt, startsAt, at])).rows[0].id;
  await q(SQL.event, [id, entry.userId, at]);
  await q(SQL.readBack, [id]);
  return true;
}

/**
 * The baseline: the same conditional SQL straight through the driver, every diner at once.
 * PostgreSQL: a pg.Pool of the app's pool size (2,000 transactions queue on it as the app's
 * requests queue on the app's pool). Embedded: PGlite's own transactions, in this process.
 */
export async function raceRawSql(target: BenchTarget, handle: DatabaseHandle, plan: DropPlan): Promise<RaceResult> {
  const latencies: number[] = [];
  let holds = 0;
  let refused = 0;
  let unexpected = 0;
  let pool: pg.Pool | undefined;
  let runOne: (entry: DropEntry) => Promise<boolean>;
  if (target.kind === 'postgres') {
    pool = new pg.Pool({ connectionString: target.databaseUrl, max: APP_POOL_SIZE });
    // Open the connections first, as the app's pool is warm when the race starts.
    await Promise.all(Array.from({ length: APP_POOL_SIZE }, async () => (await pool!.connect()).release()));
    runOne = async (entry) => {
      if (await isRefusedWithoutLocks((text, params) => pool!.query(text, params), plan, entry)) return false;
      const client = await pool!.connect();
      try {
        await client.query('BEGIN');
        const held = await holdTransaction((text, params) => client.query(text, params), plan, entry);
        await client.query(held ? 'COMMIT' : 'ROLLBACK');
        return held;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    };
  } else {
    const pglite = handle.pglite!;
    runOne = async (entry) => {
      if (await isRefusedWithoutLocks((text, params) => pglite.query(text, params), plan, entry)) return false;
      let held = false;
      await pglite.transaction(async (tx) => {
        held = await holdTransaction((text, params) => tx.query(text, params), plan, entry);
        if (!held) await tx.rollback();
      });
      return held;
    };
  }
  const started = performance.now();
  try {
    await Promise.all(
      plan.entries.map(async (entry) => {
        const t0 = performance.now();
        try {
          if (await runOne(entry)) holds++;
          else refused++;
        } catch {
          unexpected++;
        }
        latencies.push(performance.now() - t0);
      }),
    );
  } finally {
    await pool?.end();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    attempts: plan.entries.length,
    holds,
    refused,
    unexpected,
    seconds,
    holdsPerSecond: holds / seconds,
    attemptsPerSecond: plan.entries.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses: {},
  };
}
