import type { FloorTable } from './floor.ts';

/** An indoor table for the floor's tests, named by its id. */
export const table = (id: string, minCovers: number, maxCovers: number, onlineBookable = true): FloorTable => ({
  id,
  name: id,
  section: 'indoor',
  minCovers,
  maxCovers,
  onlineBookable,
});
