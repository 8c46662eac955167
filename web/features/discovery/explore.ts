import type { AvailableTodayEntry } from '#common/contract/restaurants.ts';
import { probedPartySizes } from '#common/domain/restaurants.ts';

/** Explore Tonight's filters; '' means any. */
export interface ExploreFilters {
  neighborhood: string;
  cuisine: string;
  partySize: number;
}

export const PARTY_SIZE_CHOICES = probedPartySizes;
export const DEFAULT_PARTY_SIZE = PARTY_SIZE_CHOICES[0];

/** Reads the filters from the address (?hood=&cuisine=&party=), ignoring anything not offered. */
export function readExploreFilters(params: URLSearchParams): ExploreFilters {
  const party = Number(params.get('party'));
  return {
    neighborhood: params.get('hood')?.trim() ?? '',
    cuisine: params.get('cuisine')?.trim() ?? '',
    partySize: (PARTY_SIZE_CHOICES as readonly number[]).includes(party) ? party : DEFAULT_PARTY_SIZE,
  };
}

export function writeExploreFilters(filters: ExploreFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.neighborhood) params.set('hood', filters.neighborhood);
  if (filters.cuisine) params.set('cuisine', filters.cuisine);
  if (filters.partySize !== DEFAULT_PARTY_SIZE) params.set('party', String(filters.partySize));
  return params;
}

export interface FacetOption {
  value: string;
  count: number;
}

const sameText = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' }) === 0;

function facet(values: string[][]): FacetOption[] {
  const counts = new Map<string, { value: string; count: number }>();
  for (const list of values) {
    const seen = new Set<string>();
    for (const raw of list) {
      const value = raw.trim();
      const key = value.toLowerCase();
      if (!value || seen.has(key)) continue;
      seen.add(key);
      const existing = counts.get(key);
      if (existing) existing.count += 1;
      else counts.set(key, { value, count: 1 });
    }
  }
  return [...counts.values()].sort((a, b) => a.value.localeCompare(b.value, 'en'));
}

/** Neighbourhoods present tonight, empty values dropped, each with its number of restaurants. */
export function neighborhoodOptions(entries: readonly AvailableTodayEntry[]): FacetOption[] {
  return facet(entries.map((entry) => [entry.restaurant.neighborhood ?? '']));
}

/** Cuisines present tonight (from the cuisine tags), each with its number of restaurants. */
export function cuisineOptions(entries: readonly AvailableTodayEntry[]): FacetOption[] {
  return facet(entries.map((entry) => entry.restaurant.cuisineTags ?? []));
}

/**
 * The restaurants matching the filters, each keeping only the times that still seat the
 * party; a restaurant with no such time drops out.
 */
export function applyExploreFilters(entries: readonly AvailableTodayEntry[], filters: ExploreFilters): AvailableTodayEntry[] {
  const result: AvailableTodayEntry[] = [];
  for (const entry of entries) {
    const { restaurant } = entry;
    if (filters.neighborhood && !sameText(restaurant.neighborhood.trim(), filters.neighborhood)) continue;
    if (filters.cuisine && !restaurant.cuisineTags.some((tag) => sameText(tag.trim(), filters.cuisine))) continue;
    const slots = entry.slots.filter((slot) => slot.freeCovers >= filters.partySize);
    if (slots.length > 0) result.push({ restaurant, slots });
  }
  return result;
}

/** The restaurant page, opened at that date, time and party size. */
export function reserveHref(slug: string, slot: { date: string; time: string }, partySize: number): string {
  const params = new URLSearchParams({ date: slot.date, time: slot.time, party: String(partySize) });
  return `/r/${encodeURIComponent(slug)}?${params.toString()}`;
}
