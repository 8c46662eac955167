import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { compressText, JSON_CONTENT_TYPE, preferredEncoding, type KeptEncoding } from '#server/http-compression.ts';
import { createKeptAnswers, normalisedAnswerKey, type KeptAnswers } from './kept-answers.ts';
import { hookWhen, onSendWhen, routeFacts } from './public-reads.ts';

/**
 * How many shared answers are kept, and how large they may be together (characters of the
 * bodies plus bytes of their compressed forms), decision 200. The contracts of the shared routes
 * allow a few hundred keys (the today strip's neighbourhood × limit); the city's whole strip is
 * about 3.4 MB, so the bound holds each neighbourhood's whole strip with room to spare.
 */
export const SHARED_ANSWERS_MAX_ENTRIES = 256;
export const SHARED_ANSWERS_MAX_SIZE = 48 * 1024 * 1024;

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

/** The answer in `encoding`, compressed on first demand and then counted towards the bound. */
function compressed(shared: KeptAnswers<SharedAnswer>, key: string, answer: SharedAnswer, encoding: KeptEncoding): Buffer {
  let bytes = answer[encoding];
  if (!bytes) {
    bytes = answer[encoding] = compressText(answer.body, encoding);
    shared.grow(key, bytes.length);
  }
  return bytes;
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
 *
 * An answer is kept by its route and the parameters its contract reads (normalisedAnswerKey),
 * never by the URL as sent, and the kept answers are bounded by count and size, least recently
 * used first out (decision 200).
 */
export const etagPlugin = fp(async (app) => {
  const shared = createKeptAnswers<SharedAnswer>({ maxEntries: SHARED_ANSWERS_MAX_ENTRIES, maxSize: SHARED_ANSWERS_MAX_SIZE });
  app.deps.metrics?.keepsAnswers('shared-answers', shared);
  /** Changes announced so far; an answer whose building a change overtook is sent but not kept. */
  let changesAnnounced = 0;
  /** Per request being built: its key, and the changes announced when its building started. */
  const builds = new WeakMap<FastifyRequest, { key: string; changesAnnounced: number }>();
  const unsubscribe = app.deps.availabilityChanges.subscribe(() => {
    changesAnnounced += 1;
    shared.clear();
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    shared.clear();
  });

  // Only routes marked sharedAnswerSeconds (preHandler) or etag (onSend) run these (decision 186).
  const sharesAnswers = (request: FastifyRequest) => Boolean(routeFacts(request).config?.sharedAnswerSeconds);
  const sendsEtags = (request: FastifyRequest) => routeFacts(request).config?.etag === true;

  app.addHook(
    'preHandler',
    hookWhen(sharesAnswers, async function sharedAnswer(request, reply) {
      const maxAgeSeconds = routeFacts(request).config?.sharedAnswerSeconds;
      if (!maxAgeSeconds) return;
      const key = normalisedAnswerKey(request);
      const answer = shared.get(key);
      const isFresh =
        answer !== undefined &&
        answer.epoch === app.deps.availabilityChanges.deliveryEpoch() &&
        Math.abs(app.deps.clock.now().getTime() - answer.builtAtMs) < maxAgeSeconds * 1000;
      if (!isFresh) {
        shared.delete(key);
        builds.set(request, { key, changesAnnounced });
        return;
      }
      sendEtag(reply, answer.etag);
      if (matchesIfNoneMatch(request.headers['if-none-match'], answer.etag)) return reply.code(304).send('');
      reply.type(JSON_CONTENT_TYPE).header('vary', 'accept-encoding');
      const encoding = preferredEncoding(request);
      if (!encoding) return reply.send(answer.body);
      return reply.header('content-encoding', encoding).send(compressed(shared, key, answer, encoding));
    }),
  );

  app.addHook(
    'onSend',
    onSendWhen(sendsEtags, async function etag(request, reply, payload) {
      const config = routeFacts(request).config;
      if (!config?.etag || reply.statusCode !== 200 || reply.hasHeader('etag')) return payload;
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      const etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
      const epoch = app.deps.availabilityChanges.deliveryEpoch();
      const build = builds.get(request);
      if (config.sharedAnswerSeconds && typeof payload === 'string' && epoch !== null && build?.changesAnnounced === changesAnnounced) {
        shared.set(build.key, { body: payload, etag, builtAtMs: app.deps.clock.now().getTime(), epoch }, payload.length);
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
