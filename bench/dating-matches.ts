/**
 * `npm run bench:dating`: one day's curated suggestions (decision 140) for a generated population
 * of BENCH_MEMBERS dating members (default 100,000), made in SQL by the same function the app
 * uses, with its query plan, the time per member and the total. Beside it, in the same run: the
 * same batch for a population a tenth the size (per-member time should stay flat: the work per
 * member is bounded by the candidate pool, not the population), and the floor of one plain pass
 * over every member's row. Exit code 1 when anyone is suggested more than the daily number.
 *
 *   npm run bench:dating                                  (embedded PGlite, in memory)
 *
 * Knobs: BENCH_MEMBERS (100000), DATING_SUGGESTIONS_PER_DAY (3), DATING_CANDIDATE_POOL (30).
 */
import { sql } from 'drizzle-orm';
import { cuisines, firstDateTypes } from '#common/domain/dating-profile.ts';
import { freeEvenings } from '#common/domain/dating-match.ts';
import { openPglite, queryRows, type DatabaseHandle } from '#server/db/client.ts';
import { generateSuggestions, suggestionRoundSql } from '#server/modules/dating/dating-matches.repository.ts';
import { fmt, machineNote, table } from './lib.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const PER_DAY = Number(process.env.DATING_SUGGESTIONS_PER_DAY ?? 3);
const POOL = Number(process.env.DATING_CANDIDATE_POOL ?? 30);
const DAY = '2026-11-23';

const pgArray = (values: readonly string[]) => `ARRAY[${values.map((value) => `'${value}'`).join(', ')}]::text[]`;

/** `count` members, set-based: ages 22-45, ranges ±5 years around their own, 1-2 neighbourhoods, 2-5 free evenings, 1-3 cuisines. */
async function populate(handle: DatabaseHandle, count: number): Promise<void> {
  const hoods = pgArray(['Indiranagar', 'Koramangala', 'HSR', 'Whitefield', 'Central BLR', 'Kalyan Nagar']);
  const pick = (all: readonly string[], share: number) => `ARRAY(SELECT v FROM unnest(${pgArray(all)}) AS v WHERE random() < ${share} + 0 * i)`;
  await handle.db.execute(sql.raw('SELECT setseed(0.42)'));
  await handle.db.execute(
    sql.raw(`INSERT INTO dating_users (phone, password_hash, name, dob, date_budget, cuisines, first_date_types, want_age_min, want_age_max, neighbourhoods, free_evenings, intent,
                                       gender, wants_to_meet)
      SELECT '+9190' || lpad(i::text, 9, '0'), 'x', 'Member ' || i, born, budget,
             CASE WHEN cardinality(c) > 0 THEN c ELSE ARRAY['SOUTH_INDIAN'] END,
             CASE WHEN cardinality(t) > 0 THEN t ELSE ARRAY['COFFEE'] END,
             greatest(18, age - 5), least(99, age + 5),
             CASE WHEN random() < 0.4 THEN ARRAY[h1, h2] ELSE ARRAY[h1] END,
             CASE WHEN cardinality(e) > 0 THEN e ELSE ARRAY['SAT_LATE'] END,
             (ARRAY['LIFE_PARTNER', 'LONG_TERM', 'OPEN_TO_SEE'])[1 + floor(random() * 3)::int],
             -- Who they are and who they want to meet (decision 250): mostly women and men, some non-binary.
             (ARRAY['WOMAN', 'WOMAN', 'WOMAN', 'MAN', 'MAN', 'MAN', 'NON_BINARY'])[1 + floor(random() * 7)::int],
             (ARRAY['MEN', 'MEN', 'WOMEN', 'WOMEN', 'EVERYONE'])[1 + floor(random() * 5)::int]
      FROM (
        SELECT i, age, (date '${DAY}' - (age * 365 + floor(random() * 360)::int)) AS born,
               (ARRAY['INR_500_1000', 'INR_1000_2500', 'INR_2500_5000', 'INR_5000_PLUS'])[1 + floor(random() * 4)::int] AS budget,
               ${pick(cuisines, 0.15)} AS c, ${pick(firstDateTypes, 0.25)} AS t, ${pick(freeEvenings, 0.25)} AS e,
               (${hoods})[1 + floor(random() * 6)::int] AS h1, (${hoods})[1 + floor(random() * 6)::int] AS h2
        FROM (SELECT i, 22 + floor(random() * 24)::int AS age FROM generate_series(1, ${count}) AS i) AS base
      ) AS drawn`),
  );
  await handle.db.execute(sql.raw('ANALYZE dating_users'));
}

