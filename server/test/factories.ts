import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { MatchProfile } from '#common/domain/dating-match.ts';
import type { Gender, WantsToMeet } from '#common/domain/dating-gender.ts';
import { kolkataInstant } from '#common/domain/time.ts';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';
import { hashPassword } from '#server/modules/accounts/password.ts';
import { hashToken } from '#server/modules/accounts/sessions.service.ts';
import type { DropInput } from '#server/modules/drops/drops.test-support.ts';
import type { TestApp } from './app.ts';

/** Test data builders: each writes real rows and returns what tests need to use them. */

const TEST_HASH_COST = 10;
let cachedHash: Promise<string> | undefined;
/** One cheap hash of TEST_PASSWORD, shared by every factory-made account. */
export const TEST_PASSWORD = 'password123';
function testPasswordHash(): Promise<string> {
  cachedHash ??= hashPassword(TEST_PASSWORD, TEST_HASH_COST);
  return cachedHash;
}

const unique = () => randomBytes(4).toString('hex');

export interface BuiltRestaurant {
  id: string;
  slug: string;
  name: string;
}

export async function buildRestaurant(
  db: Db,
  overrides: Partial<{
    slug: string;
    name: string;
    category: string;
    neighborhood: string;
    hot: boolean;
    lat: number | null;
    lng: number | null;
    cuisineTags: string[];
    emoji: string;
  }> = {},
): Promise<BuiltRestaurant> {
  const slug = overrides.slug ?? `test-restaurant-${unique()}`;
  const name = overrides.name ?? `Test Restaurant ${slug.slice(-8)}`;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO restaurants (slug, name, emoji, neighborhood, hot, cuisine_tags, category, lat, lng)
        VALUES (${slug}, ${name}, ${overrides.emoji ?? '🍛'}, ${overrides.neighborhood ?? 'Indiranagar'}, ${overrides.hot ?? false},
                ${toPgArray(overrides.cuisineTags ?? ['South Indian'])}::text[], ${overrides.category ?? 'indian'},
                ${overrides.lat === undefined ? 12.97 : overrides.lat}, ${overrides.lng === undefined ? 77.64 : overrides.lng})
        RETURNING id`,
  );
  return { id: row.id, slug, name };
}

export interface BuiltSlot {
  id: string;
  date: string;
  time: string;
  capacity: number;
}

export async function buildSlot(
  db: Db,
  restaurantId: string,
  slot: { date: string; time: string; capacity?: number; status?: 'available' | 'full' },
): Promise<BuiltSlot> {
  const capacity = slot.capacity ?? 8;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO slots (restaurant_id, slot_date, slot_time, starts_at, capacity, status)
        VALUES (${restaurantId}, ${slot.date}, ${slot.time}, ${kolkataInstant(slot.date, slot.time).toISOString()}, ${capacity}, ${slot.status ?? 'available'})
        RETURNING id`,
  );
  return { id: row.id, date: slot.date, time: slot.time, capacity };
}

/**
 * Fresh evening slots on `date` for one test file, each at its own time (17:15, 17:30, … up to 23:45),
 * so that no two tests share a slot. `db` is read at each call (it exists once the file's app does).
 */
export function eveningSlots(db: () => Db, date: string) {
  let count = 0;
  return async (restaurantId: string, capacity = 40): Promise<{ time: string; startsAt: Date }> => {
    count += 1;
    if (count > 27) throw new Error('eveningSlots: no evening time is left on that date');
    const time = `${String(17 + Math.floor(count / 4)).padStart(2, '0')}:${String((count % 4) * 15).padStart(2, '0')}`;
    await buildSlot(db(), restaurantId, { date, time, capacity });
    return { time, startsAt: kolkataInstant(date, time) };
  };
}

export interface BuiltAccount {
  id: string;
  username: string;
  password: string;
  /** A live bearer token for the account. */
  token: string;
}

async function issueToken(db: Db, kind: 'diner' | 'staff' | 'dating' | 'moderator', subjectId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.execute(
    sql`INSERT INTO sessions (token_hash, kind, subject_id, expires_at)
        VALUES (${hashToken(token)}, ${kind}, ${subjectId}, ${new Date(Date.now() + 365 * 86_400_000).toISOString()})`,
  );
  return token;
}

export async function buildDiner(db: Db, overrides: Partial<{ username: string; name: string; email: string; phone: string }> = {}): Promise<BuiltAccount> {
  const username = overrides.username ?? `diner_${unique()}`;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO users (username, password_hash, name, email, phone)
        VALUES (${username}, ${await testPasswordHash()}, ${overrides.name ?? `Diner ${username}`}, ${overrides.email ?? `${username}@example.com`}, ${overrides.phone ?? null})
        RETURNING id`,
  );
  return { id: row.id, username, password: TEST_PASSWORD, token: await issueToken(db, 'diner', row.id) };
}

export async function buildStaff(
  db: Db,
  restaurantId: string,
  overrides: Partial<{ username: string; email: string }> = {},
): Promise<BuiltAccount & { restaurantId: string }> {
  const username = overrides.username ?? `staff_${unique()}`;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO staff_accounts (restaurant_id, username, password_hash, email)
        VALUES (${restaurantId}, ${username}, ${await testPasswordHash()}, ${overrides.email ?? null}) RETURNING id`,
  );
  return { id: row.id, username, password: TEST_PASSWORD, token: await issueToken(db, 'staff', row.id), restaurantId };
}

