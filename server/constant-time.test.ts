import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sameBytes, sameHex, sameText } from './constant-time.ts';

const digest = (text: string) => createHmac('sha256', 'key').update(text).digest('hex');

describe('comparing a caller’s value with a secret in constant time', () => {
  it('answers true only for the same digest, whatever the hex letters’ case', () => {
    expect(sameHex(digest('123456'), digest('123456'))).toBe(true);
    expect(sameHex(digest('123456'), digest('123456').toUpperCase())).toBe(true);
    expect(sameHex(digest('123456'), digest('123457'))).toBe(false);
  });

  it('answers false, without throwing, for a value of another length (timingSafeEqual alone would throw)', () => {
    expect(sameHex(digest('123456'), digest('123456').slice(0, 62))).toBe(false);
    expect(sameHex(digest('123456'), '')).toBe(false);
    expect(sameBytes(Buffer.from([1, 2, 3]), Buffer.from([1, 2]))).toBe(false);
    expect(sameText('sha256=abc', 'sha256=abcd')).toBe(false);
  });

  it('compares texts as UTF-8, so that a token differing in one character is refused', () => {
    expect(sameText('verify-token-ü', 'verify-token-ü')).toBe(true);
    expect(sameText('verify-token-ü', 'verify-token-u')).toBe(false);
  });
});
