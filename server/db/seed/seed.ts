import { sql } from 'drizzle-orm';
import { emojiForCategory, AVAILABILITY_HORIZON_DAYS } from '#common/domain/restaurants.ts';
import { addDays, clockTimesBetween, kolkataInstant, todayInKolkata } from '#common/domain/time.ts';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';
import type { DatePartnerProfile } from '#common/contract/dating.ts';
import type { DepositPolicy } from '#common/domain/deposit-policy.ts';
import { DEMO_DINER_PASSWORD, DEMO_STAFF_PASSWORD } from '#server/modules/accounts/demo-passwords.ts';
import { hashPassword } from '#server/modules/accounts/password.ts';
import { upsertDatingPartner } from '#server/modules/dating/dating-partners.repository.ts';
import { newSealedSeed } from '#server/modules/drops/drop-offers.ts';
import { insertDrop } from '#server/modules/drops/drops.repository.ts';
import { findDepositPolicy, replaceDepositPolicy } from '#server/modules/restaurants/deposit-policy.repository.ts';
import { insertDropSlots } from '#server/modules/slots/slots.repository.ts';
import { seedDemoFloors } from './floors.ts';
import { seedDemoModerator } from './moderator.ts';
import { seedRestaurantProfiles } from './restaurant-profiles.ts';
import { seedRestaurants, slugify } from './restaurants.data.ts';

export const DEMO_DINER = { username: 'demo', password: DEMO_DINER_PASSWORD, name: 'Demo Diner' } as const;
export { DEMO_STAFF_PASSWORD };

/**
 * Demo restaurants that host Tablefair dates (decision 184), in the dating section's words, one or
 * two in each dating neighbourhood, so two demo members who both say yes get a plan. Written when
 * the restaurant is first created: a partner its staff later leave stays left.
 */
const DEMO_DATE_PARTNERS: Record<string, DatePartnerProfile> = {
  'smoke-copper': { budget: 'INR_1000_2500', neighbourhood: 'Indiranagar', cuisines: ['NORTH_INDIAN'], dateTypes: ['QUICK_COCKTAIL', 'DINNER'] },
  'coastal-curry-co': { budget: 'INR_1000_2500', neighbourhood: 'Koramangala', cuisines: ['SOUTH_INDIAN'], dateTypes: ['DINNER', 'LUNCH'] },
  'blue-ginger-bar': { budget: 'INR_1000_2500', neighbourhood: 'Koramangala', cuisines: ['THAI', 'JAPANESE'], dateTypes: ['QUICK_COCKTAIL', 'DINNER'] },
  'taco-tuesday-co': { budget: 'INR_500_1000', neighbourhood: 'HSR', cuisines: ['MEXICAN', 'VEGETARIAN_ONLY'], dateTypes: ['QUICK_COCKTAIL', 'DINNER'] },
  'ember-oak': { budget: 'INR_2500_5000', neighbourhood: 'Whitefield', cuisines: ['NORTH_INDIAN', 'ITALIAN'], dateTypes: ['DINNER', 'LIVE_MUSIC'] },
  'trattoria-nonna-lucia': { budget: 'INR_1000_2500', neighbourhood: 'Central BLR', cuisines: ['ITALIAN', 'VEGETARIAN_ONLY'], dateTypes: ['DINNER', 'LUNCH'] },
  'bamboo-basket': { budget: 'INR_500_1000', neighbourhood: 'Kalyan Nagar', cuisines: ['THAI', 'VEGAN'], dateTypes: ['DINNER', 'COFFEE'] },
};
/** Where a demo restaurant login's reset code goes (the dev mailbox shows it). */
export const demoStaffEmail = (slug: string) => `${slug}@restaurants.tablefair.example`;
/** The evening every demo restaurant offers: 18:00 to 22:00 every 30 minutes. */
const EVENING_TIMES = clockTimesBetween('18:00', '22:00', 30);

/**
 * Demo data, safe to run on every start: restaurants and accounts are created once,
 * and slots are topped up so the next 30 days always have an evening to book.
 * `demoAccounts` (demoAccountsAllowed: never in production, decision 201): whether the demo
 * diner, each restaurant's staff account and the moderator are made, with their published passwords.
 */