/** A Tablefair moderator (decision 185), with a live moderator token. */
export async function buildModerator(db: Db, overrides: Partial<{ username: string }> = {}): Promise<BuiltAccount> {
  const username = overrides.username ?? `mod_${unique()}`;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO platform_moderators (username, password_hash) VALUES (${username}, ${await testPasswordHash()}) RETURNING id`,
  );
  return { id: row.id, username, password: TEST_PASSWORD, token: await issueToken(db, 'moderator', row.id) };
}

/** `count` no-show strikes for `diner`, recorded an hour apart this morning (bookings at another restaurant). */
export async function recordNoShows(db: Db, diner: Pick<BuiltAccount, 'id'>, count: number): Promise<void> {
  const elsewhere = await buildRestaurant(db);
  for (let n = 0; n < count; n++) {
    const slot = await buildSlot(db, elsewhere.id, { date: '2026-11-23', time: `0${n + 1}:00` });
    await db.execute(sql`
      WITH booking AS (
        INSERT INTO reservations (user_id, restaurant_id, slot_id, party_size, status, starts_at, created_at)
        SELECT ${diner.id}, ${elsewhere.id}, id, 2, 'NO_SHOW', starts_at, starts_at FROM slots WHERE id = ${slot.id}
        RETURNING id, starts_at
      )
      INSERT INTO no_show_strikes (user_id, reservation_id, restaurant_id, created_at) SELECT ${diner.id}, id, ${elsewhere.id}, starts_at FROM booking`);
  }
}

/**
 * A drop for a 19:00 table of up to four next Sunday (29 Nov), taking entries from 09:30 Kolkata
 * today (TEST_NOW's date) to 09:30 tomorrow and released then: open to entries at TEST_NOW.
 */
export const SUNDAY_DROP = {
  dateFrom: '2026-11-29',
  dateTo: '2026-11-29',
  times: ['19:00'],
  capacity: 4,
  entryOpensAt: '2026-11-23T04:00:00.000Z',
  entryClosesAt: '2026-11-24T04:00:00.000Z',
  releaseAt: '2026-11-24T04:00:00.000Z',
} satisfies DropInput;

/**
 * Queues, through `app`'s outbox, the offer of a table for 2 at Toit on Tue 24 Nov at 7:30 PM,
 * held until 7:40 PM: the subject and template values every channel's test sends. `body` and
 * `link` are each test's own, since some tests read them back.
 */
export function queueToitOffer(app: TestApp, userId: string, idempotencyKey: string, message: { body: string; link: string }): Promise<string | null> {
  return app.database.db.transaction((tx) =>
    app.app.services.notifications.queueOffer(tx, userId, {
      subject: 'A table at Toit is yours for 10 minutes',
      values: ['Toit', '2 guests', 'Tue, 24 Nov', '7:30 PM', '7:40 PM', 'https://tablefair.example/hold/x'],
      idempotencyKey,
      ...message,
    }),
  );
}

/** Active covers on a slot as the invariant defines them, for assertions. */
export async function coversHeld(db: Db, slotId: string, now: Date): Promise<number> {
  const [row] = await queryRows<{ covers: number }>(
    db,
    sql`SELECT coalesce(sum(party_size), 0)::int AS covers FROM reservations
        WHERE slot_id = ${slotId} AND status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED')
          AND (status <> 'HELD' OR hold_expires_at > ${now.toISOString()})`,
  );
  return row.covers;
}

/** What matching reads of a dating member, with the documented score's fields (decision 140). */
export interface DatingMemberProfile extends MatchProfile {
  name: string;
  dob: string;
  wantAgeMin: number;
  wantAgeMax: number;
  /** Who they are and who they want to meet (decision 250); null: joined before it was asked. */
  gender: Gender | null;
  wantsToMeet: WantsToMeet;
  showGender: boolean;
  /** A date less than 24 hours ahead is fine (decision 252). */
  tonightIsFine: boolean;
}

/** A dating member's profile: Asha, 32, in Indiranagar, free Friday late and Saturday early, unless overridden. */
export function datingMemberProfile(overrides: Partial<DatingMemberProfile> = {}): DatingMemberProfile {
  return {
    name: 'Asha Rao',
    dob: '1994-05-01',
    wantAgeMin: 25,
    wantAgeMax: 40,
    neighbourhoods: ['Indiranagar'],
    freeEvenings: ['FRI_LATE', 'SAT_EARLY'],
    cuisines: ['SOUTH_INDIAN'],
    firstDateTypes: ['COFFEE'],
    dateBudget: 'INR_1000_2500',
    intent: 'LONG_TERM',
    gender: 'WOMAN',
    wantsToMeet: 'EVERYONE',
    showGender: true,
    tonightIsFine: false,
    ...overrides,
  };
}

let datingPhoneCounter = 0;
/** A dating member with the profile's matching fields (a placeholder password: tests sign in by session). */
export async function buildDatingMember(db: Db, overrides: Partial<DatingMemberProfile> = {}): Promise<string> {
  const m = datingMemberProfile(overrides);
  datingPhoneCounter += 1;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO dating_users (phone, password_hash, name, dob, date_budget, cuisines, first_date_types, want_age_min, want_age_max, neighbourhoods, free_evenings, intent,
                                  gender, wants_to_meet, show_gender, tonight_is_fine)
        VALUES (${`+9177${String(process.pid % 1000).padStart(3, '0')}${String(datingPhoneCounter).padStart(5, '0')}`}, 'x', ${m.name}, ${m.dob}, ${m.dateBudget},
                ${toPgArray(m.cuisines)}::text[], ${toPgArray(m.firstDateTypes)}::text[], ${m.wantAgeMin}, ${m.wantAgeMax},
                ${toPgArray(m.neighbourhoods)}::text[], ${toPgArray(m.freeEvenings)}::text[], ${m.intent},
                ${m.gender}, ${m.wantsToMeet}, ${m.showGender}, ${m.tonightIsFine})
        RETURNING id`,
  );
  return row.id;
}
