import { asc, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { restaurants } from '#server/db/schema.ts';

export type RestaurantRow = typeof restaurants.$inferSelect;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function listRestaurants(db: Db): Promise<RestaurantRow[]> {
  return db.select().from(restaurants).orderBy(asc(restaurants.name), asc(restaurants.id));
}

/** By slug, or by id when the key is a UUID (for /restaurant/{id}). */
export async function findRestaurant(db: Db, slugOrId: string): Promise<RestaurantRow | undefined> {
  const condition = UUID_PATTERN.test(slugOrId) ? eq(restaurants.id, slugOrId.toLowerCase()) : eq(restaurants.slug, slugOrId.toLowerCase());
  const [row] = await db.select().from(restaurants).where(condition);
  return row;
}
