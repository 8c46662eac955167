import { describe, expect, it } from 'vitest';
import { endSentence } from './sentences.ts';

describe('endSentence', () => {
  it('ends with one stop, also after a name that has its own', () => {
    expect(endSentence('Tonight at Coastal Curry Co.')).toBe('Tonight at Coastal Curry Co.');
    expect(endSentence('Tonight at Vino Veritas')).toBe('Tonight at Vino Veritas.');
  });
});
