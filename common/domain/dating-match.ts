import { dateBudgets, type DateBudget } from './dating-profile.ts';

/**
 * Curated matches (decision 140): the preferences' vocabulary and the score. The
 * server computes the same score in SQL (dating-matches.repository.ts); a db test holds the two
 * equal, and this pure version is what the unit tests and the documentation describe.
 */

export const datingDays = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type DatingDay = (typeof datingDays)[number];

/** The two evening windows a member can be free in; a date plan starts inside one (Kolkata times, `from` ≤ start < `until`). */
export const eveningWindows = [
  { value: 'EARLY', label: '6–8 pm', from: '18:00', until: '20:00' },
  { value: 'LATE', label: '8–10:30 pm', from: '20:00', until: '22:31' },
] as const;
export type EveningWindow = (typeof eveningWindows)[number]['value'];

/** A free evening: a day and a window, e.g. FRI_LATE. */
export const freeEvenings = datingDays.flatMap((day) => eveningWindows.map((window) => `${day}_${window.value}` as const));
export type FreeEvening = (typeof freeEvenings)[number];

export const intentChoices = [
  { value: 'LIFE_PARTNER', label: 'A life partner' },
  { value: 'LONG_TERM', label: 'Something long-term' },
  { value: 'OPEN_TO_SEE', label: 'Open to see where it goes' },
] as const;
export const datingIntents = intentChoices.map((choice) => choice.value) as unknown as readonly [
  (typeof intentChoices)[number]['value'],
  ...(typeof intentChoices)[number]['value'][],
];
export type DatingIntent = (typeof intentChoices)[number]['value'];

export const DEFAULT_WANT_AGE_MIN = 18;
export const DEFAULT_WANT_AGE_MAX = 99;

/** Road distances in km between the dating neighbourhoods' centres (rounded; symmetric). */
const KM: Record<string, number> = {
  'Indiranagar|Koramangala': 6,
  'Indiranagar|HSR': 10,
  'Indiranagar|Whitefield': 14,
  'Indiranagar|Central BLR': 6,
  'Indiranagar|Kalyan Nagar': 9,
  'Koramangala|HSR': 5,
  'Koramangala|Whitefield': 18,
  'Koramangala|Central BLR': 7,
  'Koramangala|Kalyan Nagar': 15,
  'HSR|Whitefield': 19,
  'HSR|Central BLR': 11,
  'HSR|Kalyan Nagar': 18,
  'Whitefield|Central BLR': 19,
  'Whitefield|Kalyan Nagar': 14,
  'Central BLR|Kalyan Nagar': 9,
};

/** Km between two neighbourhoods' centres; 0 for the same one; 25 when either is unknown. */
export function neighbourhoodKm(from: string | undefined, to: string | undefined): number {
  if (!from || !to) return 25;
  if (from === to) return 0;
  return KM[`${from}|${to}`] ?? KM[`${to}|${from}`] ?? 25;
}

/** The weights of the score (decision 140). */
export const MATCH_WEIGHTS = {
  /** Per shared free evening, at most 4 counted: a plan needs one, more make it easy. */
  sharedEvening: 3,
  maxSharedEvenings: 4,
  /** Per shared cuisine, at most 3 counted. */
  sharedCuisine: 2,
  maxSharedCuisines: 3,
  /** Per shared first-date type, at most 2 counted. */
  sharedDateType: 2,
  maxSharedDateTypes: 2,
  /** Budgets: the same band, or the next one. */
  sameBudget: 4,
  nextBudget: 2,
  /** Homes: 6 points in the same neighbourhood, one fewer for every 3 km between them. */
  sameNeighbourhood: 6,
  kmPerPointLost: 3,
  /** The same intent. */
  sameIntent: 3,
} as const;

export interface MatchProfile {
  freeEvenings: readonly string[];
  cuisines: readonly string[];
  firstDateTypes: readonly string[];
  dateBudget: DateBudget;
  /** The first one is home. */
  neighbourhoods: readonly string[];
  intent: string;
}

function sharedCount(a: readonly string[], b: readonly string[]): number {
  const other = new Set(b);
  return new Set(a.filter((value) => other.has(value))).size;
}

/** The documented score of a pair (higher is better); symmetric. */
export function matchScore(a: MatchProfile, b: MatchProfile): number {
  const w = MATCH_WEIGHTS;
  const budgetGap = Math.abs(dateBudgets.indexOf(a.dateBudget) - dateBudgets.indexOf(b.dateBudget));
  const km = neighbourhoodKm(a.neighbourhoods[0], b.neighbourhoods[0]);
  return (
    w.sharedEvening * Math.min(sharedCount(a.freeEvenings, b.freeEvenings), w.maxSharedEvenings) +
    w.sharedCuisine * Math.min(sharedCount(a.cuisines, b.cuisines), w.maxSharedCuisines) +
    w.sharedDateType * Math.min(sharedCount(a.firstDateTypes, b.firstDateTypes), w.maxSharedDateTypes) +
    (budgetGap === 0 ? w.sameBudget : budgetGap === 1 ? w.nextBudget : 0) +
    Math.max(0, w.sameNeighbourhood - Math.floor(km / w.kmPerPointLost)) +
    (a.intent === b.intent ? w.sameIntent : 0)
  );
}

/**
 * The hard filters of one side, as a pure rule: `wants` takes `other` only if other is 18 or
 * older and inside wants' age range, and they share at least one free evening (a plan needs
 * one). Blocks and earlier suggestions are in the database; the SQL applies all of them.
 */
export function passesHardFilters(
  wants: { wantAgeMin: number; wantAgeMax: number; freeEvenings: readonly string[] },
  other: { age: number; freeEvenings: readonly string[] },
): boolean {
  return other.age >= 18 && other.age >= wants.wantAgeMin && other.age <= wants.wantAgeMax && sharedCount(wants.freeEvenings, other.freeEvenings) > 0;
}
