import { sql } from 'drizzle-orm';
import { queryRows, toPgArray, type Db } from '#server/db/client.ts';

/**
 * What a plan card shows beyond the plan (decision 254): the venue's photo, budget band, address and
 * position, the partner's first photo, whether either blocked the other, and what the two share.
 */
export interface PlanCardRow {
  plan_id: string;
  venue_photo_id: string | null;
  hero_image_url: string | null;
  address: string | null;
  directions_url: string | null;
  lat: number | null;
  lng: number | null;
  budget: string | null;
  partner_photo_key: string | null;
  blocked: boolean;
  shared_cuisines: string[];
  shared_date_types: string[];
  shared_neighbourhoods: string[];
  shared_evenings: string[];
}

/** The values `me` and `o` (dating_users in scope) share, in `me`'s order. */
function shared(column: string) {
  return sql.raw(
    `coalesce(ARRAY(SELECT value FROM unnest(me.${column}) WITH ORDINALITY AS t (value, place) WHERE value = ANY(o.${column}) ORDER BY place), '{}')`,
  );
}

export async function listPlanCards(db: Db, planIds: readonly string[], memberId: string): Promise<PlanCardRow[]> {
  if (planIds.length === 0) return [];
  return queryRows<PlanCardRow>(
    db,
    sql`SELECT p.id AS plan_id,
               (SELECT ph.id FROM restaurant_photos ph WHERE ph.restaurant_id = p.restaurant_id AND ph.purpose = 'gallery' ORDER BY ph.sort_order, ph.created_at, ph.id LIMIT 1) AS venue_photo_id,
               rest.hero_image_url, rest.address, rest.directions_url, rest.lat, rest.lng, dp.budget,
               (SELECT ph.object_key FROM dating_photos ph WHERE ph.dating_user_id = o.id ORDER BY ph.sort_order LIMIT 1) AS partner_photo_key,
               EXISTS (SELECT 1 FROM dating_blocks b WHERE (b.blocker_id = me.id AND b.blocked_id = o.id) OR (b.blocker_id = o.id AND b.blocked_id = me.id)) AS blocked,
               ${shared('cuisines')} AS shared_cuisines, ${shared('first_date_types')} AS shared_date_types,
               ${shared('neighbourhoods')} AS shared_neighbourhoods, ${shared('free_evenings')} AS shared_evenings
        FROM dating_plans p
        JOIN restaurants rest ON rest.id = p.restaurant_id
        LEFT JOIN dating_partners dp ON dp.restaurant_id = p.restaurant_id
        JOIN dating_users me ON me.id = ${memberId}
        JOIN dating_users o ON o.id = CASE WHEN p.member_a = ${memberId} THEN p.member_b ELSE p.member_a END
        WHERE p.id = ANY(${toPgArray(planIds)}::uuid[])`,
  );
}
