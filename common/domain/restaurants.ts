/** Restaurant vocabulary shared by the server, the seed and the web app. */

/** Categories with their emoji (the spec's list); anything else gets the fork and knife. */
export const categoryEmoji: Record<string, string> = {
  cocktails: '🍸',
  dinner: '🍽️',
  lunch: '🥗',
  breakfast: '🥞',
  coffee: '☕',
  dessert: '🍰',
  pizza: '🍕',
  asian: '🍜',
  italian: '🍝',
  mexican: '🌮',
  indian: '🍛',
  bar: '🍺',
  wine: '🍷',
};
export const DEFAULT_CATEGORY_EMOJI = '🍴';
export const restaurantCategories = Object.keys(categoryEmoji);

export function emojiForCategory(category: string | null | undefined): string {
  return (category && categoryEmoji[category.toLowerCase()]) || DEFAULT_CATEGORY_EMOJI;
}

/** 'cocktails' → 'Cocktails'. */
export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The diner signup's preferred neighbourhoods, exactly as the spec lists them. */
export const preferredHoods = ['Indiranagar', 'Koramangala', 'CBD', 'Whitefield', 'Malleswaram', 'Jayanagar', 'HSR Layout', 'BTM Layout'] as const;

/** How many restaurants the home page's 'Today Near You' strip shows; "See all" leads to every one (decisions 077, 079). */
export const HOME_STRIP_CARDS = 12;

/** The party sizes the restaurant page offers (the spec probes these). */
export const probedPartySizes = [2, 4, 6, 8] as const;
export const MAX_PARTY_SIZE = 20;

/** How far ahead diners can book. */
export const AVAILABILITY_HORIZON_DAYS = 30;
export const DEFAULT_NEIGHBORHOOD = 'Bengaluru';
export const CITY_CODE = 'BLR';
