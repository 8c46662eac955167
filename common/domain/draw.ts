/**
 * The drop draw: a uniformly random order of a drop's entries, fully determined by a
 * 32-byte seed, so anyone holding the seed and the entry ids can recompute it.
 *
 * Algorithm (decision 081), written out so it can be re-implemented in any language:
 * 1. Sort the entry ids ascending (plain code-unit order). The order entries arrived in,
 *    or were listed in, therefore cannot matter.
 * 2. A stream of 32-bit words: block k (k = 0, 1, 2 …) is
 *    HMAC-SHA256(key = seed bytes, message = "tablefair-draw-v1:" + k in decimal);
 *    each block gives eight big-endian uint32 words, used in order.
 * 3. uniform(n) for n >= 1: limit = 2^32 - (2^32 mod n); take words until one is < limit
 *    (rejection, so there is no modulo bias); answer word mod n.
 * 4. Fisher-Yates: for i = n-1 down to 1, j = uniform(i + 1), swap items i and j.
 * The result's first id is position 1.
 *
 * Pure: no Node or DOM APIs (SHA-256 is implemented below), so the web can audit too.
 */

export const DRAW_ALGORITHM =
  'Sort entry ids ascending; Fisher-Yates from the last index down, j = uniform(i+1), where uniform draws big-endian uint32 words from ' +
  'HMAC-SHA256(seed, "tablefair-draw-v1:" + k) for k = 0, 1, … (eight words per block) and rejects words >= 2^32 - (2^32 mod n) before taking word mod n.';

export const DRAW_SEED_BYTES = 32;

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 (FIPS 180-4) of some bytes. */
export function sha256(message: Uint8Array): Uint8Array {
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const bitLength = message.length * 8;
  const paddedLength = Math.ceil((message.length + 9) / 64) * 64;
  const padded = new Uint8Array(paddedLength);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(paddedLength - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(paddedLength - 4, bitLength >>> 0);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < paddedLength; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15];
      const b = w[i - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + w[i]) >>> 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]);
  return out;
}

/** HMAC-SHA256 (RFC 2104). */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i] ^ 0x36;
    outer[i] = block[i] ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

/** Bytes of a hex string (the stored form of a seed); throws on anything else. */
export function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new Error('Not a hex string');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const encoder = new TextEncoder();

/** The deterministic word stream of step 2, with uniform(n) of step 3. */
export function createDrawRandom(seed: Uint8Array): { nextWord(): number; uniform(n: number): number } {
  let counter = 0;
  let block: DataView | undefined;
  let index = 8;
  const nextWord = (): number => {
    if (index === 8) {
      const bytes = hmacSha256(seed, encoder.encode(`tablefair-draw-v1:${counter++}`));
      block = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      index = 0;
    }
    return block!.getUint32(4 * index++);
  };
  const uniform = (n: number): number => {
    if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new Error('uniform(n) needs a whole n between 1 and 2^32');
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const word = nextWord();
      if (word < limit) return word % n;
    }
  };
  return { nextWord, uniform };
}

/**
 * The draw: `entryIds` in the order of the drop's line (index 0 = position 1), determined
 * by `seed` (32 bytes, or their hex) alone. Ids must be distinct.
 */
export function drawOrder(seed: Uint8Array | string, entryIds: readonly string[]): string[] {
  const seedBytes = typeof seed === 'string' ? hexToBytes(seed) : seed;
  if (seedBytes.length !== DRAW_SEED_BYTES) throw new Error(`A draw seed is ${DRAW_SEED_BYTES} bytes`);
  const order = [...entryIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 1; i < order.length; i++) if (order[i] === order[i - 1]) throw new Error('Entry ids must be distinct');
  const random = createDrawRandom(seedBytes);
  for (let i = order.length - 1; i >= 1; i--) {
    const j = random.uniform(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
