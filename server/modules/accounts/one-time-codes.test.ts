import { describe, expect, it } from 'vitest';
import { AppError } from '#server/errors.ts';
import { CODE_DIGITS, codeMatches, hashCode, newCode, newCodeSalt, wrongCodeRefusal } from './one-time-codes.ts';

describe('one-time codes', () => {
  it('draws codes of six digits, leading zeros kept', () => {
    const codes = Array.from({ length: 200 }, newCode);
    expect(CODE_DIGITS).toBe(6);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(190);
  });

  it('matches a code only for what it was bound to, under its own salt', () => {
    const salt = newCodeSalt();
    const kept = { salt, hash: hashCode(salt, 'password-reset:r1', '042917') };
    expect(codeMatches(kept, 'password-reset:r1', '042917')).toBe(true);
    expect(codeMatches(kept, 'password-reset:r1', '042918')).toBe(false);
    expect(codeMatches(kept, 'password-reset:r2', '042917')).toBe(false);
    expect(codeMatches({ salt: newCodeSalt(), hash: kept.hash }, 'password-reset:r1', '042917')).toBe(false);
  });

  it('says how many tries are left, then refuses with the caller’s words', () => {
    expect(wrongCodeRefusal(2, 'Too many').message).toBe('code: That code is not right. 2 tries left.');
    expect(wrongCodeRefusal(1, 'Too many').message).toBe('code: That code is not right. 1 try left.');
    const last = wrongCodeRefusal(0, 'Too many wrong codes. Ask for a new code.');
    expect(last).toBeInstanceOf(AppError);
    expect(last.code).toBe('RATE_LIMITED');
    expect(last.message).toBe('Too many wrong codes. Ask for a new code.');
  });
});