interface Measured {
  members: number;
  populateMs: number;
  floorMs: number;
  batchMs: number;
  rounds: number[];
  suggested: number;
  maxPerMember: number;
  distribution: string;
  plan: string;
}

/** A fresh in-memory database per population, so the two measurements share nothing. */
async function open(): Promise<DatabaseHandle> {
  const handle = await openPglite();
  await handle.migrate();
  return handle;
}

async function measure(count: number, withPlan: boolean): Promise<Measured> {
  const handle = await open();
  try {
    let started = performance.now();
    await populate(handle, count);
    const populateMs = performance.now() - started;

    started = performance.now();
    await handle.db.execute(sql.raw('SELECT count(*), sum(cardinality(free_evenings) + cardinality(cuisines)) FROM dating_users'));
    const floorMs = performance.now() - started;

    let plan = '';
    if (withPlan) {
      plan = await handle.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
        const rows = await queryRows<Record<string, string>>(tx, sql`EXPLAIN ${suggestionRoundSql({ day: DAY, perDay: PER_DAY, pool: POOL })}`);
        return rows.map((row) => Object.values(row)[0]).join('\n');
      });
    }

    const rounds: number[] = [];
    started = performance.now();
    for (let round = 0; round < 4; round++) {
      const roundStarted = performance.now();
      const added = await generateSuggestions(handle.db, { day: DAY, perDay: PER_DAY, pool: POOL, rounds: 1 });
      rounds.push(performance.now() - roundStarted);
      if (added === 0) break;
    }
    const batchMs = performance.now() - started;

    const perMember = await queryRows<{ n: number; members: number }>(
      handle.db,
      sql`SELECT coalesce(per.n, 0)::int AS n, count(*)::int AS members FROM dating_users u
          LEFT JOIN (SELECT member, count(*) AS n FROM (SELECT member_a AS member FROM dating_suggestions WHERE day = ${DAY}
                     UNION ALL SELECT member_b FROM dating_suggestions WHERE day = ${DAY}) AS today GROUP BY member) AS per ON per.member = u.id
          GROUP BY 1 ORDER BY 1`,
    );
    const [{ pairs }] = await queryRows<{ pairs: number }>(handle.db, sql`SELECT count(*)::int AS pairs FROM dating_suggestions WHERE day = ${DAY}`);
    return {
      members: count,
      populateMs,
      floorMs,
      batchMs,
      rounds,
      suggested: pairs,
      maxPerMember: Math.max(...perMember.map((row) => row.n)),
      distribution: perMember.map((row) => `${row.n}: ${row.members}`).join(', '),
      plan,
    };
  } finally {
    await handle.close();
  }
}

console.log(`# Dating suggestions benchmark (decision 140)\n`);
console.log(`embedded PGlite, in memory; ${machineNote()}`);
console.log(`DATING_SUGGESTIONS_PER_DAY=${PER_DAY}, DATING_CANDIDATE_POOL=${POOL}\n`);

const small = await measure(Math.max(100, Math.round(MEMBERS / 10)), false);
const full = await measure(MEMBERS, true);

console.log(
  table(
    ['population', 'generate', 'plain pass over members (floor)', 'suggestions batch', 'per member', 'rounds', 'pairs suggested', 'most per member'],
    [small, full].map((m) => [
      m.members.toLocaleString('en-IN'),
      fmt.ms(m.populateMs),
      fmt.ms(m.floorMs),
      fmt.ms(m.batchMs),
      `${((m.batchMs * 1000) / m.members).toFixed(1)} µs`,
      m.rounds.map((ms) => fmt.ms(ms)).join(' + '),
      m.suggested.toLocaleString('en-IN'),
      String(m.maxPerMember),
    ]),
  ),
);
console.log(`\nSuggestions per member at ${full.members.toLocaleString('en-IN')} (suggestions: members): ${full.distribution}`);
console.log(`\n## Plan of one round (${full.members.toLocaleString('en-IN')} members)\n\n${full.plan}\n`);
console.log(machineNote('at end'));

const fair = small.maxPerMember <= PER_DAY && full.maxPerMember <= PER_DAY;
console.log(`\nNobody suggested more than ${PER_DAY} times: ${fair ? 'PASS' : 'FAIL'}`);
process.exit(fair ? 0 : 1);
