import { timingSafeEqual } from 'node:crypto';

/**
 * Comparing what a caller sent with a secret we hold (a code's hash, a webhook's signature, a
 * verify token) in time that does not depend on where they first differ, so that timing cannot
 * guess the secret a byte at a time. A length mismatch answers false at once: every secret compared
 * here has a length that is public (a digest's, or the caller's own).
 */
export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Two hex digests, compared as bytes in constant time. */
export function sameHex(a: string, b: string): boolean {
  return sameBytes(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/** Two texts (tokens, signature headers), compared as UTF-8 bytes in constant time. */
export function sameText(a: string, b: string): boolean {
  return sameBytes(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
