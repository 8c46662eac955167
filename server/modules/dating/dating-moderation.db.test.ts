import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DATING_ACCOUNT_SUSPENDED } from '#common/contract/dating.ts';
import type { ModerationReportsResponse } from '#common/contract/moderation.ts';
import { queryRows } from '#server/db/client.ts';
import { DEMO_MODERATOR, seedDemoModerator } from '#server/db/seed/moderator.ts';
import { hashPassword } from '#server/modules/accounts/password.ts';
import { DATING_SESSION_COOKIE } from '#server/plugins/sessions.ts';
import { bearer, createTestApp, type TestApp, TEST_TODAY as DAY } from '#server/test/app.ts';
import { buildDatingMember, buildDiner, buildModerator, buildRestaurant, buildStaff, TEST_PASSWORD } from '#server/test/factories.ts';
import { makePng } from '#server/test/test-images.ts';
import { generateSuggestions } from './dating-matches.repository.ts';

/**
 * The moderation list (decision 185) on a real database: 3 open reports hide a
 * member; a moderator reads them with their reasons; DISMISS shows the member again; SUSPEND hides
 * them for good, signs them out and refuses their sign-in; nobody but a moderator gets in.
 * "Today" is 2026-11-23 in Kolkata (TEST_NOW).
 */

let t: TestApp;
let moderator: { token: string; username: string };

beforeAll(async () => {
  t = await createTestApp();
  moderator = await buildModerator(t.database.db);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.database.db.execute(sql`DELETE FROM dating_users`);
});

type Headers = Record<string, string>;
const call = (method: 'GET' | 'POST', url: string, headers: Headers = {}, json?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: json === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    payload: json === undefined ? undefined : JSON.stringify(json),
  });
const asModerator = () => bearer(moderator.token);

async function signIn(memberId: string): Promise<Headers> {
  const token = await t.app.services.sessions.issueSession('dating', memberId);
  return { cookie: `${DATING_SESSION_COOKIE}=${token}` };
}

/** Suggests `a` and `b` to each other today, as the daily run would. */
async function suggest(a: string, b: string): Promise<void> {
  await t.database.db.execute(
    sql`INSERT INTO dating_suggestions (day, member_a, member_b, score) VALUES (${DAY}, least(${a}::uuid, ${b}::uuid), greatest(${a}::uuid, ${b}::uuid), 50)`,
  );
}

const suggestedTo = async (cookie: Headers): Promise<string[]> =>
  (await call('GET', '/dating/suggestions', cookie)).json().suggestions.map((s: { memberId: string }) => s.memberId);

