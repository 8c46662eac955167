/**
 * The dating section's vocabulary, declared once as data (house rule 4, docs/architecture.md): the
 * enumerations of the spec with their display labels, the neighbourhoods it names, and
 * the pure rules both the form and the server apply (phone normalisation, age).
 */

export interface Choice<T extends string> {
  value: T;
  label: string;
  /** A small pictogram for chips; decorative only. */
  emoji?: string;
}

function values<T extends string>(choices: readonly Choice<T>[]): [T, ...T[]] {
  return choices.map((choice) => choice.value) as [T, ...T[]];
}

export const cuisineChoices = [
  { value: 'NORTH_INDIAN', label: 'North Indian', emoji: '🫓' },
  { value: 'SOUTH_INDIAN', label: 'South Indian', emoji: '🥥' },
  { value: 'ITALIAN', label: 'Italian', emoji: '🍝' },
  { value: 'JAPANESE', label: 'Japanese', emoji: '🍣' },
  { value: 'THAI', label: 'Thai', emoji: '🌶️' },
  { value: 'MEXICAN', label: 'Mexican', emoji: '🌮' },
  { value: 'MIDDLE_EASTERN', label: 'Middle Eastern', emoji: '🧆' },
  { value: 'VEGETARIAN_ONLY', label: 'Vegetarian only', emoji: '🥗' },
  { value: 'VEGAN', label: 'Vegan', emoji: '🌱' },
  { value: 'JAIN', label: 'Jain', emoji: '🍚' },
] as const satisfies readonly Choice<string>[];
export const cuisines = values(cuisineChoices);
export type Cuisine = (typeof cuisines)[number];

export const firstDateChoices = [
  { value: 'COFFEE', label: 'Coffee', emoji: '☕' },
  { value: 'QUICK_COCKTAIL', label: 'Quick cocktail', emoji: '🍸' },
  { value: 'BREAKFAST', label: 'Breakfast', emoji: '🥞' },
  { value: 'LUNCH', label: 'Lunch', emoji: '🥗' },
  { value: 'DINNER', label: 'Dinner', emoji: '🍽️' },
  { value: 'GO_KARTING', label: 'Go-karting', emoji: '🏎️' },
  { value: 'PAINT_DATE', label: 'Paint date', emoji: '🎨' },
  { value: 'BOWLING', label: 'Bowling', emoji: '🎳' },
  { value: 'MUSEUM_WALK', label: 'Museum walk', emoji: '🏛️' },
  { value: 'LIVE_MUSIC', label: 'Live music', emoji: '🎷' },
  { value: 'ICECREAM_WALK', label: 'Ice-cream walk', emoji: '🍦' },
] as const satisfies readonly Choice<string>[];
export const firstDateTypes = values(firstDateChoices);
export type FirstDateType = (typeof firstDateTypes)[number];

/** The first-date types a restaurant table can host: what a date partner offers (decision 183). */
export const tableDateTypes = ['COFFEE', 'QUICK_COCKTAIL', 'BREAKFAST', 'LUNCH', 'DINNER', 'LIVE_MUSIC'] as const satisfies readonly FirstDateType[];
export type TableDateType = (typeof tableDateTypes)[number];

export const physicalActivityChoices = [
  { value: 'RARELY', label: 'Rarely' },
  { value: 'SOMETIMES', label: 'Sometimes' },
  { value: 'REGULAR', label: 'Regularly' },
  { value: 'ATHLETE', label: 'Athlete' },
] as const satisfies readonly Choice<string>[];
export const physicalActivities = values(physicalActivityChoices);
export type PhysicalActivity = (typeof physicalActivities)[number];
export const DEFAULT_PHYSICAL_ACTIVITY: PhysicalActivity = 'SOMETIMES';

export const dietChoices = [
  { value: 'VEG', label: 'Vegetarian' },
  { value: 'EGG', label: 'Eggetarian' },
  { value: 'NON_VEG', label: 'Non-vegetarian' },
  { value: 'VEGAN', label: 'Vegan' },
  { value: 'JAIN', label: 'Jain' },
] as const satisfies readonly Choice<string>[];
export const diets = values(dietChoices);
export type Diet = (typeof diets)[number];

