import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '#server/db/client.ts';

/** SQL for restaurants' photos (decision 234): restaurants owns restaurant_photos. */

export interface RestaurantPhotoRow {
  id: string;
  restaurant_id: string;
  purpose: 'gallery' | 'menu';
  sort_order: number;
  alt: string;
  variant_base: string;
  width: number;
  height: number;
  illustration: string | null;
}

const COLUMNS = sql`id, restaurant_id, purpose, sort_order, alt, variant_base, width, height, illustration`;

/** A restaurant's photos, the gallery first, each purpose in its order. */
export function listRestaurantPhotos(db: Db, restaurantId: string): Promise<RestaurantPhotoRow[]> {
  return queryRows<RestaurantPhotoRow>(
    db,
    sql`SELECT ${COLUMNS} FROM restaurant_photos WHERE restaurant_id = ${restaurantId} ORDER BY purpose DESC, sort_order, created_at, id`,
  );
}

/** Every restaurant's first gallery photo (its cover), for the list. */
export function listCoverPhotos(db: Db): Promise<RestaurantPhotoRow[]> {
  return queryRows<RestaurantPhotoRow>(
    db,
    sql`SELECT DISTINCT ON (restaurant_id) ${COLUMNS} FROM restaurant_photos WHERE purpose = 'gallery'
        ORDER BY restaurant_id, sort_order, created_at, id`,
  );
}

export async function findRestaurantPhoto(db: Db, photoId: string): Promise<RestaurantPhotoRow | undefined> {
  const [row] = await queryRows<RestaurantPhotoRow>(db, sql`SELECT ${COLUMNS} FROM restaurant_photos WHERE id = ${photoId}`);
  return row;
}

/** Locks the restaurant's row (so two uploads count one after the other) and answers how many photos of a purpose it has. */
export async function lockAndCountPhotos(db: Db, restaurantId: string, purpose: 'gallery' | 'menu'): Promise<{ count: number; nextOrder: number } | undefined> {
  const locked = await queryRows(db, sql`SELECT id FROM restaurants WHERE id = ${restaurantId} FOR UPDATE`);
  if (locked.length === 0) return undefined;
  const [row] = await queryRows<{ count: number; next_order: number }>(
    db,
    sql`SELECT count(*)::int AS count, coalesce(max(sort_order) + 1, 0)::int AS next_order FROM restaurant_photos
        WHERE restaurant_id = ${restaurantId} AND purpose = ${purpose}`,
  );
  return { count: row.count, nextOrder: row.next_order };
}

export async function insertRestaurantPhoto(db: Db, photo: Omit<RestaurantPhotoRow, 'id'> & { id?: string }): Promise<RestaurantPhotoRow> {
  const [row] = await queryRows<RestaurantPhotoRow>(
    db,
    sql`INSERT INTO restaurant_photos (id, restaurant_id, purpose, sort_order, alt, variant_base, width, height, illustration)
        VALUES (coalesce(${photo.id ?? null}::uuid, gen_random_uuid()), ${photo.restaurant_id}, ${photo.purpose}, ${photo.sort_order}, ${photo.alt},
                ${photo.variant_base}, ${photo.width}, ${photo.height}, ${photo.illustration})
        RETURNING ${COLUMNS}`,
  );
  return row;
}

/** Removes one of the restaurant's photos; answers it, or undefined when the restaurant has no such photo. */
export async function deleteRestaurantPhoto(db: Db, restaurantId: string, photoId: string): Promise<RestaurantPhotoRow | undefined> {
  const [row] = await queryRows<RestaurantPhotoRow>(
    db,
    sql`DELETE FROM restaurant_photos WHERE id = ${photoId} AND restaurant_id = ${restaurantId} RETURNING ${COLUMNS}`,
  );
  return row;
}

/** Makes one gallery photo the cover (first), keeping the others' order. */
export async function moveRestaurantPhotoFirst(db: Db, restaurantId: string, photoId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`UPDATE restaurant_photos SET sort_order = CASE WHEN id = ${photoId} THEN 0 ELSE sort_order + 1 END
        WHERE restaurant_id = ${restaurantId} AND purpose = (SELECT purpose FROM restaurant_photos WHERE id = ${photoId} AND restaurant_id = ${restaurantId})
        RETURNING id`,
  );
  return rows.length > 0;
}

export async function findRestaurantName(db: Db, restaurantId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ name: string }>(db, sql`SELECT name FROM restaurants WHERE id = ${restaurantId}`);
  return row?.name;
}
