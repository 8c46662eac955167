/**
 * What diners choose a restaurant by (decision 233): veg or not, cost for two, house rules, photos.
 * The enumerations as data, with the words the page and the portal show.
 */

export const dietTypes = ['pure-veg', 'veg-and-non-veg', 'non-veg'] as const;
export type DietType = (typeof dietTypes)[number];
export const dietLabels: Record<DietType, string> = {
  'pure-veg': 'Pure veg',
  'veg-and-non-veg': 'Veg & non-veg',
  'non-veg': 'Non-veg',
};
/** What each means, for the portal's picker and the page. */
export const dietExplanations: Record<DietType, string> = {
  'pure-veg': 'Only vegetarian food is cooked and served: no meat, fish or egg.',
  'veg-and-non-veg': 'Vegetarian and non-vegetarian dishes on one menu.',
  'non-veg': 'Mostly meat and seafood, with few vegetarian dishes.',
};

export const childrenPolicies = ['welcome', 'until-8pm', 'adults-only'] as const;
export type ChildrenPolicy = (typeof childrenPolicies)[number];
export const childrenLabels: Record<ChildrenPolicy, string> = {
  welcome: 'Children welcome',
  'until-8pm': 'Children welcome until 8 PM',
  'adults-only': 'Adults only (18+)',
};

export const smokingPolicies = ['no-smoking', 'smoking-area'] as const;
export type SmokingPolicy = (typeof smokingPolicies)[number];
export const smokingLabels: Record<SmokingPolicy, string> = {
  'no-smoking': 'No smoking',
  'smoking-area': 'Smoking area outside',
};

export const COST_FOR_TWO_MIN = 100;
export const COST_FOR_TWO_MAX = 50_000;

/** The list's and the map's "cost for two" choices, in rupees (inclusive bounds). */
export const costBands = [
  { id: 'under-1000', label: 'Under ₹1,000', min: 0, max: 999 },
  { id: '1000-2000', label: '₹1,000–2,000', min: 1000, max: 2000 },
  { id: 'over-2000', label: 'Over ₹2,000', min: 2001, max: Number.POSITIVE_INFINITY },
] as const;
export type CostBand = (typeof costBands)[number]['id'];
export const costBandIds = costBands.map((band) => band.id) as CostBand[];

/** True when a restaurant's cost for two falls in the band; a restaurant that never said is in none. */
export function isInCostBand(costForTwo: number | null, band: CostBand): boolean {
  if (costForTwo === null) return false;
  const { min, max } = costBands.find((candidate) => candidate.id === band)!;
  return costForTwo >= min && costForTwo <= max;
}

/** ₹1,200 for two, grouped the Indian way (₹1,00,000). */
export function formatCostForTwo(rupees: number): string {
  return `₹${rupees.toLocaleString('en-IN')} for two`;
}

/** Gallery photos (the room, the food) a restaurant may show, and menu pages. */
export const MAX_GALLERY_PHOTOS = 8;
export const MAX_MENU_PHOTOS = 4;
/**
 * The widths every photo is stored at, as WebP: a thumbnail (drawn 120–240 px wide, decision 229),
 * a phone's screen, twice that, a laptop's column. Each `<img>` names them in its srcset with the
 * size it is drawn at, so the browser fetches the smallest that is sharp on its screen.
 */
export const PHOTO_WIDTHS = [240, 480, 960, 1440] as const;
export type PhotoWidth = (typeof PHOTO_WIDTHS)[number];
/** Gallery photos are cut to this shape, so the page never jumps as they load. */
export const GALLERY_ASPECT = { width: 3, height: 2 } as const;
/** An upload may be at most this large before it is resized (bytes). */
export const PHOTO_UPLOAD_MAX_BYTES = 12 * 1024 * 1024;

/** How wide the page's cover photo is drawn: the column on a phone, 640 px on a laptop (the page and its preload both say it). */
export const COVER_SIZES = '(min-width: 960px) 640px, calc(100vw - 32px)';

/** Where a photo is served at one width. */
export function photoUrl(photoId: string, width: PhotoWidth): string {
  return `/api/restaurant-photos/${photoId}/${width}`;
}

/** A directions link: the restaurant's own, else a maps search for its position or address. */
export function directionsUrlFor(restaurant: {
  directionsUrl: string | null;
  address: string | null;
  name: string;
  position: { lat: number; lng: number } | null;
}): string | null {
  if (restaurant.directionsUrl) return restaurant.directionsUrl;
  if (restaurant.position) return `https://www.google.com/maps/dir/?api=1&destination=${restaurant.position.lat},${restaurant.position.lng}`;
  if (restaurant.address) return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${restaurant.name}, ${restaurant.address}`)}`;
  return null;
}