const listReports = async (status?: 'OPEN' | 'REVIEWED'): Promise<ModerationReportsResponse> => {
  const response = await call('GET', `/api/moderation/reports${status ? `?status=${status}` : ''}`, asModerator());
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

/**
 * Ravi (with a real password and a photo), Asha who was suggested him, and three members who
 * were suggested him and report him over HTTP, each with their own reason.
 */
async function ravisReportedThreeTimes() {
  const db = t.database.db;
  const ravi = await buildDatingMember(db, { name: 'Ravi Kumar', dob: '1991-03-03' });
  await db.execute(sql`UPDATE dating_users SET password_hash = ${await hashPassword(TEST_PASSWORD, 10)} WHERE id = ${ravi}`);
  const [{ phone }] = await queryRows<{ phone: string }>(db, sql`SELECT phone FROM dating_users WHERE id = ${ravi}`);
  const photoId = `${randomUUID()}.png`;
  await t.app.services.storage.putObject(`dating/${photoId}`, makePng());
  await db.execute(
    sql`INSERT INTO dating_photos (dating_user_id, sort_order, object_key, content_type, size_bytes) VALUES (${ravi}, 0, ${`dating/${photoId}`}, 'image/png', 100)`,
  );
  const asha = await buildDatingMember(db, { name: 'Asha Rao' });
  await suggest(asha, ravi);
  const ashaCookie = await signIn(asha);
  expect(await suggestedTo(ashaCookie)).toContain(ravi);

  const reports = [
    { name: 'Meera Iyer', reason: 'FAKE_PROFILE', note: 'Photos are of a film actor' },
    { name: 'Divya S', reason: 'HARASSMENT', note: '' },
    { name: 'Kavya', reason: 'OTHER', note: 'Asked for money' },
  ] as const;
  for (const report of reports) {
    const reporter = await buildDatingMember(db, { name: report.name });
    await suggest(reporter, ravi);
    const response = await call('POST', `/dating/suggestions/${ravi}/report`, await signIn(reporter), { reason: report.reason, note: report.note });
    expect(response.statusCode, response.body).toBe(204);
  }
  return { ravi, phone, photoId, asha, ashaCookie, reports };
}

describe('the moderation list', () => {
  it('3 open reports hide a member; the moderator sees them, most reported first, with each reason, note and reporter', async () => {
    const { ravi, ashaCookie, reports } = await ravisReportedThreeTimes();
    expect(await suggestedTo(ashaCookie)).not.toContain(ravi);
    // One report of someone else: listed after Ravi, and not hidden.
    const once = await buildDatingMember(t.database.db, { name: 'Once Reported' });
    const reporter = await buildDatingMember(t.database.db, { name: 'Nila' });
    await suggest(reporter, once);
    expect((await call('POST', `/dating/suggestions/${once}/report`, await signIn(reporter), { reason: 'INAPPROPRIATE' })).statusCode).toBe(204);

    const list = await listReports();
    expect(list).toMatchObject({ status: 'OPEN', reportsThatHide: 3, hasMore: false });
    expect(list.members.map((member) => member.memberId)).toEqual([ravi, once]);
    const [first, second] = list.members;
    expect(first).toMatchObject({ firstName: 'Ravi', age: 35, openReports: 3, isHidden: true, suspendedAt: null });
    expect(
      first.reports.map(({ reason, note, reporterFirstName }) => ({ reason, note, reporterFirstName })).sort((a, b) => a.reason.localeCompare(b.reason)),
    ).toEqual(
      reports
        .map((report) => ({ reason: report.reason, note: report.note, reporterFirstName: report.name.split(' ')[0] }))
        .sort((a, b) => a.reason.localeCompare(b.reason)),
    );
    expect(first.reports.every((report) => report.status === 'OPEN' && report.reviewedAt === null && !Number.isNaN(Date.parse(report.createdAt)))).toBe(true);
    // Members' phones and full names never reach the list.
    expect(JSON.stringify(first)).not.toContain('Kumar');
    expect(second).toMatchObject({ firstName: 'Once', openReports: 1, isHidden: false });
    expect((await listReports('REVIEWED')).members).toEqual([]);
  });

  it('shows the moderator the reported member’s profile and photos, the photos to moderators only (decision 255)', async () => {
    const { ravi, photoId, ashaCookie } = await ravisReportedThreeTimes();
    await t.database.db.execute(
      sql`UPDATE dating_users SET profession = 'Pilot', dreams = '<b>fly</b>', gender = 'SELF_DESCRIBED', gender_self_described = 'Genderfluid', show_gender = false WHERE id = ${ravi}`,
    );
    const [first] = (await listReports()).members;
    expect(first).toMatchObject({
      profile: { profession: 'Pilot', dreams: '<b>fly</b>', gender: 'Genderfluid' },
      photos: [{ url: `/api/moderation/photos/${photoId}` }],
    });
    const photo = await call('GET', first.photos[0].url, asModerator());
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');
    // Not to a member, nor for someone never reported.
    expect((await call('GET', first.photos[0].url, ashaCookie)).statusCode).toBe(401);
    const never = await buildDatingMember(t.database.db, { name: 'Never Reported' });
    const otherId = `${randomUUID()}.png`;
    await t.database.db.execute(
      sql`INSERT INTO dating_photos (dating_user_id, sort_order, object_key, content_type, size_bytes) VALUES (${never}, 0, ${`dating/${otherId}`}, 'image/png', 100)`,
    );
    expect((await call('GET', `/api/moderation/photos/${otherId}`, asModerator())).statusCode).toBe(404);
  });

  it('keeps a report’s note up to 500 characters, and refuses a longer one', async () => {
    const ravi = await buildDatingMember(t.database.db, { name: 'Ravi Kumar' });
    const reporter = await buildDatingMember(t.database.db, { name: 'Nila' });
    await suggest(reporter, ravi);
    const cookie = await signIn(reporter);
    expect((await call('POST', `/dating/suggestions/${ravi}/report`, cookie, { reason: 'OTHER', note: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await call('POST', `/dating/suggestions/${ravi}/report`, cookie, { reason: 'OTHER', note: 'x'.repeat(500) })).statusCode).toBe(204);
    expect((await listReports()).members[0].reports[0].note).toHaveLength(500);
  });

  it('DISMISS closes the reports, records who and when, and shows the member to others again', async () => {
    const { ravi, ashaCookie } = await ravisReportedThreeTimes();
    const dismissed = await call('POST', `/api/moderation/members/${ravi}/review`, asModerator(), { decision: 'DISMISS', note: 'Checked: a real profile' });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json()).toEqual({ memberId: ravi, decision: 'DISMISS', reviewedReports: 3, isHidden: false, suspendedAt: null });
    expect(await suggestedTo(ashaCookie)).toContain(ravi);

    expect((await listReports()).members).toEqual([]);
    const reviewed = (await listReports('REVIEWED')).members;
    expect(reviewed.map((member) => member.memberId)).toEqual([ravi]);
    expect(reviewed[0].reports).toHaveLength(3);
    for (const report of reviewed[0].reports) {
      expect(report).toMatchObject({
        status: 'REVIEWED',
        reviewedBy: moderator.username,
        reviewNote: 'Checked: a real profile',
        reviewedAt: '2026-11-23T04:30:00.000Z',
      });
    }
    // Nothing open any more: a second dismissal (another moderator's, a double click) changes nothing.
    const again = await call('POST', `/api/moderation/members/${ravi}/review`, asModerator(), { decision: 'DISMISS' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This member has no open reports to dismiss');
    expect((await call('POST', `/api/moderation/members/${randomUUID()}/review`, asModerator(), { decision: 'SUSPEND' })).statusCode).toBe(404);
    expect((await call('POST', `/api/moderation/members/${ravi}/review`, asModerator(), { decision: 'BAN' })).statusCode).toBe(400);
  });

  it('SUSPEND hides the member for good, revokes their sessions and refuses their sign-in with the sentence', async () => {
    const { ravi, phone, photoId, asha, ashaCookie } = await ravisReportedThreeTimes();
    const raviCookie = await signIn(ravi);
    expect((await call('GET', '/dating/auth/me', raviCookie)).statusCode).toBe(200);
    expect((await call('GET', `/dating/photos/${photoId}`, ashaCookie)).statusCode).toBe(200);

    const suspended = await call('POST', `/api/moderation/members/${ravi}/review`, asModerator(), {
      decision: 'SUSPEND',
      note: 'Fake photos, asked for money',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json()).toEqual({ memberId: ravi, decision: 'SUSPEND', reviewedReports: 3, isHidden: true, suspendedAt: '2026-11-23T04:30:00.000Z' });

    // Signed out everywhere, and the sign-in says why, but only to someone who knows the password.
    expect((await call('GET', '/dating/auth/me', raviCookie)).statusCode).toBe(401);
    const refused = await call('POST', '/dating/auth/login', {}, { phone, password: TEST_PASSWORD });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: DATING_ACCOUNT_SUSPENDED });
    expect(refused.cookies).toEqual([]);
    const wrong = await call('POST', '/dating/auth/login', {}, { phone, password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('Invalid phone number or password');

    // Never shown: not in Asha's suggestions, not answerable, no photo, even though she was suggested him.
    expect(await suggestedTo(ashaCookie)).not.toContain(ravi);
    expect((await call('POST', `/dating/suggestions/${ravi}/answer`, ashaCookie, { answer: 'YES' })).statusCode).toBe(404);
    expect((await call('GET', `/dating/photos/${photoId}`, ashaCookie)).statusCode).toBe(404);
    // Never suggested again: tomorrow, with room for everyone, a newcomer who fits everyone gets all the others but him.
    const newcomer = await buildDatingMember(t.database.db, { name: 'Newcomer', dob: '1993-01-01' });
    await generateSuggestions(t.database.db, { day: '2026-11-24', perDay: 10, pool: 100 });
    const tomorrow = await queryRows<{ member_a: string; member_b: string }>(
      t.database.db,
      sql`SELECT member_a, member_b FROM dating_suggestions WHERE day = '2026-11-24'`,
    );
    const others = tomorrow.flatMap((pair) => (pair.member_a === newcomer ? [pair.member_b] : pair.member_b === newcomer ? [pair.member_a] : []));
    expect(others).toContain(asha);
    expect(others).toHaveLength(4);
    expect(tomorrow.some((pair) => pair.member_a === ravi || pair.member_b === ravi)).toBe(false);

    // The list keeps the record; suspending twice is refused.
    const reviewed = (await listReports('REVIEWED')).members;
    expect(reviewed[0]).toMatchObject({ memberId: ravi, isHidden: true, suspendedAt: '2026-11-23T04:30:00.000Z', openReports: 0 });
    expect((await call('POST', `/api/moderation/members/${ravi}/review`, asModerator(), { decision: 'SUSPEND' })).statusCode).toBe(409);
    const [row] = await queryRows<{ suspension_note: string }>(t.database.db, sql`SELECT suspension_note FROM dating_users WHERE id = ${ravi}`);
    expect(row.suspension_note).toBe('Fake photos, asked for money');
  });
});

describe('who may moderate', () => {
  it('answers 401 to anyone but a moderator: anonymous, a diner, staff, a dating member, a bad token', async () => {
    const restaurant = await buildRestaurant(t.database.db);
    const member = await buildDatingMember(t.database.db);
    const callers: [string, Headers][] = [
      ['anonymous', {}],
      ['diner', bearer((await buildDiner(t.database.db)).token)],
      ['staff', bearer((await buildStaff(t.database.db, restaurant.id)).token)],
      ['dating', await signIn(member)],
      ['bad token', bearer('not-a-token')],
    ];
    for (const [who, headers] of callers) {
      const list = await call('GET', '/api/moderation/reports', headers);
      expect(list.statusCode, who).toBe(401);
      expect(typeof list.json().error).toBe('string');
      expect((await call('POST', `/api/moderation/members/${member}/review`, headers, { decision: 'SUSPEND' })).statusCode, who).toBe(401);
    }
    const [{ suspended }] = await queryRows<{ suspended: boolean }>(
      t.database.db,
      sql`SELECT suspended_at IS NOT NULL AS suspended FROM dating_users WHERE id = ${member}`,
    );
    expect(suspended).toBe(false);
  });

  it('signs the demo moderator in with a bearer token, refuses a wrong password like the staff sign-in, and logs out', async () => {
    expect(await seedDemoModerator(t.database.db, { passwordHashCost: 10 })).toBe(true);
    expect(await seedDemoModerator(t.database.db, { passwordHashCost: 10 })).toBe(false);

    const wrong = await call('POST', '/api/moderation/auth/login', {}, { username: DEMO_MODERATOR.username, password: 'wrong-password' });
    const unknown = await call('POST', '/api/moderation/auth/login', {}, { username: 'nobody_here', password: 'wrong-password' });
    const staffWrong = await call('POST', '/api/auth/restaurant-login', {}, { username: 'nobody_here', password: 'wrong-password' });
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json()).toEqual(staffWrong.json());
    expect(unknown.json()).toEqual(staffWrong.json());

    const login = await call('POST', '/api/moderation/auth/login', {}, { username: 'MODERATOR', password: DEMO_MODERATOR.password });
    expect(login.statusCode, login.body).toBe(200);
    const { token } = login.json();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect((await call('GET', '/api/moderation/reports', bearer(token))).statusCode).toBe(200);
    // A moderator's token is no diner's or staff's.
    expect((await call('GET', '/api/auth/me', bearer(token))).statusCode).toBe(401);
    expect((await call('GET', '/api/admin/restaurant', bearer(token))).statusCode).toBe(401);

    expect((await call('POST', '/api/moderation/auth/logout', bearer(token))).statusCode).toBe(204);
    const after = await call('GET', '/api/moderation/reports', bearer(token));
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('Your session has expired. Please sign in again.');
  });
});
