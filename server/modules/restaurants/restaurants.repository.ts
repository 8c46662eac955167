import { asc, eq } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';
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

/** The staff's view of their restaurant: the public profile and the uploaded hero photo. */
const adminColumns = {
  id: restaurants.id,
  slug: restaurants.slug,
  name: restaurants.name,
  emoji: restaurants.emoji,
  neighborhood: restaurants.neighborhood,
  instagramUrl: restaurants.instagramUrl,
  website: restaurants.website,
  heroImageUrl: restaurants.heroImageUrl,
  heroImageKey: restaurants.heroImageKey,
  cuisineTags: restaurants.cuisineTags,
  address: restaurants.address,
  directionsUrl: restaurants.directionsUrl,
  costForTwo: restaurants.costForTwo,
  diet: restaurants.diet,
  menuUrl: restaurants.menuUrl,
  dressCode: restaurants.dressCode,
  childrenPolicy: restaurants.childrenPolicy,
  smokingPolicy: restaurants.smokingPolicy,
};

export type AdminRestaurantRow = Pick<RestaurantRow, keyof typeof adminColumns>;

export async function findAdminRestaurant(db: Db, restaurantId: string): Promise<AdminRestaurantRow | undefined> {
  const [row] = await db.select(adminColumns).from(restaurants).where(eq(restaurants.id, restaurantId));
  return row;
}

/** The page's facts staff may leave out of an update (undefined keeps the column as it is). */
export type ProfileFacts = Partial<
  Pick<RestaurantRow, 'cuisineTags' | 'address' | 'directionsUrl' | 'costForTwo' | 'diet' | 'menuUrl' | 'dressCode' | 'childrenPolicy' | 'smokingPolicy'>
>;

export async function updateRestaurantProfile(
  db: Db,
  restaurantId: string,
  profile: { name: string; neighborhood: string; instagramUrl: string | null; website: string | null; heroImageUrl: string | null; now: Date } & ProfileFacts,
): Promise<AdminRestaurantRow | undefined> {
  const { now, ...given } = profile;
  const columns = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  const [row] = await db
    .update(restaurants)
    .set({ ...columns, updatedAt: now })
    .where(eq(restaurants.id, restaurantId))
    .returning(adminColumns);
  return row;
}

export async function setHeroImage(db: Db, restaurantId: string, image: { key: string; url: string; now: Date }): Promise<void> {
  await db.execute(
    sql`UPDATE restaurants SET hero_image_key = ${image.key}, hero_image_url = ${image.url}, updated_at = ${image.now.toISOString()}
        WHERE id = ${restaurantId}`,
  );
}

export async function findHeroImageKey(db: Db, restaurantId: string): Promise<string | null | undefined> {
  const [row] = await queryRows<{ hero_image_key: string | null }>(db, sql`SELECT hero_image_key FROM restaurants WHERE id = ${restaurantId}`);
  return row ? row.hero_image_key : undefined;
}
