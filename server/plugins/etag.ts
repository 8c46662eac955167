import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { compressText, preferredEncoding, type KeptEncoding } from '#server/http-compression.ts';
import { hookWhen, onSendWhen } from './public-reads.ts';

/**
 * If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`
 * (a proxy may weaken a tag), and `*` matches any current representation.
 */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === etag);
}

/** One whole-city answer as sent: its JSON, its ETag and, made on first demand, its compressed forms. */
interface SharedAnswer {
  body: string;
  etag: string;
  builtAtMs: number;
  /** The change feed's delivery epoch it was built under: after a gap in delivery it is not trusted. */
  epoch: number;
  br?: Buffer;
  gzip?: Buffer;
}

function compressed(answer: SharedAnswer, encoding: KeptEncoding): Buffer {
  return (answer[encoding] ??= compressText(answer.body, encoding));
}

function sendEtag(reply: FastifyReply, etag: string): void {
  reply.header('etag', etag);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
}

/**
 * Strong ETags for routes marked `config: { etag: true }`: the hash of the body sent.
 * A matching If-None-Match answers 304 with no body, so a phone re-reading the
 * restaurant list pays for a header, not the list.
 *
 * Routes also marked `sharedAnswerSeconds` give every caller the same answer (the restaurant
 * list, the today strip): it is built once and kept, serialised, hashed and compressed, until
 * anything that changes availability is announced (the database's change feed, decision 073) or
 * the business clock moves on by that many seconds (the today strip's window moves with time).
 * A 304 then costs a header comparison and a full answer a buffer write (decision 075). As with
 * availability, nothing is kept while the feed cannot promise delivery.
 */
export const etagPlugin = fp(async (app) => {
  const shared = new Map<string, SharedAnswer>();
  /** Changes announced so far; an answer whose building a change overtook is sent but not kept. */
  let changesAnnounced = 0;
  const changesWhenBuildStarted = new WeakMap<FastifyRequest, number>();
  const unsubscribe = app.deps.availabilityChanges.subscribe(() => {
    changesAnnounced += 1;
    shared.clear();
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    shared.clear();
  });

  // Only routes marked sharedAnswerSeconds (preHandler) or etag (onSend) run these (decision 186).
  const sharesAnswers = (request: FastifyRequest) => Boolean(request.routeOptions.config?.sharedAnswerSeconds);
  const sendsEtags = (request: FastifyRequest) => request.routeOptions.config?.etag === true;

  app.addHook(
    'preHandler',
    hookWhen(sharesAnswers, async (request, reply) => {
      const maxAgeSeconds = request.routeOptions.config?.sharedAnswerSeconds;
      if (!maxAgeSeconds) return;
      const answer = shared.get(request.url);
      const isFresh =
        answer !== undefined &&
        answer.epoch === app.deps.availabilityChanges.deliveryEpoch() &&
        Math.abs(app.deps.clock.now().getTime() - answer.builtAtMs) < maxAgeSeconds * 1000;
      if (!isFresh) {
        shared.delete(request.url);
        changesWhenBuildStarted.set(request, changesAnnounced);
        return;
      }
      sendEtag(reply, answer.etag);
      if (matchesIfNoneMatch(request.headers['if-none-match'], answer.etag)) return reply.code(304).send('');
      reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      const encoding = preferredEncoding(request);
      if (!encoding) return reply.send(answer.body);
      return reply.header('content-encoding', encoding).send(compressed(answer, encoding));
    }),
  );

  app.addHook(
    'onSend',
    onSendWhen(sendsEtags, async (request, reply, payload) => {
      const config = request.routeOptions.config;
      if (!config?.etag || reply.statusCode !== 200 || reply.hasHeader('etag')) return payload;
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      const etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
      const epoch = app.deps.availabilityChanges.deliveryEpoch();
      if (config.sharedAnswerSeconds && typeof payload === 'string' && epoch !== null && changesWhenBuildStarted.get(request) === changesAnnounced) {
        shared.set(request.url, { body: payload, etag, builtAtMs: app.deps.clock.now().getTime(), epoch });
      }
      sendEtag(reply, etag);
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
        reply.code(304);
        return '';
      }
      return payload;
    }),
  );
});
