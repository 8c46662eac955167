import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToHex, createDrawRandom, drawOrder, hexToBytes, hmacSha256, sha256 } from './draw.ts';

const encoder = new TextEncoder();
/** Deterministic seeds for the statistical tests, so they give the same answer every run. */
const seedNumber = (i: number) => createHash('sha256').update(`draw-test-seed-${i}`).digest();
const ids = (n: number) => Array.from({ length: n }, (_, i) => `entry-${String(i).padStart(4, '0')}`);

describe('sha256 and hmacSha256', () => {
  it('match node:crypto on the standard vectors and on random input of many lengths', () => {
    expect(bytesToHex(sha256(encoder.encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(bytesToHex(sha256(new Uint8Array()))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (let length = 0; length < 200; length += 7) {
      const data = randomBytes(length);
      const key = randomBytes(length % 3 === 0 ? 100 : 32);
      expect(bytesToHex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
      expect(bytesToHex(hmacSha256(key, data))).toBe(createHmac('sha256', key).update(data).digest('hex'));
    }
  });

  it('reads and writes hex, refusing what is not', () => {
    expect(bytesToHex(hexToBytes('00ff10Ab'))).toBe('00ff10ab');
    expect(() => hexToBytes('abc')).toThrow();
    expect(() => hexToBytes('zz')).toThrow();
  });
});

describe('drawOrder', () => {
  it('is determined by the seed alone: same seed, same order, whatever order the ids are given in', () => {
    const seed = randomBytes(32);
    const entries = ids(50);
    const first = drawOrder(seed, entries);
    expect(drawOrder(bytesToHex(seed), [...entries].reverse())).toEqual(first);
    expect(drawOrder(seed, [...entries].sort(() => Math.random() - 0.5))).toEqual(first);
    expect(drawOrder(randomBytes(32), entries)).not.toEqual(first);
  });

  it('matches an independent re-implementation of the documented algorithm (node:crypto HMAC)', () => {
    const seed = randomBytes(32);
    const entries = Array.from({ length: 300 }, () => randomBytes(16).toString('hex'));
    const order = [...entries].sort();
    let counter = 0;
    let words: number[] = [];
    const next = () => {
      if (words.length === 0) {
        const block = createHmac('sha256', seed).update(`tablefair-draw-v1:${counter++}`).digest();
        words = Array.from({ length: 8 }, (_, i) => block.readUInt32BE(i * 4));
      }
      return words.shift()!;
    };
    for (let i = order.length - 1; i >= 1; i--) {
      const n = i + 1;
      const limit = 2 ** 32 - (2 ** 32 % n);
      let word = next();
      while (word >= limit) word = next();
      const j = word % n;
      [order[i], order[j]] = [order[j], order[i]];
    }
    expect(drawOrder(seed, entries)).toEqual(order);
  });

  it('answers a permutation of the entries', () => {
    for (const n of [0, 1, 2, 3, 17, 1000]) {
      const entries = ids(n);
      const order = drawOrder(seedNumber(n), entries);
      expect(order).toHaveLength(n);
      expect([...order].sort()).toEqual([...entries].sort());
    }
  });

  it('refuses a seed of the wrong size and duplicate ids', () => {
    expect(() => drawOrder(new Uint8Array(16), ids(3))).toThrow(/32 bytes/);
    expect(() => drawOrder(seedNumber(1), ['a', 'b', 'a'])).toThrow(/distinct/);
  });

  it('gives every one of the 24 orders of 4 entries equally often (chi-square over 24,000 seeds)', () => {
    const counts = new Map<string, number>();
    const draws = 24_000;
    for (let i = 0; i < draws; i++) {
      const key = drawOrder(seedNumber(i), ['a', 'b', 'c', 'd']).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    const expected = draws / 24;
    const chiSquare = [...counts.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    // 23 degrees of freedom: P(chi-square > 49.73) = 0.001 for a uniform shuffle.
    expect(chiSquare).toBeLessThan(49.73);
  });

  it('puts each of 10 entries in each position equally often (chi-square per entry)', () => {
    const n = 10;
    const draws = 10_000;
    const entries = ids(n);
    const counts = entries.map(() => new Array<number>(n).fill(0));
    for (let i = 0; i < draws; i++) {
      drawOrder(seedNumber(100_000 + i), entries).forEach((id, position) => counts[entries.indexOf(id)][position]++);
    }
    const expected = draws / n;
    for (const row of counts) {
      const chiSquare = row.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
      // 9 degrees of freedom: P(chi-square > 27.88) = 0.001.
      expect(chiSquare).toBeLessThan(27.88);
    }
  });

  it('draws uniform integers without modulo bias, even for n just over 2^31', () => {
    const random = createDrawRandom(seedNumber(7));
    const n = 3;
    const counts = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) counts[random.uniform(n)]++;
    const chiSquare = counts.reduce((sum, count) => sum + (count - 10_000) ** 2 / 10_000, 0);
    expect(chiSquare).toBeLessThan(13.82); // 2 df, p = 0.001
    // With n = 2^31 + 1 almost half of all words are rejected; the answers still lie in range.
    const big = 2 ** 31 + 1;
    for (let i = 0; i < 100; i++) {
      const value = random.uniform(big);
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(big);
    }
    expect(random.uniform(1)).toBe(0);
  });
});
