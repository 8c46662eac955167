import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';

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
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag)) {
      reply.code(304);
      return '';
    }
    return payload;
  });
});
