import type { PublicRestaurant } from '#common/contract/restaurants.ts';
import { DEFAULT_NEIGHBORHOOD, emojiForCategory } from '#common/domain/restaurants.ts';
import type { AppDeps } from '#server/deps.ts';
import { notFound } from '#server/errors.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import { findRestaurant, listRestaurants, type RestaurantRow } from './restaurants.repository.ts';

/** The app's own hero image for a restaurant: the uploaded photo, or a generated one. */
export function heroImagePath(restaurantId: string): string {
  return `/api/restaurant/${restaurantId}/hero-image`;
}

export function toPublicRestaurant(row: RestaurantRow): PublicRestaurant {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    emoji: row.emoji || emojiForCategory(row.category),
    neighborhood: row.neighborhood || DEFAULT_NEIGHBORHOOD,
    hot: row.hot,
    cuisineTags: row.cuisineTags,
    category: row.category,
    description: row.description,
    website: row.website,
    instagramUrl: row.instagramUrl,
    heroImageUrl: row.heroImageUrl || heroImagePath(row.id),
    position: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null,
  };
}

/** Public restaurant reads: open to everyone. */
export function createRestaurantsService({ db }: AppDeps) {
  return {
    async listRestaurants(_principal: Principal): Promise<PublicRestaurant[]> {
      return (await listRestaurants(db)).map(toPublicRestaurant);
    },

    /** One restaurant by slug or id; 404 'Restaurant not found' otherwise. */
    async getRestaurant(_principal: Principal, slugOrId: string): Promise<PublicRestaurant> {
      const row = await findRestaurant(db, slugOrId);
      if (!row) throw notFound('Restaurant not found');
      return toPublicRestaurant(row);
    },
  };
}

export type RestaurantsService = ReturnType<typeof createRestaurantsService>;
