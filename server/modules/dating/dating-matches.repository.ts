import { sql, type SQL } from 'drizzle-orm';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';
import { MATCH_WEIGHTS, neighbourhoodKm } from '#common/domain/dating-match.ts';
import { dateBudgets, datingNeighbourhoods } from '#common/domain/dating-profile.ts';
import { GENDER_MET_BY_WISH } from '#common/domain/dating-gender.ts';

/**
 * SQL for curated matches (decision 140): preferences, the daily suggestions of pairs, answers
 * and blocks. The score here is common/domain/dating-match.ts's `matchScore` written in SQL; a
 * db test holds the two equal. No rules beyond the query itself.
 */

export interface PreferencesRow {
  wantAgeMin: number;
  wantAgeMax: number;
  neighbourhoods: string[];
  freeEvenings: string[];
  intent: string;
  interests: string[];
  languages: string[];
  /** Each of these left out keeps what is saved; the self-described words go with the gender. */
  gender?: string;
  genderSelfDescribed: string | null;
  showGender?: boolean;
  wantsToMeet?: string;
  tonightIsFine?: boolean;
}

export async function updatePreferences(db: Db, memberId: string, preferences: PreferencesRow, at: Date): Promise<void> {
  await db.execute(
    sql`UPDATE dating_users SET want_age_min = ${preferences.wantAgeMin}, want_age_max = ${preferences.wantAgeMax},
          neighbourhoods = ${toPgArray(preferences.neighbourhoods)}::text[], free_evenings = ${toPgArray(preferences.freeEvenings)}::text[],
          intent = ${preferences.intent}, interests = ${toPgArray(preferences.interests)}::text[], languages = ${toPgArray(preferences.languages)}::text[],
          gender = coalesce(${preferences.gender ?? null}, gender),
          gender_self_described = CASE WHEN coalesce(${preferences.gender ?? null}, gender) = 'SELF_DESCRIBED'
            THEN coalesce(${preferences.gender ? preferences.genderSelfDescribed : null}, gender_self_described) END,
          show_gender = coalesce(${preferences.showGender ?? null}, show_gender),
          wants_to_meet = coalesce(${preferences.wantsToMeet ?? null}, wants_to_meet),
          tonight_is_fine = coalesce(${preferences.tonightIsFine ?? null}, tonight_is_fine),
          updated_at = ${at.toISOString()}
        WHERE id = ${memberId}`,
  );
}

/** How many of a member's best-scored candidates per daily place go on to the cap. */
const SHORTLIST_PER_PLACE = 4;

/** The number of shared values of two text arrays (each without repeats), capped. */
function sharedCapped(a: SQL, b: SQL, cap: number): SQL {
  return sql`least((SELECT count(*) FROM unnest(${a}) AS value WHERE value = ANY(${b})), ${sql.raw(String(cap))})`;
}

