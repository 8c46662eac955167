import { sql } from 'drizzle-orm';
import type { DatePartnerProfile } from '#common/contract/dating.ts';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';

/** The date-partner profiles' SQL (decision 183): one row per restaurant that hosts dates. */

export interface DatingPartnerRow {
  budget: DatePartnerProfile['budget'];
  neighbourhood: DatePartnerProfile['neighbourhood'];
  cuisines: DatePartnerProfile['cuisines'];
  date_types: DatePartnerProfile['dateTypes'];
  opted_in_at: Date | string;
}

export async function findDatingPartner(db: Db, restaurantId: string): Promise<DatingPartnerRow | undefined> {
  const [row] = await queryRows<DatingPartnerRow>(
    db,
    sql`SELECT budget, neighbourhood, cuisines, date_types, opted_in_at FROM dating_partners WHERE restaurant_id = ${restaurantId}`,
  );
  return row;
}

/** Writes the profile; a restaurant opting in again keeps the moment it first did. */
export async function upsertDatingPartner(db: Db, restaurantId: string, profile: DatePartnerProfile, now: Date): Promise<void> {
  await db.execute(
    sql`INSERT INTO dating_partners (restaurant_id, budget, neighbourhood, cuisines, date_types, opted_in_at, updated_at)
        VALUES (${restaurantId}, ${profile.budget}, ${profile.neighbourhood}, ${toPgArray(profile.cuisines)}::text[],
                ${toPgArray(profile.dateTypes)}::text[], ${now.toISOString()}, ${now.toISOString()})
        ON CONFLICT (restaurant_id) DO UPDATE SET budget = EXCLUDED.budget, neighbourhood = EXCLUDED.neighbourhood,
          cuisines = EXCLUDED.cuisines, date_types = EXCLUDED.date_types, updated_at = EXCLUDED.updated_at`,
  );
}

export async function deleteDatingPartner(db: Db, restaurantId: string): Promise<void> {
  await db.execute(sql`DELETE FROM dating_partners WHERE restaurant_id = ${restaurantId}`);
}
