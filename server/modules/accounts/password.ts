import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt from node:crypto, a memory-hard hash; parameters travel inside the stored string. */
function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url). `cost` is log2(N). */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const N = 2 ** cost;
  const r = 8;
  const p = 1;
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r, p }, 32);
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` matches a hash made by hashPassword. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) }, expected.length);
  return timingSafeEqual(actual, expected);
}

let decoyHash: Promise<string> | undefined;
/**
 * Spends the same time as a real check when the account does not exist, so the
 * response time does not tell an attacker which usernames are registered.
 */
export async function verifyAgainstDecoy(password: string, cost: number): Promise<false> {
  decoyHash ??= hashPassword('decoy-password-never-matches', cost);
  await verifyPassword(password, await decoyHash);
  return false;
}
