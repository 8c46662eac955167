/**
 * Query keys of the restaurants' public data (decision 092's companion rule: every key comes from
 * its feature's factory). Everything starts with ['restaurants'], so `restaurantKeys.all`
 * re-reads every restaurant, calendar, list and time after a booking moves covers.
 */
export const restaurantKeys = {
  all: ['restaurants'] as const,
  list: ['restaurants', 'list'] as const,
  one: (key: string) => ['restaurants', 'one', key] as const,
  calendar: (key: string) => ['restaurants', 'calendar', key] as const,
  availability: (key: string, date: string, partySize: number) => ['restaurants', 'availability', key, date, partySize] as const,
  today: (hood: string | null, limit: number | null) => ['restaurants', 'available-today', hood, limit] as const,
};
