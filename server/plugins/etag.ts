import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';

/**
 * If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`
 * (a proxy may weaken a tag), and `*` matches any current representation.
 */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === etag);
}

/**
 * Strong ETags for routes marked `config: { etag: true }`: the hash of the body sent.
 * A matching If-None-Match answers 304 with no body, so a phone re-reading the
 * restaurant list pays for a header, not the list.
 */
export const etagPlugin = fp(async (app) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.routeOptions.config?.etag || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
      reply.code(304);
      return '';
    }
    return payload;
  });
});