export async function seedDemoData(
  db: Db,
  options: { now: Date; passwordHashCost: number; demoAccounts: boolean },
): Promise<{ restaurants: number; slotsAdded: number }> {
  const existing = await queryRows<{ slug: string }>(db, sql`SELECT slug FROM restaurants`);
  const known = new Set(existing.map((row) => row.slug));
  const missing = seedRestaurants.filter(([name]) => !known.has(slugify(name)));

  if (missing.length > 0) {
    // One hash per run for the published demo password keeps the first start quick.
    const staffHash = options.demoAccounts ? await hashPassword(DEMO_STAFF_PASSWORD, options.passwordHashCost) : null;
    await db.transaction(async (tx) => {
      for (const [name, category, cuisineTags, neighborhood, lat, lng, hot, , description] of missing) {
        const slug = slugify(name);
        const [row] = await queryRows<{ id: string }>(
          tx,
          sql`INSERT INTO restaurants (slug, name, emoji, neighborhood, hot, cuisine_tags, category, description, website, instagram_url, lat, lng)
              VALUES (${slug}, ${name}, ${emojiForCategory(category)}, ${neighborhood}, ${hot}, ${toPgArray(cuisineTags)}::text[],
                      ${category}, ${description}, ${`https://${slug}.example.in`}, ${`https://instagram.com/${slug.replaceAll('-', '')}`}, ${lat}, ${lng})
              RETURNING id`,
        );
        if (staffHash) {
          await tx.execute(
            sql`INSERT INTO staff_accounts (restaurant_id, username, password_hash, email) VALUES (${row.id}, ${slug}, ${staffHash}, ${demoStaffEmail(slug)})`,
          );
        }
        const partner = DEMO_DATE_PARTNERS[slug];
        if (partner) await upsertDatingPartner(tx, row.id, partner, options.now);
      }
    });
  }

  if (options.demoAccounts) {
    await seedDemoDiner(db, options.passwordHashCost);
    await seedDemoModerator(db, options);
  }
  // Forgot password (decision 230): the demo diner's email counts as confirmed, and every demo
  // restaurant login has the address a reset code goes to (also on data seeded before these existed).
  await db.execute(
    sql`UPDATE users SET email_verified_at = ${options.now.toISOString()} WHERE lower(username) = ${DEMO_DINER.username} AND email_verified_at IS NULL`,
  );
  await db.execute(sql`UPDATE staff_accounts SET email = username || '@restaurants.tablefair.example' WHERE email IS NULL AND username ~ '^[a-z0-9-]+$'`);
  await seedRestaurantProfiles(db);

  // Every demo restaurant runs its evening on a floor of tables (decision 240).
  await seedDemoFloors(db, options.now);
  const slotsAdded = await topUpDemoSlots(db, options.now);
  await seedDemoDrops(db, options.now);
  await seedDemoDepositPolicy(db, options.now);
  return { restaurants: seedRestaurants.length, slotsAdded };
}

/** The demo diner, once, with its published password. */
async function seedDemoDiner(db: Db, passwordHashCost: number): Promise<void> {
  const diner = await queryRows(db, sql`SELECT 1 FROM users WHERE lower(username) = ${DEMO_DINER.username}`);
  if (diner.length > 0) return;
  const hash = await hashPassword(DEMO_DINER.password, passwordHashCost);
  await db.execute(
    sql`INSERT INTO users (username, password_hash, name, email, preferred_hood)
        VALUES (${DEMO_DINER.username}, ${hash}, ${DEMO_DINER.name}, 'demo@tablefair.example', 'Indiranagar')
        ON CONFLICT DO NOTHING`,
  );
}

/**
 * Two drops to try on a fresh start, each made again once its predecessor's entries have closed:
 * one taking entries now (closing in a day) and one announced (opening tomorrow). Their tables
 * are at 17:30, before the restaurants' ordinary evening, so they never collide with it.
 */
const DEMO_DROPS = [
  {
    slug: 'toit-tandoor',
    title: 'Tandoor tasting at the chef’s table',
    description: 'Eight courses from the clay oven, two seatings only.',
    opensInHours: -1,
    closesInHours: 24,
    inDays: 6,
  },
  {
    slug: 'ember-oak',
    title: 'Ember & Oak fire dinner',
    description: 'One long table, everything cooked over wood.',
    opensInHours: 24,
    closesInHours: 48,
    inDays: 9,
  },
] as const;
const DEMO_DROP_TIME = '17:30';

async function seedDemoDrops(db: Db, now: Date): Promise<void> {
  for (const demo of DEMO_DROPS) {
    const [restaurant] = await queryRows<{ id: string }>(db, sql`SELECT id FROM restaurants WHERE slug = ${demo.slug}`);
    if (!restaurant) continue;
    const current = await queryRows(
      db,
      sql`SELECT 1 FROM drops WHERE restaurant_id = ${restaurant.id} AND title = ${demo.title} AND entry_closes_at > ${now.toISOString()}`,
    );
    if (current.length > 0) continue;
    const date = addDays(todayInKolkata(now), demo.inDays);
    const taken = await queryRows(
      db,
      sql`SELECT 1 FROM slots WHERE restaurant_id = ${restaurant.id} AND slot_date = ${date} AND slot_time = ${DEMO_DROP_TIME}`,
    );
    if (taken.length > 0) continue;
    const hours = (count: number) => new Date(now.getTime() + count * 3_600_000);
    const startsAt = kolkataInstant(date, DEMO_DROP_TIME);
    await db.transaction(async (tx) => {
      const dropId = await insertDrop(tx, {
        restaurantId: restaurant.id,
        title: demo.title,
        description: demo.description,
        entryOpensAt: hours(demo.opensInHours),
        entryClosesAt: hours(demo.closesInHours),
        releaseAt: hours(demo.closesInHours),
        capacity: 4,
        lastSlotAt: startsAt,
        now,
        ...newSealedSeed(),
      });
      await insertDropSlots(tx, restaurant.id, dropId, { dates: [date], times: [DEMO_DROP_TIME], startsAt: [startsAt.toISOString()], capacity: 4 });
    });
  }
}

/**
 * One demo restaurant asks a deposit, so a visitor can try the deposit flow without the portal:
 * ₹200 a guest on Friday and Saturday evenings, free to cancel until 2 hours before. Written
 * only while the restaurant has no policy, so a policy its staff set (even "none") stays.
 */
export const DEMO_DEPOSIT_RESTAURANT = 'vino-veritas';
export const DEMO_DEPOSIT_POLICY: DepositPolicy = {
  defaultCharge: { kind: 'none', perCoverPaise: 0 },
  rules: [{ days: [5, 6], fromTime: '18:00', untilTime: '22:00', kind: 'deposit', perCoverPaise: 20_000 }],
  freeCancelMinutes: 120,
  lateCancelKeepPercent: 100,
  noShowKeepPercent: 100,
};

async function seedDemoDepositPolicy(db: Db, now: Date): Promise<void> {
  const [restaurant] = await queryRows<{ id: string; staff_id: string }>(
    db,
    sql`SELECT r.id, s.id AS staff_id FROM restaurants r JOIN staff_accounts s ON s.restaurant_id = r.id WHERE r.slug = ${DEMO_DEPOSIT_RESTAURANT} LIMIT 1`,
  );
  if (!restaurant || (await findDepositPolicy(db, restaurant.id))) return;
  await db.transaction((tx) => replaceDepositPolicy(tx, restaurant.id, DEMO_DEPOSIT_POLICY, { staffId: restaurant.staff_id, now }));
}

/** Adds the evening slots of the next 30 days to every demo restaurant that lacks them. */
async function topUpDemoSlots(db: Db, now: Date): Promise<number> {
  const from = todayInKolkata(now);
  const to = addDays(from, AVAILABILITY_HORIZON_DAYS - 1);
  const slugs = seedRestaurants.map(([name]) => slugify(name));
  const capacities = seedRestaurants.map(([, , , , , , , capacity]) => capacity);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO slots (restaurant_id, slot_date, slot_time, starts_at, capacity)
        SELECT r.id, d::date, t, (d::date + t::time) AT TIME ZONE 'Asia/Kolkata', c.capacity
        FROM unnest(${toPgArray(slugs)}::text[], ${toPgArray(capacities)}::int[]) AS c(slug, capacity)
        JOIN restaurants r ON r.slug = c.slug
        CROSS JOIN generate_series(${from}::date, ${to}::date, interval '1 day') AS d
        CROSS JOIN unnest(${toPgArray(EVENING_TIMES)}::text[]) AS t
        ON CONFLICT (restaurant_id, slot_date, slot_time) DO NOTHING
        RETURNING id`,
  );
  return rows.length;
}
