import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { matchScore } from '#common/domain/dating-match.ts';
import { createTestApp, type TestApp, TEST_TODAY as DAY } from '#server/test/app.ts';
import { buildDatingMember, datingMemberProfile, type DatingMemberProfile } from '#server/test/factories.ts';
import { DATING_SESSION_COOKIE } from '#server/plugins/sessions.ts';
import { SCORE_SQL, generateSuggestions } from './dating-matches.repository.ts';

/**
 * Curated matches on a real database (decision 140): the hard filters, the SQL score against the
 * documented one, the daily cap both ways, and what a member may read (only those suggested).
 * "Today" is 2026-11-23 in Kolkata (TEST_NOW).
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.database.db.execute(sql`DELETE FROM dating_users`);
});

type Member = DatingMemberProfile;
const member = datingMemberProfile;
const insert = (m: Member) => buildDatingMember(t.database.db, m);

const generate = (perDay = 3, pool = 100, day = DAY) => generateSuggestions(t.database.db, { day, perDay, pool });

async function pairs(day = DAY): Promise<[string, string][]> {
  const rows = await queryRows<{ member_a: string; member_b: string }>(
    t.database.db,
    sql`SELECT member_a, member_b FROM dating_suggestions WHERE day = ${day}`,
  );
  return rows.map((row) => [row.member_a, row.member_b]);
}
const suggested = (all: [string, string][], a: string, b: string) => all.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

describe('hard filters', () => {
  it('suggests two members who pass each other, once, both ways', async () => {
    const asha = await insert(member());
    const ravi = await insert(member({ name: 'Ravi', dob: '1992-02-02' }));
    expect(await generate()).toBe(1);
    expect(suggested(await pairs(), asha, ravi)).toBe(true);
    // Never again: not today's second run, not tomorrow.
    expect(await generate()).toBe(0);
    expect(await generate(3, 100, '2026-11-24')).toBe(0);
  });

  it("keeps out anyone outside the other's age range, either way", async () => {
    const asha = await insert(member({ wantAgeMin: 30, wantAgeMax: 35 }));
    // 28 today: outside Asha's range though Asha is inside theirs.
    const young = await insert(member({ name: 'Kiran', dob: '1998-01-01', wantAgeMin: 18, wantAgeMax: 99 }));
    // 33 today, but wants at most 30: Asha (32) is outside.
    const picky = await insert(member({ name: 'Dev', dob: '1993-01-01', wantAgeMax: 30 }));
    await generate();
    const all = await pairs();
    expect(suggested(all, asha, young)).toBe(false);
    expect(suggested(all, asha, picky)).toBe(false);
  });

  it('keeps out anyone under 18, whatever the ranges say', async () => {
    await insert(member({ wantAgeMin: 18, wantAgeMax: 99 }));
    // 17 today (the column's CHECK keeps ranges at 18+; the birth date is what is checked here).
    await insert(member({ name: 'Minor', dob: '2009-06-01', wantAgeMin: 18, wantAgeMax: 99 }));
    expect(await generate()).toBe(0);
  });

  it('needs one shared free evening', async () => {
    await insert(member({ freeEvenings: ['MON_EARLY'] }));
    await insert(member({ name: 'Ravi', freeEvenings: ['TUE_LATE'] }));
    expect(await generate()).toBe(0);
  });

  it('never proposes a blocked member, whoever blocked', async () => {
    const asha = await insert(member());
    const ravi = await insert(member({ name: 'Ravi' }));
    const dev = await insert(member({ name: 'Dev' }));
    await t.database.db.execute(sql`INSERT INTO dating_blocks (blocker_id, blocked_id) VALUES (${ravi}, ${asha}), (${asha}, ${dev})`);
    await generate();
    const all = await pairs();
    expect(suggested(all, asha, ravi)).toBe(false);
    expect(suggested(all, asha, dev)).toBe(false);
    expect(suggested(all, ravi, dev)).toBe(true);
  });

  it('draws candidates from members whose home is one of my neighbourhoods', async () => {
    const asha = await insert(member({ neighbourhoods: ['Indiranagar'] }));
    const far = await insert(member({ name: 'Far', neighbourhoods: ['Whitefield'] }));
    await generate();
    expect(suggested(await pairs(), asha, far)).toBe(false);
    await t.database.db.execute(sql`UPDATE dating_users SET neighbourhoods = '{Indiranagar,Whitefield}' WHERE id = ${asha}`);
    await generate();
    expect(suggested(await pairs(), asha, far)).toBe(true);
  });
});

describe('score', () => {
  it('is the documented matchScore, computed in SQL', async () => {
    const a = member({ freeEvenings: ['FRI_LATE', 'SAT_EARLY', 'SUN_LATE'], cuisines: ['SOUTH_INDIAN', 'JAPANESE'], neighbourhoods: ['Koramangala'] });
    const b = member({
      name: 'B',
      freeEvenings: ['FRI_LATE', 'SUN_LATE'],
      cuisines: ['JAPANESE'],
      neighbourhoods: ['HSR'],
      dateBudget: 'INR_2500_5000',
      intent: 'OPEN_TO_SEE',
    });
    const c = member({ name: 'C', neighbourhoods: ['Whitefield'], dateBudget: 'INR_5000_PLUS', firstDateTypes: ['COFFEE', 'MUSEUM_WALK'] });
    const people = [a, b, c];
    const ids = [await insert(a), await insert(b), await insert(c)];
    for (let i = 0; i < people.length; i++) {
      for (let j = 0; j < people.length; j++) {
        const [row] = await queryRows<{ score: number }>(
          t.database.db,
          sql`SELECT ${SCORE_SQL} AS score FROM dating_users m, dating_users c WHERE m.id = ${ids[i]} AND c.id = ${ids[j]}`,
        );
        expect(row.score, `${people[i].name} × ${people[j].name}`).toBe(matchScore(people[i], people[j]));
      }
    }
  });

  it('suggests the best-scoring candidates first when there are more than the daily number', async () => {
    const asha = await insert(member({ freeEvenings: ['FRI_LATE', 'SAT_EARLY', 'SUN_EARLY'] }));
    const best = await insert(member({ name: 'Best', freeEvenings: ['FRI_LATE', 'SAT_EARLY', 'SUN_EARLY'] }));
    const weak = await insert(member({ name: 'Weak', freeEvenings: ['FRI_LATE'], cuisines: ['THAI'], dateBudget: 'INR_5000_PLUS' }));
    await generate(1);
    const all = await pairs();
    expect(suggested(all, asha, best)).toBe(true);
    expect(suggested(all, asha, weak)).toBe(false);
  });
});

describe('fairness', () => {
  it('suggests nobody more than N times a day, on a crowd where everyone fits everyone', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push(await insert(member({ name: `M${i}`, dob: `19${90 + (i % 8)}-0${1 + (i % 9)}-1${i % 10}` })));
    // A popular member: the best score for everyone.
    await t.database.db.execute(sql`UPDATE dating_users SET free_evenings = '{FRI_LATE,SAT_EARLY,SUN_EARLY,SUN_LATE}' WHERE id = ${ids[0]}`);
    await t.database.db.execute(sql`UPDATE dating_users SET free_evenings = '{FRI_LATE,SAT_EARLY,SUN_EARLY,SUN_LATE}' WHERE id <> ${ids[0]}`);
    for (const perDay of [3, 3]) await generate(perDay);
    const counts = await queryRows<{ member: string; n: number }>(
      t.database.db,
      sql`SELECT member, count(*)::int AS n FROM (SELECT member_a AS member FROM dating_suggestions WHERE day = ${DAY}
          UNION ALL SELECT member_b FROM dating_suggestions WHERE day = ${DAY}) AS today GROUP BY member`,
    );
    expect(counts.length).toBeGreaterThan(12);
    expect(Math.max(...counts.map((row) => row.n))).toBeLessThanOrEqual(3);
    // Topping one member up later in the day keeps the cap too.
    await generateSuggestions(t.database.db, { day: DAY, perDay: 3, pool: 100, onlyFor: ids });
    const after = await queryRows<{ n: number }>(
      t.database.db,
      sql`SELECT max(n)::int AS n FROM (SELECT member, count(*) AS n FROM (SELECT member_a AS member FROM dating_suggestions WHERE day = ${DAY}
          UNION ALL SELECT member_b FROM dating_suggestions WHERE day = ${DAY}) AS today GROUP BY member) AS per_member`,
    );
    expect(after[0].n).toBe(3);
  });
});

describe('over HTTP', () => {
  async function signIn(id: string): Promise<Record<string, string>> {
    const token = await t.app.services.sessions.issueSession('dating', id);
    return { cookie: `${DATING_SESSION_COOKIE}=${token}` };
  }
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, json?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: json === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      payload: json === undefined ? undefined : JSON.stringify(json),
    });

  it('saves preferences, suggests both ways, answers, matches, and 404s anyone not suggested', async () => {
    const asha = await insert(member({ name: 'Asha Rao' }));
    const ravi = await insert(member({ name: 'Ravi Kumar', dob: '1991-03-03' }));
    const stranger = await insert(member({ name: 'Stranger', freeEvenings: ['MON_EARLY'] }));
    const ashaCookie = await signIn(asha);
    const raviCookie = await signIn(ravi);

    const saved = await call('PUT', '/dating/me/preferences', ashaCookie, {
      wantAgeMin: 28,
      wantAgeMax: 40,
      neighbourhoods: ['Indiranagar', 'Koramangala'],
      freeEvenings: ['FRI_LATE', 'SUN_EARLY'],
      intent: 'LIFE_PARTNER',
      interests: ['Books'],
      languages: ['Kannada', 'Tamil'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      wantAgeMin: 28,
      neighbourhoods: ['Indiranagar', 'Koramangala'],
      languages: ['Kannada', 'Tamil'],
      intent: 'LIFE_PARTNER',
    });
    const bad = await call('PUT', '/dating/me/preferences', ashaCookie, {
      wantAgeMin: 30,
      wantAgeMax: 25,
      neighbourhoods: [],
      freeEvenings: ['FRI_LATE'],
      intent: 'LONG_TERM',
    });
    expect(bad.statusCode).toBe(400);

    const forAsha = (await call('GET', '/dating/suggestions', ashaCookie)).json();
    expect(forAsha.suggestions.map((s: { memberId: string }) => s.memberId)).toEqual([ravi]);
    expect(forAsha.suggestions[0]).toMatchObject({ firstName: 'Ravi', age: 35, myAnswer: null, isMatch: false });
    expect(forAsha.suggestions[0]).not.toHaveProperty('phone');
    const forRavi = (await call('GET', '/dating/suggestions', raviCookie)).json();
    expect(forRavi.suggestions.map((s: { memberId: string }) => s.memberId)).toEqual([asha]);

    expect((await call('POST', `/dating/suggestions/${stranger}/answer`, ashaCookie, { answer: 'YES' })).statusCode).toBe(404);
    expect((await call('POST', `/dating/suggestions/${stranger}/block`, ashaCookie, {})).statusCode).toBe(404);
    expect((await call('POST', `/dating/suggestions/${ravi}/answer`, ashaCookie, { answer: 'MAYBE' })).statusCode).toBe(400);

    expect((await call('POST', `/dating/suggestions/${ravi}/answer`, ashaCookie, { answer: 'YES' })).json()).toEqual({ isMatch: false });
    expect((await call('POST', `/dating/suggestions/${asha}/answer`, raviCookie, { answer: 'YES' })).json()).toEqual({ isMatch: true });
    const matched = (await call('GET', '/dating/suggestions', ashaCookie)).json();
    expect(matched.suggestions[0]).toMatchObject({ memberId: ravi, myAnswer: 'YES', isMatch: true });

    // A block hides both from each other from then on.
    expect((await call('POST', `/dating/suggestions/${asha}/block`, raviCookie, {})).statusCode).toBe(204);
    expect((await call('GET', '/dating/suggestions', ashaCookie)).json().suggestions).toEqual([]);
    expect((await call('POST', `/dating/suggestions/${ravi}/answer`, ashaCookie, { answer: 'NO' })).statusCode).toBe(404);
  });

  it('keeps a pass final both ways: a yes after one’s own pass is refused, and the one passed on no longer sees the passer (decision 251)', async () => {
    const asha = await insert(member({ name: 'Asha Rao' }));
    const ravi = await insert(member({ name: 'Ravi Kumar', dob: '1991-03-03' }));
    const [ashaCookie, raviCookie] = [await signIn(asha), await signIn(ravi)];
    await call('GET', '/dating/suggestions', ashaCookie);
    expect((await call('POST', `/dating/suggestions/${asha}/answer`, raviCookie, { answer: 'YES' })).json()).toEqual({ isMatch: false });
    expect((await call('POST', `/dating/suggestions/${ravi}/answer`, ashaCookie, { answer: 'NO' })).statusCode).toBe(200);
    const again = await call('POST', `/dating/suggestions/${ravi}/answer`, ashaCookie, { answer: 'YES' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'You passed on this member, and a pass is final.' });
    // Ravi's yes stays unanswered for good: Asha is gone from his list, and his answers are 404.
    expect((await call('GET', '/dating/suggestions', raviCookie)).json().suggestions).toEqual([]);
    expect((await call('POST', `/dating/suggestions/${asha}/answer`, raviCookie, { answer: 'YES' })).statusCode).toBe(404);
    const [row] = await queryRows<{ answer_a: string; answer_b: string }>(t.database.db, sql`SELECT answer_a, answer_b FROM dating_suggestions`);
    expect([row.answer_a, row.answer_b].sort()).toEqual(['NO', 'YES']);
    // Asha still sees her own pass today.
    expect((await call('GET', '/dating/suggestions', ashaCookie)).json().suggestions[0]).toMatchObject({ memberId: ravi, myAnswer: 'NO', isMatch: false });
  });

  it('suggests only who both want to meet, shows a hidden gender to nobody, and says why you two', async () => {
    const asha = await insert(member({ name: 'Asha Rao', gender: 'WOMAN', wantsToMeet: 'WOMEN', cuisines: ['SOUTH_INDIAN', 'THAI'] }));
    const ravi = await insert(member({ name: 'Ravi Kumar', gender: 'MAN', wantsToMeet: 'EVERYONE' }));
    const meera = await insert(member({ name: 'Meera Iyer', gender: 'WOMAN', wantsToMeet: 'WOMEN', showGender: false, cuisines: ['THAI', 'SOUTH_INDIAN'] }));
    const sam = await insert(member({ name: 'Sam', gender: 'NON_BINARY', wantsToMeet: 'EVERYONE' }));
    const list = async (id: string) => (await call('GET', '/dating/suggestions', await signIn(id))).json().suggestions as { memberId: string }[];
    const forAsha = await list(asha);
    expect(forAsha.map((s) => s.memberId)).toEqual([meera]);
    expect(forAsha[0]).toMatchObject({
      gender: null,
      shared: { cuisines: ['SOUTH_INDIAN', 'THAI'], dateTypes: ['COFFEE'], neighbourhoods: ['Indiranagar'], evenings: ['FRI_LATE', 'SAT_EARLY'] },
    });
    expect((await list(ravi)).map((s) => s.memberId)).toEqual([sam]);
    expect((await list(sam))[0]).toMatchObject({ memberId: ravi, gender: 'Man' });
  });

  it('takes a report with a reason, blocks the reporter from the member, and hides a member with 3 open reports from everyone', async () => {
    const reported = await insert(member({ name: 'Reported' }));
    const reporters = [await insert(member({ name: 'One' })), await insert(member({ name: 'Two' })), await insert(member({ name: 'Three' }))];
    // Everyone fits everyone: with room for 4 a day, each sees all the others.
    await generateSuggestions(t.database.db, { day: DAY, perDay: 4, pool: 100 });
    expect(suggested(await pairs(), reported, reporters[0])).toBe(true);
    const cookies = await Promise.all(reporters.map((id) => signIn(id)));
    const stranger = await insert(member({ name: 'Stranger', freeEvenings: ['MON_EARLY'] }));
    expect((await call('POST', `/dating/suggestions/${stranger}/report`, cookies[0], { reason: 'FAKE_PROFILE' })).statusCode).toBe(404);
    expect((await call('POST', `/dating/suggestions/${reported}/report`, cookies[0], { reason: 'SPAM' })).statusCode).toBe(400);

    for (const [index, cookie] of cookies.slice(0, 2).entries()) {
      expect((await call('POST', `/dating/suggestions/${reported}/report`, cookie, { reason: 'FAKE_PROFILE', note: `report ${index}` })).statusCode).toBe(204);
    }
    // Two open reports: still shown to the third, gone for the reporters.
    const ids = (cookie: Record<string, string>) =>
      call('GET', '/dating/suggestions', cookie).then((r) => r.json().suggestions.map((s: { memberId: string }) => s.memberId));
    expect(await ids(cookies[2])).toContain(reported);
    expect(await ids(cookies[0])).not.toContain(reported);
    // A second report by the same member does not count twice.
    expect((await call('POST', `/dating/suggestions/${reported}/report`, cookies[0], { reason: 'OTHER' })).statusCode).toBe(404);

    expect((await call('POST', `/dating/suggestions/${reported}/report`, cookies[2], { reason: 'HARASSMENT' })).statusCode).toBe(204);
    const [{ open }] = await queryRows<{ open: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS open FROM dating_reports WHERE reported_id = ${reported} AND status = 'OPEN'`,
    );
    expect(open).toBe(3);
    // Hidden: a newcomer who fits is not suggested the reported member, and the reported member gets nobody.
    const newcomer = await insert(member({ name: 'Newcomer' }));
    await generateSuggestions(t.database.db, { day: '2026-11-24', perDay: 4, pool: 100 });
    const tomorrow = await pairs('2026-11-24');
    expect(suggested(tomorrow, reported, newcomer)).toBe(false);
    expect(tomorrow.some(([a, b]) => a === reported || b === reported)).toBe(false);
    expect(tomorrow.some(([a, b]) => a === newcomer || b === newcomer)).toBe(true);
  });

  it('asks for a dating sign-in', async () => {
    expect((await call('GET', '/dating/suggestions', {})).statusCode).toBe(401);
  });
});
