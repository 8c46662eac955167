import { describe, expect, it } from 'vitest';
import { createAvailabilityTexts } from './availability-texts.ts';

const text = (length: number, mark = 'x') => mark.repeat(length);

describe('the finished availability texts (decision 186)', () => {
  it('answers only for the span a text was built in, and a new span drops the restaurant’s texts', () => {
    const texts = createAvailabilityTexts(1_000);
    texts.keep('r1', 1, '2026-11-23', 2, text(10));
    texts.keep('r1', 1, '2026-11-24', 4, text(20));
    expect(texts.get('r1', 1, '2026-11-23', 2)).toBe(text(10));
    expect(texts.get('r1', 1, '2026-11-23', 4)).toBeUndefined();
    expect(texts.get('r1', 2, '2026-11-23', 2)).toBeUndefined();
    expect(texts.held()).toEqual({ restaurants: 1, characters: 30 });
    texts.keep('r1', 2, '2026-11-23', 2, text(5));
    expect(texts.get('r1', 2, '2026-11-24', 4)).toBeUndefined();
    expect(texts.held()).toEqual({ restaurants: 1, characters: 5 });
  });

  it('drops a restaurant’s texts when a write is announced for it, and no other’s', () => {
    const texts = createAvailabilityTexts(1_000);
    texts.keep('r1', 1, '2026-11-23', 2, text(10));
    texts.keep('r2', 2, '2026-11-23', 2, text(10));
    texts.forgetRestaurant('r1');
    expect(texts.get('r1', 1, '2026-11-23', 2)).toBeUndefined();
    expect(texts.get('r2', 2, '2026-11-23', 2)).toBe(text(10));
    expect(texts.held()).toEqual({ restaurants: 1, characters: 10 });
  });

  it('counts a text shared by party sizes once', () => {
    const texts = createAvailabilityTexts(1_000);
    for (const partySize of [1, 2, 3, 4]) texts.keep('r1', 1, '2026-11-23', partySize, text(100));
    texts.keep('r1', 1, '2026-11-23', 8, text(100, 'y'));
    expect(texts.held()).toEqual({ restaurants: 1, characters: 200 });
    expect(texts.get('r1', 1, '2026-11-23', 3)).toBe(text(100));
  });

  it('never holds more than its bound: the restaurants started longest ago go first', () => {
    const texts = createAvailabilityTexts(1_000);
    for (let index = 0; index < 50; index++) {
      texts.keep(`r${index}`, index, '2026-11-23', 2, text(300, String.fromCharCode(65 + (index % 26))));
      expect(texts.held().characters).toBeLessThanOrEqual(1_000);
    }
    expect(texts.held()).toEqual({ restaurants: 3, characters: 900 });
    expect(texts.get('r46', 46, '2026-11-23', 2)).toBeUndefined();
    expect(texts.get('r49', 49, '2026-11-23', 2)).toBe(text(300, String.fromCharCode(65 + (49 % 26))));
    // One restaurant over the bound on its own keeps only its latest text; a text over the bound is not kept.
    for (let date = 1; date <= 5; date++) texts.keep('big', 100, `2026-12-0${date}`, 2, text(400, String(date)));
    expect(texts.held().characters).toBeLessThanOrEqual(1_000);
    expect(texts.get('big', 100, '2026-12-05', 2)).toBe(text(400, '5'));
    texts.keep('huge', 101, '2026-12-01', 2, text(1_001));
    expect(texts.get('huge', 101, '2026-12-01', 2)).toBeUndefined();
    expect(texts.held().characters).toBeLessThanOrEqual(1_000);
  });
});
