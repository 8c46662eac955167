import { sql } from 'drizzle-orm';
import type { RestaurantRef } from '#common/contract/restaurants.ts';

/**
 * The restaurant's columns for a row of another concept that names it (a booking, a drop, a
 * waitlist entry). Expects the restaurant joined as `rest`; read back with `toRestaurantRef`.
 */
export const restaurantRefColumns = sql`rest.id AS restaurant_id, rest.slug AS restaurant_slug, rest.name AS restaurant_name,
  rest.emoji AS restaurant_emoji, rest.neighborhood AS restaurant_neighborhood`;

/** What `restaurantRefColumns` yields. */
export interface RestaurantRefRow {
  restaurant_id: string;
  restaurant_slug: string;
  restaurant_name: string;
  restaurant_emoji: string;
  restaurant_neighborhood: string;
}

export function toRestaurantRef(row: RestaurantRefRow): RestaurantRef {
  return {
    id: row.restaurant_id,
    slug: row.restaurant_slug,
    name: row.restaurant_name,
    emoji: row.restaurant_emoji,
    neighborhood: row.restaurant_neighborhood,
  };
}
