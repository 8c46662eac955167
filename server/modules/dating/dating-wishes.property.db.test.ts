import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { genders, wantsToMeetValues, wishesMatch, type Gender, type WantsToMeet } from '#common/domain/dating-gender.ts';
import { createTestApp, type TestApp, TEST_TODAY as DAY } from '#server/test/app.ts';
import { buildDatingMember, datingMemberProfile } from '#server/test/factories.ts';
import { generateSuggestions } from './dating-matches.repository.ts';

/**
 * Who meets whom (decision 250), as a property over random member pools: whatever the mix of
 * genders and wishes (and members who never said their gender), no suggestion the SQL makes breaks
 * either side's wish, and every pair it keeps out is kept out by the wish rule or the other filters.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const memberArbitrary = fc.record({
  gender: fc.option(fc.constantFrom<Gender>(...genders), { freq: 6 }),
  wantsToMeet: fc.constantFrom<WantsToMeet>(...wantsToMeetValues),
  showGender: fc.boolean(),
  age: fc.integer({ min: 24, max: 34 }),
  home: fc.constantFrom('Indiranagar', 'Koramangala'),
});

describe('suggestions respect both sides’ wishes', () => {
  it('never suggests a pair where either does not want to meet the other', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(memberArbitrary, { minLength: 2, maxLength: 9 }), async (pool) => {
        const db = t.database.db;
        await db.execute(sql`DELETE FROM dating_users`);
        const byId = new Map<string, (typeof pool)[number]>();
        for (const [index, m] of pool.entries()) {
          const id = await buildDatingMember(
            db,
            datingMemberProfile({
              name: `Member ${index}`,
              dob: `${2026 - m.age}-01-01`,
              wantAgeMin: 18,
              wantAgeMax: 99,
              neighbourhoods: ['Indiranagar', 'Koramangala'].sort((a) => (a === m.home ? -1 : 1)),
              gender: m.gender,
              wantsToMeet: m.wantsToMeet,
              showGender: m.showGender,
            }),
          );
          byId.set(id, m);
        }
        await generateSuggestions(db, { day: DAY, perDay: 20, pool: 20 });
        const rows = await queryRows<{ member_a: string; member_b: string }>(db, sql`SELECT member_a, member_b FROM dating_suggestions WHERE day = ${DAY}`);
        for (const row of rows) expect(wishesMatch(byId.get(row.member_a)!, byId.get(row.member_b)!)).toBe(true);
        // Nothing else keeps a pair apart here (same ages, evenings, places, room for everyone):
        // every pair whose wishes hold is suggested.
        const ids = [...byId.keys()];
        const expected = ids.flatMap((a, i) => ids.slice(i + 1).filter((b) => wishesMatch(byId.get(a)!, byId.get(b)!))).length;
        expect(rows.length).toBe(expected);
      }),
      { numRuns: 25 },
    );
  });
});
