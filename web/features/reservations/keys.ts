/** Query keys of the diner's reservations; all start with ['reservations']. */
export const reservationKeys = {
  all: ['reservations'] as const,
  mine: ['reservations', 'mine'] as const,
  one: (id: string) => ['reservations', 'one', id] as const,
};