/** The neighbourhoods in order, and their distances as one flat row-major array (O(1) lookup, no join per pair). */
const HOODS = sql.raw(`ARRAY[${datingNeighbourhoods.map((name) => `'${name.replaceAll("'", "''")}'`).join(', ')}]::text[]`);
const KM_ARRAY = sql.raw(`ARRAY[${datingNeighbourhoods.flatMap((from) => datingNeighbourhoods.map((to) => neighbourhoodKm(from, to))).join(', ')}]::int[]`);
const HOOD_COUNT = sql.raw(String(datingNeighbourhoods.length));
const BUDGETS = sql.raw(`ARRAY[${dateBudgets.map((budget) => `'${budget}'`).join(', ')}]`);

/** Km between two neighbourhoods' centres (text SQL), as `neighbourhoodKm` answers it: 25 when either is unknown. */
export function kmBetweenSql(from: SQL, to: SQL): SQL {
  return sql`coalesce((${KM_ARRAY})[(array_position(${HOODS}, ${from}) - 1) * ${HOOD_COUNT} + array_position(${HOODS}, ${to})], 25)`;
}

/** How many budget bands apart two budgets (text SQL) are. */
export function budgetGapSql(a: SQL, b: SQL): SQL {
  return sql`abs(array_position(${BUDGETS}, ${a}) - array_position(${BUDGETS}, ${b}))`;
}

/** The documented score of member m and candidate c (both dating_users rows in scope), in SQL. */
export const SCORE_SQL = (() => {
  const w = MATCH_WEIGHTS;
  const n = (value: number) => sql.raw(String(value));
  return sql`(
    ${n(w.sharedEvening)} * ${sharedCapped(sql`m.free_evenings`, sql`c.free_evenings`, w.maxSharedEvenings)}
    + ${n(w.sharedCuisine)} * ${sharedCapped(sql`m.cuisines`, sql`c.cuisines`, w.maxSharedCuisines)}
    + ${n(w.sharedDateType)} * ${sharedCapped(sql`m.first_date_types`, sql`c.first_date_types`, w.maxSharedDateTypes)}
    + CASE ${budgetGapSql(sql`m.date_budget`, sql`c.date_budget`)} WHEN 0 THEN ${n(w.sameBudget)} WHEN 1 THEN ${n(w.nextBudget)} ELSE 0 END
    + greatest(0, ${n(w.sameNeighbourhood)} - ${kmBetweenSql(sql`m.neighbourhoods[1]`, sql`c.neighbourhoods[1]`)} / ${n(w.kmPerPointLost)})
    + CASE WHEN m.intent = c.intent THEN ${n(w.sameIntent)} ELSE 0 END
  )::int`;
})();

/**
 * Whether `wisher` wants to meet `other` (dating_users aliases in scope): common/domain/dating-gender.ts's
 * `wantsToMeet` in SQL (decision 250), written from the same data: "everyone" takes anyone, "women"
 * and "men" take only that gender.
 */
export function wantsToMeetSql(wisher: SQL, other: SQL): SQL {
  const byWish = Object.entries(GENDER_MET_BY_WISH).map(
    ([wish, gender]) => sql`WHEN ${sql.raw(`'${wish}'`)} THEN ${other}.gender IS NOT DISTINCT FROM ${sql.raw(`'${gender}'`)}`,
  );
  return sql`(CASE ${wisher}.wants_to_meet WHEN 'EVERYONE' THEN true ${sql.join(byWish, sql` `)} ELSE false END)`;
}

/** Both members' wishes hold (decision 250): each wants to meet the other. */
export function wishesMatchSql(a: SQL, b: SQL): SQL {
  return sql`(${wantsToMeetSql(a, b)} AND ${wantsToMeetSql(b, a)})`;
}

/** Open reports that hide a member from suggestions until a moderator reviews them. */
export const REPORTS_THAT_HIDE = 3;

/**
 * Whether the member in row `member` (a dating_users alias in scope) is hidden from everyone:
 * suspended by a moderator (for good), or REPORTS_THAT_HIDE open reports (until reviewed).
 */
export function isHidden(member: SQL): SQL {
  return sql`(${member}.suspended_at IS NOT NULL
    OR (SELECT count(*) FROM dating_reports r WHERE r.reported_id = ${member}.id AND r.status = 'OPEN') >= ${sql.raw(String(REPORTS_THAT_HIDE))})`;
}

/** Whether the member of id `memberId` is suspended: never shown to anyone again, not even to earlier matches. */
function isSuspended(memberId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM dating_users s WHERE s.id = ${memberId} AND s.suspended_at IS NOT NULL)`;
}

/**
 * The hard filters between member m and candidate c, both ways: each inside the other's age
 * range (every range starts at 18), at least one shared free evening, never suggested to each
 * other before (answered, passed or matched), and no block either way; and c has room today.
 */
function hardFilters(today: string, perDay: number): SQL {
  return sql`c.id <> m.id
      AND c.id NOT IN (SELECT member FROM used WHERE n >= ${perDay})
      AND c.dob > (${today}::date - make_interval(years => m.want_age_max + 1)) AND c.dob <= (${today}::date - make_interval(years => m.want_age_min))
      AND m.dob > (${today}::date - make_interval(years => c.want_age_max + 1)) AND m.dob <= (${today}::date - make_interval(years => c.want_age_min))
      AND c.dob <= (${today}::date - interval '18 years') AND m.dob <= (${today}::date - interval '18 years')
      AND c.free_evenings && m.free_evenings
      AND ${wishesMatchSql(sql`m`, sql`c`)}
      AND NOT EXISTS (SELECT 1 FROM dating_suggestions seen WHERE seen.member_a = least(m.id, c.id) AND seen.member_b = greatest(m.id, c.id))
      AND NOT EXISTS (SELECT 1 FROM dating_blocks b WHERE (b.blocker_id = m.id AND b.blocked_id = c.id) OR (b.blocker_id = c.id AND b.blocked_id = m.id))
      AND ${isHidden(sql`c`)} IS NOT TRUE`;
}

/**
 * Suggests pairs for `day`, set-based (decision 140): for each member still under `perDay`
 * suggestions today (all of them, or only `onlyFor`), a candidate pool of at most `pool` members
 * nearest in age whose home is one of the member's neighbourhoods and who are also still under
 * `perDay`, read through the (home, dob) index; the hard filters; the score; then a pair is kept
 * only if it is within the best remaining places of both members, so nobody is suggested more than
 * `perDay` times a day. Equal scores are ordered by a hash of the pair and the day that both sides
 * share, so every round keeps at least the best pair left; rounds repeat (each one statement) until
 * one adds nothing or `rounds` ran. Answers how many pairs were added.
 */
export async function generateSuggestions(
  db: Db,
  options: { day: string; perDay: number; pool: number; onlyFor?: string[]; rounds?: number },
): Promise<number> {
  let total = 0;
  for (let round = 0; round < (options.rounds ?? 4); round++) {
    const added = await suggestOneRound(db, options);
    total += added;
    if (added === 0) break;
  }
  return total;
}

async function suggestOneRound(db: Db, options: { day: string; perDay: number; pool: number; onlyFor?: string[] }): Promise<number> {
  return db.transaction(async (tx) => {
    // The pool must come from an ordered walk of the (home, dob) index that stops after `pool`
    // rows; a bitmap scan reads the whole age band and sorts it, which grows with the population.
    await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
    const rows = await queryRows<{ added: number }>(tx, suggestionRoundSql(options));
    return rows[0]?.added ?? 0;
  });
}

/** One round of `generateSuggestions` as one statement (the benchmark prints its plan). */
export function suggestionRoundSql(options: { day: string; perDay: number; pool: number; onlyFor?: string[] }): SQL {
  const { day, perDay, pool } = options;
  const half = Math.max(1, Math.ceil(pool / 2));
  const filters = hardFilters(day, perDay);
  const only = options.onlyFor ? sql`AND u.id = ANY(${toPgArray(options.onlyFor)}::uuid[])` : sql``;
  return sql`WITH used AS (
          SELECT member, count(*)::int AS n FROM (
            SELECT member_a AS member FROM dating_suggestions WHERE day = ${day}
            UNION ALL SELECT member_b FROM dating_suggestions WHERE day = ${day}
          ) AS today GROUP BY member
        ),
        members AS (
          SELECT u.* FROM dating_users u LEFT JOIN used ON used.member = u.id
          WHERE cardinality(u.neighbourhoods) > 0 AND cardinality(u.free_evenings) > 0 AND coalesce(used.n, 0) < ${perDay} ${only}
            AND ${isHidden(sql`u`)} IS NOT TRUE
        ),
        scored AS (
          SELECT m.id AS member, least(m.id, c.id) AS a, greatest(m.id, c.id) AS b, ${SCORE_SQL} AS score
          FROM members m
          CROSS JOIN LATERAL unnest(m.neighbourhoods) AS hood (name)
          CROSS JOIN LATERAL (
            (SELECT c.* FROM dating_users c WHERE c.neighbourhoods[1] = hood.name AND c.dob >= m.dob AND ${filters}
              ORDER BY c.neighbourhoods[1], c.dob LIMIT ${half})
            UNION ALL
            (SELECT c.* FROM dating_users c WHERE c.neighbourhoods[1] = hood.name AND c.dob < m.dob AND ${filters}
              ORDER BY c.neighbourhoods[1] DESC, c.dob DESC LIMIT ${half})
          ) AS c
        ),
        -- Only each member's best few go on to the cap: enough to fill the day when the best are taken.
        best AS (
          SELECT a, b, score FROM (
            SELECT a, b, score, row_number() OVER (PARTITION BY member ORDER BY score DESC, md5(a::text || b::text || ${day})) AS place FROM scored
          ) AS ordered
          WHERE place <= ${perDay * SHORTLIST_PER_PLACE}
        ),
        pairs AS (SELECT DISTINCT a, b, score FROM best),
        directed AS (SELECT a AS member, b AS other, score FROM pairs UNION ALL SELECT b, a, score FROM pairs),
        ranked AS (
          SELECT directed.member, directed.other, directed.score,
                 row_number() OVER (PARTITION BY directed.member ORDER BY directed.score DESC, md5(least(directed.member, directed.other)::text || greatest(directed.member, directed.other)::text || ${day})) AS rank,
                 ${perDay} - coalesce(used.n, 0) AS room
          FROM directed LEFT JOIN used ON used.member = directed.member
        ),
        kept AS (
          SELECT mine.member AS a, mine.other AS b, mine.score
          FROM ranked mine JOIN ranked theirs ON theirs.member = mine.other AND theirs.other = mine.member
          WHERE mine.member < mine.other AND mine.rank <= mine.room AND theirs.rank <= theirs.room
        ),
        added AS (
          INSERT INTO dating_suggestions (day, member_a, member_b, score)
          SELECT ${day}::date, a, b, score FROM kept
          ON CONFLICT DO NOTHING RETURNING 1
        )
        SELECT count(*)::int AS added FROM added`;
}

/** Serialises suggestion runs of a day (the caps are counted, then written). */
export async function lockSuggestionDay(db: Db, day: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`dating-suggestions:${day}`}))`);
}

