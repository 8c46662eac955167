import { describe, expect, it } from 'vitest';
import { createKeptAnswers } from './kept-answers.ts';

describe('kept answers (decision 200)', () => {
  it('keeps at most maxEntries, the least recently used going first', () => {
    const kept = createKeptAnswers<string>({ maxEntries: 3, maxSize: 1_000 });
    for (const key of ['a', 'b', 'c']) kept.set(key, key.toUpperCase(), 1);
    expect(kept.get('a')).toBe('A'); // a is now the most recently used: b goes first
    kept.set('d', 'D', 1);
    expect([kept.get('a'), kept.get('b'), kept.get('c'), kept.get('d')]).toEqual(['A', undefined, 'C', 'D']);
    expect(kept.entries()).toBe(3);
    for (let n = 0; n < 10_000; n++) kept.set(`junk-${n}`, 'x', 1);
    expect(kept.entries()).toBe(3);
    expect(kept.size()).toBe(3);
  });

  it('keeps at most maxSize in all, counting what an answer grows by later, and never keeps one larger than the bound', () => {
    const kept = createKeptAnswers<string>({ maxEntries: 100, maxSize: 10 });
    kept.set('a', 'A', 4);
    kept.set('b', 'B', 4);
    expect(kept.size()).toBe(8);
    kept.grow('b', 3); // b's compressed form: 11 > 10, so a (least recently used) goes
    expect([kept.get('a'), kept.get('b')]).toEqual([undefined, 'B']);
    expect(kept.size()).toBe(7);
    kept.set('huge', 'H', 11);
    expect(kept.get('huge')).toBeUndefined();
    expect(kept.get('b')).toBe('B');
    kept.set('b', 'B2', 2); // replacing counts the new size only
    expect(kept.size()).toBe(2);
    kept.delete('b');
    expect([kept.entries(), kept.size()]).toEqual([0, 0]);
  });
});
