import { describe, expect, it } from 'vitest';
import type { AvailableTodayEntry, PublicRestaurant } from '#common/contract/restaurants.ts';
import { applyExploreFilters, cuisineOptions, neighborhoodOptions, readExploreFilters, reserveHref, writeExploreFilters } from './explore.ts';
import { applyMapFilter, applyMapRefinements, categoryOptions, toMapRestaurants } from './map-filters.ts';

function restaurant(overrides: Partial<PublicRestaurant>): PublicRestaurant {
  return {
    id: overrides.slug ?? 'id',
    slug: 'slug',
    name: 'Name',
    emoji: '🍛',
    neighborhood: 'Indiranagar',
    hot: false,
    cuisineTags: [],
    category: 'indian',
    description: null,
    website: null,
    instagramUrl: null,
    heroImageUrl: '/x.svg',
    position: { lat: 12.97, lng: 77.6 },
    diet: null,
    costForTwo: null,
    ...overrides,
  };
}

describe('map data', () => {
  it('ignores restaurants without a position, a usable one, a slug or a name', () => {
    const list = [
      restaurant({ slug: 'a', name: 'A' }),
      restaurant({ slug: 'b', name: 'B', position: null }),
      restaurant({ slug: 'c', name: 'C', position: { lat: Number.NaN, lng: 77 } }),
      restaurant({ slug: 'd', name: 'D', position: { lat: 95, lng: 77 } }),
      restaurant({ slug: '', name: 'E' }),
      restaurant({ slug: 'f', name: '  ' }),
    ];
    expect(toMapRestaurants(list).map((r) => r.slug)).toEqual(['a']);
  });

  it('offers one filter per category present, lower-cased, empty values dropped, with emoji and capitalised name', () => {
    const map = toMapRestaurants([
      restaurant({ slug: 'a', category: 'pizza' }),
      restaurant({ slug: 'b', category: 'Cocktails ' }),
      restaurant({ slug: 'c', category: '' }),
      restaurant({ slug: 'd', category: 'pizza' }),
      restaurant({ slug: 'e', category: 'ramen' }),
      restaurant({ slug: 'f', category: 'bar', position: null }),
    ]);
    expect(categoryOptions(map)).toEqual([
      { value: 'cocktails', label: 'Cocktails', emoji: '🍸' },
      { value: 'pizza', label: 'Pizza', emoji: '🍕' },
      { value: 'ramen', label: 'Ramen', emoji: '🍴' },
    ]);
  });

  it('filters by category and by hot', () => {
    const map = toMapRestaurants([
      restaurant({ slug: 'a', category: 'pizza', hot: true }),
      restaurant({ slug: 'b', category: 'pizza' }),
      restaurant({ slug: 'c', category: 'bar', hot: true }),
    ]);
    expect(applyMapFilter(map, { kind: 'all' }).map((r) => r.slug)).toEqual(['a', 'b', 'c']);
    expect(applyMapFilter(map, { kind: 'hot' }).map((r) => r.slug)).toEqual(['a', 'c']);
    expect(applyMapFilter(map, { kind: 'category', category: 'pizza' }).map((r) => r.slug)).toEqual(['a', 'b']);
  });
});

function entry(slug: string, neighborhood: string, cuisineTags: string[], free: number[]): AvailableTodayEntry {
  return {
    restaurant: { id: slug, slug, name: slug, emoji: '🍛', neighborhood, category: 'indian', cuisineTags, hot: false },
    slots: free.map((freeCovers, index) => ({ slot_id: `${slug}-${index}`, date: '2026-11-23', time: `${19 + index}:00`, freeCovers })),
  };
}

