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
 * HMAC-SHA256 comes from WebCrypto (`globalThis.crypto.subtle`), which Node 20 and every
 * browser provide, so the server draws and the web audits with the same code. WebCrypto is
 * asynchronous, so the draw is too.
 */

export const DRAW_ALGORITHM =
  'Sort entry ids ascending; Fisher-Yates from the last index down, j = uniform(i+1), where uniform draws big-endian uint32 words from ' +
  'HMAC-SHA256(seed, "tablefair-draw-v1:" + k) for k = 0, 1, … (eight words per block) and rejects words >= 2^32 - (2^32 mod n) before taking word mod n.';

export const DRAW_SEED_BYTES = 32;

const encoder = new TextEncoder();

/** An HMAC-SHA256 key for WebCrypto (imported once per seed, then used for every block). */
function importHmacKey(key: Uint8Array): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey('raw', key as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** SHA-256 (FIPS 180-4) of some bytes, by WebCrypto. */
export async function sha256(message: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', message as Uint8Array<ArrayBuffer>));
}

/** HMAC-SHA256 (RFC 2104), by WebCrypto. */
export async function hmacSha256(key: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', await importHmacKey(key), message as Uint8Array<ArrayBuffer>));
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

/** The deterministic word stream of step 2, with uniform(n) of step 3. */
export function createDrawRandom(seed: Uint8Array): { nextWord(): Promise<number>; uniform(n: number): Promise<number> } {
  const key = importHmacKey(seed);
  let counter = 0;
  let block: DataView | undefined;
  let index = 8;
  const nextWord = async (): Promise<number> => {
    if (index === 8) {
      const bytes = await globalThis.crypto.subtle.sign('HMAC', await key, encoder.encode(`tablefair-draw-v1:${counter++}`));
      block = new DataView(bytes);
      index = 0;
    }
    return block!.getUint32(4 * index++);
  };
  const uniform = async (n: number): Promise<number> => {
    if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new Error('uniform(n) needs a whole n between 1 and 2^32');
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const word = await nextWord();
      if (word < limit) return word % n;
    }
  };
  return { nextWord, uniform };
}

/**
 * The draw: `entryIds` in the order of the drop's line (index 0 = position 1), determined
 * by `seed` (32 bytes, or their hex) alone. Ids must be distinct.
 */
export async function drawOrder(seed: Uint8Array | string, entryIds: readonly string[]): Promise<string[]> {
  const seedBytes = typeof seed === 'string' ? hexToBytes(seed) : seed;
  if (seedBytes.length !== DRAW_SEED_BYTES) throw new Error(`A draw seed is ${DRAW_SEED_BYTES} bytes`);
  const order = [...entryIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 1; i < order.length; i++) if (order[i] === order[i - 1]) throw new Error('Entry ids must be distinct');
  const random = createDrawRandom(seedBytes);
  for (let i = order.length - 1; i >= 1; i--) {
    const j = await random.uniform(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * The commitment to a seed (decision 100): SHA-256 of the seed's 32 bytes, in hex. Published when
 * the drop is created; once the seed is revealed, anyone checks `seedCommitment(seed) === commitment`.
 */
export async function seedCommitment(seed: Uint8Array | string): Promise<string> {
  return bytesToHex(await sha256(typeof seed === 'string' ? hexToBytes(seed) : seed));
}

/**
 * The fingerprint of the entry list fixed when entries close (decision 100): SHA-256 (hex) of the
 * ids sorted ascending (as in drawOrder) and joined with "\n", UTF-8.
 */
export async function entryListHash(entryIds: readonly string[]): Promise<string> {
  const sorted = [...entryIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return bytesToHex(await sha256(encoder.encode(sorted.join('\n'))));
}
