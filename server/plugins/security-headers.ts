import fp from 'fastify-plugin';

/**
 * The content security policy: the app's own scripts only, no framing, no plugins; images from
 * https anywhere (the map tiles and restaurant photos), inline styles (Leaflet positions tiles with them).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data: blob: https:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
].join(';');

/** Every response's security headers, fixed at start-up (decision 074: the set Helmet sent, built once). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/** Sets SECURITY_HEADERS on every reply, errors and 404s included. */
export const securityHeadersPlugin = fp(async (app) => {
  app.addHook('onRequest', function sendSecurityHeaders(_request, reply, done) {
    reply.headers(SECURITY_HEADERS);
    done();
  });
});
