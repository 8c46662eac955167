import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { sameHex } from '#server/constant-time.ts';
import { AppError, badInput } from '#server/errors.ts';

/**
 * The short codes sent by text or email (a phone to verify, a dating signup, a password reset):
 * drawn uniformly, kept only as an HMAC under a salt of their own and bound to what they are for, so
 * a stored hash is no use for anything else, and compared in constant time.
 */

/** How many digits a code has: the six every code field of the contract asks for. */
export const CODE_DIGITS = 6;

/** A new code: CODE_DIGITS digits, each value equally likely. */
export function newCode(): string {
  return String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
}

/** A new salt for one code's hash. */
export function newCodeSalt(): string {
  return randomBytes(16).toString('hex');
}

/** The code's hash under its salt; `boundTo` names what it is for (the purpose, and the ids and phone it belongs to). */
export function hashCode(salt: string, boundTo: string, code: string): string {
  return createHmac('sha256', Buffer.from(salt, 'hex')).update(`${boundTo}:${code}`).digest('hex');
}

/** Whether `code` is the one whose hash was kept, for the same `boundTo`. */
export function codeMatches(kept: { salt: string; hash: string }, boundTo: string, code: string): boolean {
  return sameHex(hashCode(kept.salt, boundTo, code), kept.hash);
}

/** The answer to a wrong code, once the try is counted: the tries left, or `tooMany` when none are. */
export function wrongCodeRefusal(triesLeft: number, tooMany: string): AppError {
  return triesLeft > 0
    ? badInput(`code: That code is not right. ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`)
    : new AppError('RATE_LIMITED', tooMany);
}
