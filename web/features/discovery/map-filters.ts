import type { PublicRestaurant } from '#common/contract/restaurants.ts';
import { capitalise, emojiForCategory } from '#common/domain/restaurants.ts';
import { isInCostBand, type CostBand } from '#common/domain/restaurant-profile.ts';

/** A restaurant the map can place: it has a real position and the text a marker needs. */
export type MapRestaurant = Pick<PublicRestaurant, 'id' | 'slug' | 'name' | 'emoji' | 'neighborhood' | 'hot' | 'diet' | 'costForTwo'> & {
  /** Lower-case category, or '' when the data has none. */
  category: string;
  lat: number;
  lng: number;
};

/** The spec's map constants (section 9). */
export const MAP_CENTRE: [number, number] = [12.97, 77.59];
export const MAP_ZOOM = 13;
export const MAP_MAX_ZOOM = 20;
export const FIT_BOUNDS_PADDING = 20;
export const FIT_BOUNDS_DELAY_MS = 100;
export const MARKER_SIZE = 40;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const isLatitude = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 90;
const isLongitude = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 180;

/**
 * The restaurants the map shows: those with a slug, a name and a position. Anything
 * else is ignored (spec section 5: the map ignores restaurants without data).
 */
export function toMapRestaurants(list: readonly PublicRestaurant[]): MapRestaurant[] {
  const result: MapRestaurant[] = [];
  for (const restaurant of list) {
    const position = restaurant?.position;
    const slug = text(restaurant?.slug);
    const name = text(restaurant?.name);
    if (!position || !isLatitude(position.lat) || !isLongitude(position.lng) || !slug || !name) continue;
    const category = text(restaurant.category).toLowerCase();
    result.push({
      id: restaurant.id,
      slug,
      name,
      emoji: text(restaurant.emoji) || emojiForCategory(category),
      neighborhood: text(restaurant.neighborhood),
      category,
      hot: restaurant.hot === true,
      diet: restaurant.diet ?? null,
      costForTwo: typeof restaurant.costForTwo === 'number' ? restaurant.costForTwo : null,
      lat: position.lat,
      lng: position.lng,
    });
  }
  return result;
}

export interface CategoryOption {
  value: string;
  label: string;
  emoji: string;
}

/** One filter per category present in the data, empty values dropped, in alphabetical order. */
export function categoryOptions(restaurants: readonly MapRestaurant[]): CategoryOption[] {
  const categories = [...new Set(restaurants.map((restaurant) => restaurant.category).filter(Boolean))].sort();
  return categories.map((category) => ({ value: category, label: capitalise(category), emoji: emojiForCategory(category) }));
}

/** 'all', 'hot' (Hot Spots) or a category. */
export type MapFilter = { kind: 'all' } | { kind: 'hot' } | { kind: 'category'; category: string };

export function applyMapFilter(restaurants: readonly MapRestaurant[], filter: MapFilter): MapRestaurant[] {
  switch (filter.kind) {
    case 'all':
      return [...restaurants];
    case 'hot':
      return restaurants.filter((restaurant) => restaurant.hot);
    case 'category':
      return restaurants.filter((restaurant) => restaurant.category === filter.category);
  }
}

export function isSameFilter(a: MapFilter, b: MapFilter): boolean {
  return a.kind === b.kind && (a.kind !== 'category' || a.category === (b as { category: string }).category);
}

/**
 * What a diner narrows the map and its list by, on top of the category (decision 233): pure veg
 * only, and a cost-for-two band. A restaurant that never said is left out once either is set.
 */
export interface MapRefinements {
  pureVeg: boolean;
  cost: CostBand | null;
}
export const NO_REFINEMENTS: MapRefinements = { pureVeg: false, cost: null };

export function applyMapRefinements<T extends Pick<MapRestaurant, 'diet' | 'costForTwo'>>(restaurants: readonly T[], refinements: MapRefinements): T[] {
  return restaurants.filter(
    (restaurant) =>
      (!refinements.pureVeg || restaurant.diet === 'pure-veg') && (refinements.cost === null || isInCostBand(restaurant.costForTwo, refinements.cost)),
  );
}
