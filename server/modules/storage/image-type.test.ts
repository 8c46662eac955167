import { describe, expect, it } from 'vitest';
import { sniffImageType } from './image-type.ts';
import { signPayload, verifyPayload } from '#server/signing.ts';

describe('sniffImageType', () => {
  it('recognises JPEG, PNG and WebP by their first bytes', () => {
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('image/jpeg');
    expect(sniffImageType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffImageType(Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
  });

  it('refuses text named like an image, and truncated headers', () => {
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(Buffer.from('hello, I am a .jpg'))).toBeNull();
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8]))).toBeNull();
    expect(sniffImageType(Buffer.from('RIFF\x00\x00\x00\x00WAVE', 'latin1'))).toBeNull();
  });
});

describe('signed grants', () => {
  const secret = 'x'.repeat(32);
  const now = new Date('2026-11-22T10:00:00Z');
  const exp = now.getTime() / 1000 + 60;

  it('verifies its own signature until expiry', () => {
    const token = signPayload({ key: 'a/b.png', exp }, secret);
    expect(verifyPayload(token, secret, now)).toEqual({ key: 'a/b.png', exp });
    expect(verifyPayload(token, secret, new Date(exp * 1000))).toBeUndefined();
  });

  it('refuses a tampered payload, a foreign secret and garbage', () => {
    const token = signPayload({ key: 'a/b.png', exp }, secret);
    const [, signature] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ key: 'other/c.png', exp })).toString('base64url')}.${signature}`;
    expect(verifyPayload(forged, secret, now)).toBeUndefined();
    expect(verifyPayload(token, 'y'.repeat(32), now)).toBeUndefined();
    expect(verifyPayload('not-a-token', secret, now)).toBeUndefined();
    expect(verifyPayload('a.b.c', secret, now)).toBeUndefined();
  });
});
