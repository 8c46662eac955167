/** Query keys of the diner's reservations; all start with ['reservations']. */
export const reservationKeys = {
  all: ['reservations'] as const,
  mine: ['reservations', 'mine'] as const,
  /** The diner's deposits and receipts: under `all`, so a booking's change refreshes them too. */
  deposits: ['reservations', 'deposits'] as const,
  one: (id: string) => ['reservations', 'one', id] as const,
  /** What changing a booking to this date, time and party would cost or release. */
  changeTerms: (id: string, date: string, time: string, partySize: number) => ['reservations', 'change-terms', id, date, time, partySize] as const,
};