export const drinkingChoices = [
  { value: 'NEVER', label: 'Never' },
  { value: 'SOCIALLY', label: 'Socially' },
  { value: 'OFTEN', label: 'Often' },
] as const satisfies readonly Choice<string>[];
export const drinkingHabits = values(drinkingChoices);
export type Drinking = (typeof drinkingHabits)[number];

export const smokingChoices = [
  { value: 'NO', label: 'No' },
  { value: 'SOCIALLY', label: 'Socially' },
  { value: 'YES', label: 'Yes' },
] as const satisfies readonly Choice<string>[];
export const smokingHabits = values(smokingChoices);
export type Smoking = (typeof smokingHabits)[number];

/** The spec lists the budgets by their labels; the API carries these codes (decision 051). */
export const dateBudgetChoices = [
  { value: 'INR_500_1000', label: '₹500–1,000' },
  { value: 'INR_1000_2500', label: '₹1,000–2,500' },
  { value: 'INR_2500_5000', label: '₹2,500–5,000' },
  { value: 'INR_5000_PLUS', label: '₹5,000+' },
] as const satisfies readonly Choice<string>[];
export const dateBudgets = values(dateBudgetChoices);
export type DateBudget = (typeof dateBudgets)[number];

/** The neighbourhoods the dating section is built around (spec section 1). */
export const datingNeighbourhoods = ['Indiranagar', 'Koramangala', 'HSR', 'Whitefield', 'Central BLR', 'Kalyan Nagar'] as const;

/** The display label of an enumeration value (the value itself when unknown). */
export function labelOf(choices: readonly Choice<string>[], value: string | null | undefined): string {
  if (!value) return '';
  return choices.find((choice) => choice.value === value)?.label ?? value;
}

/** Exactly this many photos, with sortOrder 0, 1 and 2. */
export const DATING_PHOTO_COUNT = 3;
/** Largest photo accepted, checked on the bytes the server receives. */
export const DATING_PHOTO_MAX_BYTES = 8 * 1024 * 1024;
export const DATING_FREE_TEXT_MAX = 200;
export const DATING_MIN_AGE = 18;
export const DEFAULT_DATING_TIME_ZONE = 'Asia/Kolkata';

/** The spec's phone rule: an optional plus, then 10 to 15 digits. */
export const DATING_PHONE_PATTERN = /^\+?\d{10,15}$/;

/**
 * One phone, one spelling: what the uniqueness check and login compare. Spaces and dashes
 * typed for readability are dropped; a 10-digit number (or 0 + 10 digits) is Indian and gets
 * +91; anything else with a country code gets its plus (decision 052).
 */
export function normalizeDatingPhone(phone: string): string {
  const compact = phone.trim().replace(/[\s-]/g, '');
  if (/^\d{10}$/.test(compact)) return `+91${compact}`;
  if (/^0\d{10}$/.test(compact)) return `+91${compact.slice(1)}`;
  if (compact.startsWith('+')) return compact;
  return `+${compact}`;
}

/** Whole years from a YYYY-MM-DD birth date to a YYYY-MM-DD day (a 29 Feb birthday counts on 1 Mar in other years). */
export function ageOn(dob: string, today: string): number {
  const [by, bm, bd] = dob.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  let age = ty - by;
  if (tm < bm || (tm === bm && td < bd)) age -= 1;
  return age;
}

export const UNDER_AGE_MESSAGE = 'You must be 18 or older';

/** The age rule both sides apply, with "today" in Kolkata: the message, or null when it holds. */
export function checkDatingAge(dob: string, today: string): string | null {
  return ageOn(dob, today) >= DATING_MIN_AGE ? null : UNDER_AGE_MESSAGE;
}

/** The latest date of birth that is 18 today (for the date picker's max). */
export function latestAdultDob(today: string): string {
  const [y, m, d] = today.split('-').map(Number);
  const year = String(y - DATING_MIN_AGE).padStart(4, '0');
  // 29 Feb in a non-leap target year: 28 Feb is the last day that is already 18.
  const lastDay = new Date(Date.UTC(y - DATING_MIN_AGE, m, 0)).getUTCDate();
  return `${year}-${String(m).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}
