/**
 * `npm run bench:scale`: two app processes on different ports against one PostgreSQL.
 *
 * 1. The drop split across both: 2,000 diners, half sent to A and half to B, all at once.
 *    Checked from SQL afterwards: exactly the capacity sold, no slot over its capacity.
 * 2. Sessions are shared: a token issued by a login on A works on B (GET /api/auth/me),
 *    and a logout on B ends it on A.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tablefair_bench npm run bench:scale
 *
 * Both instances get the same SIGNING_SECRET (signed URLs) and share only the database.
 * Exit code 1 when any check fails.
 */
import { countDrop, DROP_CAPACITY, prepareDrop, raceOverHttp } from './drop.ts';
import { BENCH_PASSWORD, defaultRestaurantCount, DROP_DINERS, ensureCity } from './generate-city.ts';
import { APP_POOL_SIZE, benchTarget, fmt, load, machineNote, openBenchDatabase, PORTS, querySql, startApp, table, type RunningServer } from './lib.ts';

const target = benchTarget();
if (target.kind !== 'postgres') {
  console.error('bench:scale needs a PostgreSQL server: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/tablefair_bench).');
  process.exit(2);
}
const now = new Date();
const rows: string[][] = [];
let failed = false;
const verdict = (pass: boolean) => {
  if (!pass) failed = true;
  return pass ? 'PASS' : 'FAIL';
};

console.log('Tablefair scale-out: two app processes, one PostgreSQL');
console.log(`  machine:  ${machineNote()} — shared with other work`);
console.log(`  database: ${target.label}; each instance has a pool of ${APP_POOL_SIZE}`);

const handle = await openBenchDatabase(target);
let apps: RunningServer[] = [];
try {
  await handle.migrate();
  await ensureCity(handle, target, defaultRestaurantCount(target), now);
  const plan = await prepareDrop(handle, now);
  apps = await Promise.all([startApp(target, PORTS.appA, 'app A'), startApp(target, PORTS.appB, 'app B')]);
  const [a, b] = apps;
  console.log(`  instances: A ${a.baseUrl} (pid ${a.child.pid}), B ${b.baseUrl} (pid ${b.child.pid})`);

  // Warm both pools (not counted).
  await Promise.all(
    apps.map((app) =>
      load({ url: `${app.baseUrl}/api/restaurants/bench-drop/availability?date=${plan.date}&partySize=2`, connections: APP_POOL_SIZE * 2, durationSeconds: 2 }),
    ),
  );

  console.log(`\n== The drop across A and B: ${DROP_DINERS.toLocaleString('en-US')} diners, ${DROP_CAPACITY} covers`);
  const race = await raceOverHttp([a.baseUrl, b.baseUrl], plan);
  const count = await countDrop(handle, plan.restaurantId);
  const viaA = await countHoldsVia(plan.restaurantId);
  console.log(
    `  ${race.attempts} attempts in ${race.seconds.toFixed(2)} s: ${race.holds} holds, ${race.refused} refused, ${race.unexpected} unexpected; ` +
      `covers sold ${count.sold}/${DROP_CAPACITY}, oversell ${count.oversell}; per slot ${count.perSlot.map((s) => `${s.time} ${s.taken}/${s.capacity}`).join(', ')}`,
  );
  console.log(`  holds made through A: ${viaA.a}, through B: ${viaA.b}`);
  rows.push(['Drop across A + B: covers sold', String(count.sold), `= ${DROP_CAPACITY}`, verdict(count.sold === DROP_CAPACITY)]);
  rows.push(['Drop across A + B: oversell', String(count.oversell), '= 0', verdict(count.oversell === 0)]);
  rows.push([
    'Drop across A + B: holds answered 201 = reservations in SQL',
    `${race.holds} = ${count.reservations}`,
    'equal',
    verdict(race.holds === count.reservations),
  ]);
  rows.push(['Drop across A + B: answers other than 201/409', String(race.unexpected), '= 0', verdict(race.unexpected === 0)]);
  rows.push(['Drop across A + B: both instances sold covers', `A ${viaA.a}, B ${viaA.b}`, 'both > 0', verdict(viaA.a > 0 && viaA.b > 0)]);
  rows.push(['Drop across A + B: successful holds/s, p99 create', `${fmt.rps(race.holdsPerSecond)}, p99 ${fmt.ms(race.p99)}`, '', '']);

  console.log('\n== A session issued by A, used on B');
  const username = 'city_00001';
  const login = await fetch(`${a.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: BENCH_PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const meOnB = await fetch(`${b.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  const meBody = (await meOnB.json()) as { username?: string };
  console.log(`  login on A: ${login.status}; GET /api/auth/me on B: ${meOnB.status} ${JSON.stringify(meBody)}`);
  rows.push([
    'Token from a login on A works on B (/api/auth/me)',
    `${login.status} → ${meOnB.status} as ${meBody.username}`,
    '200 as the same diner',
    verdict(login.status === 200 && meOnB.status === 200 && meBody.username === username),
  ]);
  const logoutOnB = await fetch(`${b.baseUrl}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const meOnA = await fetch(`${a.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  console.log(`  logout on B: ${logoutOnB.status}; GET /api/auth/me on A: ${meOnA.status}`);
  rows.push(['Logout on B ends the session on A', `${logoutOnB.status} → ${meOnA.status}`, '401 on A', verdict(logoutOnB.ok && meOnA.status === 401)]);

  /** Which instance made each hold: raceOverHttp sends entry i to instance i mod 2, so count each half's holds in SQL. */
  async function countHoldsVia(restaurantId: string): Promise<{ a: number; b: number }> {
    const ids = plan.entries.map((entry) => entry.userId);
    const [row] = await querySql<{ a: number; b: number }>(
      handle,
      `SELECT count(*) FILTER (WHERE array_position($2::uuid[], r.user_id) % 2 = 1)::int AS a,
              count(*) FILTER (WHERE array_position($2::uuid[], r.user_id) % 2 = 0)::int AS b
       FROM reservations r WHERE r.restaurant_id = $1 AND r.status = 'HELD'`,
      [restaurantId, ids],
    );
    return row;
  }
} finally {
  await Promise.all(apps.map((app) => app.stop()));
  await handle.close();
}

console.log(`\n== Results (PostgreSQL, two instances; ${machineNote('at the end')})\n`);
console.log(table(['check', 'measured', 'target', 'verdict'], rows));
process.exit(failed ? 1 : 0);