describe('Explore Tonight filters', () => {
  const entries = [
    entry('a', 'Indiranagar', ['North Indian', 'Tandoor'], [2, 8]),
    entry('b', 'Koramangala', ['Japanese'], [4]),
    entry('c', ' indiranagar', ['north indian'], [3]),
    entry('d', '', ['  '], [6]),
  ];

  it('lists neighbourhoods and cuisines present, empty values dropped, with counts', () => {
    expect(neighborhoodOptions(entries)).toEqual([
      { value: 'Indiranagar', count: 2 },
      { value: 'Koramangala', count: 1 },
    ]);
    expect(cuisineOptions(entries)).toEqual([
      { value: 'Japanese', count: 1 },
      { value: 'North Indian', count: 2 },
      { value: 'Tandoor', count: 1 },
    ]);
  });

  it('keeps only times that seat the party, dropping restaurants left with none', () => {
    const pick = (filters: Parameters<typeof applyExploreFilters>[1]) =>
      applyExploreFilters(entries, filters).map((e) => `${e.restaurant.slug}:${e.slots.map((s) => s.freeCovers).join(',')}`);
    expect(pick({ neighborhood: '', cuisine: '', partySize: 2 })).toEqual(['a:2,8', 'b:4', 'c:3', 'd:6']);
    expect(pick({ neighborhood: '', cuisine: '', partySize: 4 })).toEqual(['a:8', 'b:4', 'd:6']);
    expect(pick({ neighborhood: 'Indiranagar', cuisine: '', partySize: 2 })).toEqual(['a:2,8', 'c:3']);
    expect(pick({ neighborhood: '', cuisine: 'North Indian', partySize: 4 })).toEqual(['a:8']);
    expect(pick({ neighborhood: 'Koramangala', cuisine: 'Tandoor', partySize: 2 })).toEqual([]);
  });

  it('reads and writes the filters in the address, ignoring party sizes not offered', () => {
    expect(readExploreFilters(new URLSearchParams('hood=HSR+Layout&cuisine=Thai&party=6'))).toEqual({
      neighborhood: 'HSR Layout',
      cuisine: 'Thai',
      partySize: 6,
    });
    expect(readExploreFilters(new URLSearchParams('party=5'))).toEqual({ neighborhood: '', cuisine: '', partySize: 2 });
    expect(writeExploreFilters({ neighborhood: 'CBD', cuisine: '', partySize: 2 }).toString()).toBe('hood=CBD');
  });

  it('links a time to the restaurant page at that date, time and party', () => {
    const href = reserveHref('toit-tandoor', { date: '2026-11-23', time: '19:30' }, 4);
    const url = new URL(href, 'http://x');
    expect(url.pathname).toBe('/r/toit-tandoor');
    expect(Object.fromEntries(url.searchParams)).toEqual({ date: '2026-11-23', time: '19:30', party: '4' });
  });
});

describe('pure veg and cost for two', () => {
  const list = toMapRestaurants([
    restaurant({ slug: 'veg-cheap', name: 'Veg cheap', diet: 'pure-veg', costForTwo: 400 }),
    restaurant({ slug: 'veg-dear', name: 'Veg dear', diet: 'pure-veg', costForTwo: 2400 }),
    restaurant({ slug: 'both', name: 'Both', diet: 'veg-and-non-veg', costForTwo: 1000 }),
    restaurant({ slug: 'unsaid', name: 'Unsaid' }),
  ]);
  const slugs = (pureVeg: boolean, cost: 'under-1000' | '1000-2000' | 'over-2000' | null) => applyMapRefinements(list, { pureVeg, cost }).map((r) => r.slug);

  it('keeps only pure veg restaurants, and a band keeps its inclusive bounds', () => {
    expect(slugs(false, null)).toEqual(['veg-cheap', 'veg-dear', 'both', 'unsaid']);
    expect(slugs(true, null)).toEqual(['veg-cheap', 'veg-dear']);
    expect(slugs(false, 'under-1000')).toEqual(['veg-cheap']);
    expect(slugs(false, '1000-2000')).toEqual(['both']);
    expect(slugs(true, 'over-2000')).toEqual(['veg-dear']);
    expect(slugs(true, '1000-2000')).toEqual([]);
  });
});
