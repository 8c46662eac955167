import { describe, expect, it } from 'vitest';
import { tabAfterKey } from './use-tab-keys.ts';

describe('tabAfterKey (the back office tablists)', () => {
  it('moves right and left with wrapping, to the ends with Home and End, and ignores other keys', () => {
    expect(tabAfterKey('ArrowRight', 0, 4)).toBe(1);
    expect(tabAfterKey('ArrowRight', 3, 4)).toBe(0);
    expect(tabAfterKey('ArrowLeft', 0, 4)).toBe(3);
    expect(tabAfterKey('ArrowLeft', 2, 4)).toBe(1);
    expect(tabAfterKey('Home', 2, 4)).toBe(0);
    expect(tabAfterKey('End', 0, 4)).toBe(3);
    expect(tabAfterKey('Enter', 1, 4)).toBeNull();
    expect(tabAfterKey('ArrowDown', 1, 2)).toBeNull();
  });
});
