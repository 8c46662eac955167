import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Compact signed tokens (payload.signature, both base64url) for short-lived URLs the
 * app hands out itself, such as local upload URLs. The payload is readable, not secret;
 * the HMAC makes it unforgeable and the expiry makes it short-lived.
 */
export function signPayload<T extends { exp: number }>(payload: T, secret: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${signature}`;
}

/** The payload of a token signed with `secret` and not yet expired at `now`; undefined otherwise. */
export function verifyPayload<T extends { exp: number }>(token: string, secret: string, now: Date): T | undefined {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
    if (typeof payload.exp !== 'number' || payload.exp * 1000 <= now.getTime()) return undefined;
    return payload;
  } catch {
    return undefined;
  }
}