export async function countSuggestionsToday(db: Db, memberId: string, day: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM dating_suggestions WHERE day = ${day} AND (member_a = ${memberId} OR member_b = ${memberId})`,
  );
  return row.n;
}

export interface SuggestionRow {
  day: string;
  other_id: string;
  my_answer: 'YES' | 'NO' | null;
  their_answer: 'YES' | 'NO' | null;
  name: string;
  dob: string;
  profession: string | null;
  dreams: string;
  five_year_goal: string;
  what_i_want_in_partner: string;
  why_partner_would_like_me: string;
  interests: string[];
  languages: string[];
  photo_keys: string[] | null;
  /** The other's gender and own words, only when they show it on their profile. */
  gender: string | null;
  gender_self_described: string | null;
  shared_cuisines: string[];
  shared_date_types: string[];
  shared_neighbourhoods: string[];
  shared_evenings: string[];
}

/** The values two text arrays (member m and other o in scope) share, in m's order. */
function sharedValues(column: string): SQL {
  return sql.raw(
    `coalesce(ARRAY(SELECT value FROM unnest(me.${column}) WITH ORDINALITY AS t (value, place) WHERE value = ANY(o.${column}) ORDER BY place), '{}')`,
  );
}

/** Today's suggestions of a member and every earlier mutual yes, without anyone blocked either way. */
export async function listSuggestions(db: Db, memberId: string, day: string): Promise<SuggestionRow[]> {
  return queryRows<SuggestionRow>(
    db,
    sql`SELECT s.day::text AS day, o.id AS other_id,
               CASE WHEN s.member_a = ${memberId} THEN s.answer_a ELSE s.answer_b END AS my_answer,
               CASE WHEN s.member_a = ${memberId} THEN s.answer_b ELSE s.answer_a END AS their_answer,
               o.name, o.dob::text AS dob, o.profession, o.dreams, o.five_year_goal, o.what_i_want_in_partner, o.why_partner_would_like_me,
               o.interests, o.languages,
               (SELECT array_agg(p.object_key ORDER BY p.sort_order) FROM dating_photos p WHERE p.dating_user_id = o.id) AS photo_keys,
               CASE WHEN o.show_gender THEN o.gender END AS gender, CASE WHEN o.show_gender THEN o.gender_self_described END AS gender_self_described,
               ${sharedValues('cuisines')} AS shared_cuisines, ${sharedValues('first_date_types')} AS shared_date_types,
               ${sharedValues('neighbourhoods')} AS shared_neighbourhoods, ${sharedValues('free_evenings')} AS shared_evenings
        FROM dating_suggestions s
        JOIN dating_users o ON o.id = CASE WHEN s.member_a = ${memberId} THEN s.member_b ELSE s.member_a END
        JOIN dating_users me ON me.id = ${memberId}
        WHERE (s.member_a = ${memberId} OR s.member_b = ${memberId})
          -- Wishes changed since: a suggestion not yet a match that breaks either side's goes (decision 250).
          AND (${wishesMatchSql(sql`me`, sql`o`)} OR (s.answer_a = 'YES' AND s.answer_b = 'YES'))
          -- A pass is final both ways (decision 251): the one passed on never sees the passer again.
          AND (CASE WHEN s.member_a = ${memberId} THEN s.answer_b ELSE s.answer_a END) IS DISTINCT FROM 'NO'
          AND (s.day = ${day} OR (s.answer_a = 'YES' AND s.answer_b = 'YES'))
          AND NOT EXISTS (SELECT 1 FROM dating_blocks b WHERE (b.blocker_id = ${memberId} AND b.blocked_id = o.id) OR (b.blocker_id = o.id AND b.blocked_id = ${memberId}))
          AND ${isHidden(sql`o`)} IS NOT TRUE
        ORDER BY s.day DESC, s.score DESC, o.id`,
  );
}

/**
 * Whether `other` was ever suggested to `memberId`, neither has blocked the other, and `other` is
 * not suspended. (A member hidden by open reports stays visible to those they were suggested to,
 * so they can still be blocked or reported; a suspended one is gone for everyone.)
 */
export async function isVisibleTo(db: Db, memberId: string, other: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`SELECT 1 FROM dating_suggestions s
        WHERE s.member_a = least(${memberId}::uuid, ${other}::uuid) AND s.member_b = greatest(${memberId}::uuid, ${other}::uuid)
          AND NOT EXISTS (SELECT 1 FROM dating_blocks b WHERE (b.blocker_id = ${memberId} AND b.blocked_id = ${other}) OR (b.blocker_id = ${other} AND b.blocked_id = ${memberId}))
          AND NOT ${isSuspended(other)}`,
  );
  return rows.length > 0;
}

/**
 * Records a member's answer on a pair; answers both answers afterwards, or undefined when the pair
 * was never suggested. A pass is final (decision 251): after a NO of either member nothing changes,
 * and `changed` is false.
 */
export async function recordAnswer(
  db: Db,
  memberId: string,
  other: string,
  answer: 'YES' | 'NO',
): Promise<{ mine: 'YES' | 'NO' | null; theirs: 'YES' | 'NO' | null; changed: boolean } | undefined> {
  const [row] = await queryRows<{ mine: 'YES' | 'NO' | null; theirs: 'YES' | 'NO' | null; changed: boolean }>(
    db,
    sql`WITH pair AS (
          SELECT * FROM dating_suggestions
          WHERE member_a = least(${memberId}::uuid, ${other}::uuid) AND member_b = greatest(${memberId}::uuid, ${other}::uuid)
          FOR UPDATE
        ),
        updated AS (
          UPDATE dating_suggestions s SET
            answer_a = CASE WHEN s.member_a = ${memberId} THEN ${answer} ELSE s.answer_a END,
            answer_b = CASE WHEN s.member_b = ${memberId} THEN ${answer} ELSE s.answer_b END
          FROM pair
          WHERE s.member_a = pair.member_a AND s.member_b = pair.member_b
            AND pair.answer_a IS DISTINCT FROM 'NO' AND pair.answer_b IS DISTINCT FROM 'NO'
          RETURNING s.member_a, s.answer_a, s.answer_b
        )
        SELECT CASE WHEN p.member_a = ${memberId} THEN coalesce(u.answer_a, p.answer_a) ELSE coalesce(u.answer_b, p.answer_b) END AS mine,
               CASE WHEN p.member_a = ${memberId} THEN coalesce(u.answer_b, p.answer_b) ELSE coalesce(u.answer_a, p.answer_a) END AS theirs,
               u.member_a IS NOT NULL AS changed
        FROM pair p LEFT JOIN updated u ON true`,
  );
  return row;
}

export async function insertBlock(db: Db, blockerId: string, blockedId: string): Promise<void> {
  await db.execute(sql`INSERT INTO dating_blocks (blocker_id, blocked_id) VALUES (${blockerId}, ${blockedId}) ON CONFLICT DO NOTHING`);
}

/** A report (one per reporter and member; a second one answers false) and the block that comes with it. */
export async function insertReport(db: Db, report: { reporterId: string; reportedId: string; reason: string; note: string }): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`INSERT INTO dating_reports (reporter_id, reported_id, reason, note) VALUES (${report.reporterId}, ${report.reportedId}, ${report.reason}, ${report.note})
        ON CONFLICT (reporter_id, reported_id) DO NOTHING RETURNING id`,
  );
  await insertBlock(db, report.reporterId, report.reportedId);
  return rows.length === 1;
}
