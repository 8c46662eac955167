import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, postRawJson, type TestApp } from '#server/test/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('security headers', () => {
  it('sends a CSP that forbids framing and inline scripts but lets https map tiles load', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/restaurants' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toMatch(/img-src [^;]*https:/);
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('refuses bodies over the limit with 413 {error}', async () => {
    const response = await postRawJson(t.app, '/api/auth/login', JSON.stringify({ username: 'x'.repeat(300 * 1024), password: 'y' }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'The request body is too large' });
  });

  it('answers malformed JSON and unknown API paths with {error}, never a stack', async () => {
    const malformed = await postRawJson(t.app, '/api/auth/login', '{"username": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'The request body is not valid JSON' });
    const unknown = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(unknown.statusCode).toBe(404);
    expect(Object.keys(unknown.json())).toEqual(['error']);
  });
});
