/**
 * The body of the bench's bare baselines: the shape and size of an availability answer (16 slots),
 * so a baseline and the app differ by what the app does, not by bytes.
 */
export const CONSTANT_BODY = Array.from({ length: 16 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  time: `${String(12 + Math.floor(i / 2) + (i >= 6 ? 3 : 0)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
  available: i % 3 !== 0,
}));
