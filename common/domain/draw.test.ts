import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToHex, createDrawRandom, drawOrder, hexToBytes, hmacSha256, sha256 } from './draw.ts';

const encoder = new TextEncoder();
/** Deterministic seeds for the statistical tests, so they give the same answer every run. */
const seedNumber = (i: number) => createHash('sha256').update(`draw-test-seed-${i}`).digest();
const ids = (n: number) => Array.from({ length: n }, (_, i) => `entry-${String(i).padStart(4, '0')}`);

describe('sha256 and hmacSha256', () => {
  it('match node:crypto on the standard vectors and on random input of many lengths', async () => {
    expect(bytesToHex(await sha256(encoder.encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(bytesToHex(await sha256(new Uint8Array()))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (let length = 0; length < 200; length += 7) {
      const data = randomBytes(length);
      const key = randomBytes(length % 3 === 0 ? 100 : 32);
      expect(bytesToHex(await sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
      expect(bytesToHex(await hmacSha256(key, data))).toBe(createHmac('sha256', key).update(data).digest('hex'));
    }
  });

  it('compute HMAC-SHA256 by WebCrypto exactly as node:crypto does (RFC 4231 case 2, and draw-block inputs)', async () => {
    // RFC 4231 test case 2.
    expect(bytesToHex(await hmacSha256(encoder.encode('Jefe'), encoder.encode('what do ya want for nothing?')))).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    const inputs: [Uint8Array, string][] = [
      [new Uint8Array(32), 'tablefair-draw-v1:0'],
      [hexToBytes('ff'.repeat(32)), 'tablefair-draw-v1:1'],
      [hexToBytes('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f'), 'tablefair-draw-v1:12345'],
      [new Uint8Array(1), ''],
      [new Uint8Array(131).fill(0xaa), 'a key longer than the block is hashed first'],
    ];
    for (const [key, message] of inputs) {
      expect(bytesToHex(await hmacSha256(key, encoder.encode(message)))).toBe(createHmac('sha256', key).update(message).digest('hex'));
    }
  });

  it('reads and writes hex, refusing what is not', () => {
    expect(bytesToHex(hexToBytes('00ff10Ab'))).toBe('00ff10ab');
    expect(() => hexToBytes('abc')).toThrow();
    expect(() => hexToBytes('zz')).toThrow();
  });
});

describe('drawOrder', () => {
  it('is determined by the seed alone: same seed, same order, whatever order the ids are given in', async () => {
    const seed = randomBytes(32);
    const entries = ids(50);
    const first = await drawOrder(seed, entries);
    expect(await drawOrder(bytesToHex(seed), [...entries].reverse())).toEqual(first);
    expect(
      await drawOrder(
        seed,
        [...entries].sort(() => Math.random() - 0.5),
      ),
    ).toEqual(first);
    expect(await drawOrder(randomBytes(32), entries)).not.toEqual(first);
  });

  it('matches an independent re-implementation of the documented algorithm (node:crypto HMAC)', async () => {
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
    expect(await drawOrder(seed, entries)).toEqual(order);
  });

  it('gives the known answers (computed with the earlier hand-written SHA-256, so published audits still verify)', async () => {
    const seed = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
    const entries = Array.from({ length: 12 }, (_, i) => `entry-${String(i).padStart(2, '0')}`);
    expect(await drawOrder(seed, entries)).toEqual([
      'entry-02',
      'entry-11',
      'entry-05',
      'entry-08',
      'entry-03',
      'entry-09',
      'entry-00',
      'entry-10',
      'entry-06',
      'entry-07',
      'entry-01',
      'entry-04',
    ]);
    const uuids = [
      '3f1c0a9e-0000-4000-8000-000000000001',
      'a2b4c6d8-0000-4000-8000-000000000002',
      '0d9e8f7a-0000-4000-8000-000000000003',
      '77777777-0000-4000-8000-000000000004',
      'c0ffee00-0000-4000-8000-000000000005',
    ];
    expect(await drawOrder('ff'.repeat(32), uuids)).toEqual([uuids[0], uuids[2], uuids[4], uuids[3], uuids[1]]);
  });

  it('answers a permutation of the entries', async () => {
    for (const n of [0, 1, 2, 3, 17, 1000]) {
      const entries = ids(n);
      const order = await drawOrder(seedNumber(n), entries);
      expect(order).toHaveLength(n);
      expect([...order].sort()).toEqual([...entries].sort());
    }
  });

  it('refuses a seed of the wrong size and duplicate ids', async () => {
    await expect(drawOrder(new Uint8Array(16), ids(3))).rejects.toThrow(/32 bytes/);
    await expect(drawOrder(seedNumber(1), ['a', 'b', 'a'])).rejects.toThrow(/distinct/);
  });

  it('gives every one of the 24 orders of 4 entries equally often (chi-square over 24,000 seeds)', async () => {
    const counts = new Map<string, number>();
    const draws = 24_000;
    for (let i = 0; i < draws; i++) {
      const key = (await drawOrder(seedNumber(i), ['a', 'b', 'c', 'd'])).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    const expected = draws / 24;
    const chiSquare = [...counts.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    // 23 degrees of freedom: P(chi-square > 49.73) = 0.001 for a uniform shuffle.
    expect(chiSquare).toBeLessThan(49.73);
    // WebCrypto is asynchronous: tens of thousands of draws take longer than the default 5 s.
  }, 60_000);

  it('puts each of 10 entries in each position equally often (chi-square per entry)', async () => {
    const n = 10;
    const draws = 10_000;
    const entries = ids(n);
    const counts = entries.map(() => new Array<number>(n).fill(0));
    for (let i = 0; i < draws; i++) {
      (await drawOrder(seedNumber(100_000 + i), entries)).forEach((id, position) => counts[entries.indexOf(id)][position]++);
    }
    const expected = draws / n;
    for (const row of counts) {
      const chiSquare = row.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
      // 9 degrees of freedom: P(chi-square > 27.88) = 0.001.
      expect(chiSquare).toBeLessThan(27.88);
    }
    // WebCrypto is asynchronous: tens of thousands of draws take longer than the default 5 s.
  }, 60_000);

  it('draws uniform integers without modulo bias, even for n just over 2^31', async () => {
    const random = createDrawRandom(seedNumber(7));
    const n = 3;
    const counts = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) counts[await random.uniform(n)]++;
    const chiSquare = counts.reduce((sum, count) => sum + (count - 10_000) ** 2 / 10_000, 0);
    expect(chiSquare).toBeLessThan(13.82); // 2 df, p = 0.001
    // With n = 2^31 + 1 almost half of all words are rejected; the answers still lie in range.
    const big = 2 ** 31 + 1;
    for (let i = 0; i < 100; i++) {
      const value = await random.uniform(big);
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(big);
    }
    expect(await random.uniform(1)).toBe(0);
  });
});
