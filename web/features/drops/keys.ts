/** Query keys of the diner's drops; all start with ['drops']. */
export const dropKeys = {
  all: ['drops'] as const,
  list: ['drops', 'list'] as const,
  one: (id: string) => ['drops', 'one', id] as const,
  /** The detail as seen signed in (with the diner's entry) or not: two cache entries. */
  detail: (id: string, isSignedIn: boolean) => ['drops', 'one', id, isSignedIn] as const,
  draw: (id: string) => ['drops', 'draw', id] as const,
};
