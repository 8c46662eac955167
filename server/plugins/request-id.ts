import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '#server/config.ts';
import { isPublicRead } from './public-reads.ts';

/** The header a request id comes in on (from a trusted proxy) and goes out on (always). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Ids a proxy may hand us: short, and nothing that could break a log line or a header. */
const SAFE_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
/** W3C trace context: version-traceid-parentid-flags; the trace id names the request across services. */
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The request id of the code running now, for log lines written outside the request's own logger. */
export const currentRequestId = new AsyncLocalStorage<string>();

/**
 * Whether the connection's peer is a proxy TRUST_PROXY names (decision 094): with a hop count, the
 * nearest peer always is; with addresses, only a listed one.
 */
export function trustsPeer(trustProxy: AppConfig['trustProxy']): (address: string | undefined) => boolean {
  if (trustProxy === false || trustProxy === 0) return () => false;
  if (typeof trustProxy === 'number') return () => true;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const [address, bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    if (!address) return false;
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    return list.check(plain, isIP(plain) === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * Fastify's genReqId: the id a trusted proxy sent (`x-request-id`, else the trace id of
 * `traceparent`), else a fresh UUID. A client talking to the app directly cannot choose its id.
 */
export function requestIdGenerator(trustProxy: AppConfig['trustProxy']): (request: IncomingMessage) => string {
  const trusted = trustsPeer(trustProxy);
  return (request) => {
    if (trusted(request.socket.remoteAddress)) {
      const given = request.headers[REQUEST_ID_HEADER];
      if (typeof given === 'string' && SAFE_ID.test(given)) return given;
      const trace = request.headers.traceparent;
      const traceId = typeof trace === 'string' ? TRACEPARENT.exec(trace)?.[1] : undefined;
      if (traceId && !/^0+$/.test(traceId)) return traceId;
    }
    return nextRequestId();
  };
}

/**
 * A fresh request id: this process's random UUID with its last twelve hex digits replaced by a
 * counter. It has a UUID's shape and is unique across instances (the random part, drawn at start)
 * and within one (the counter), without drawing random bytes per request (decision 270): an id
 * names a request in the logs, it grants nothing, so it need not be unpredictable.
 */
const REQUEST_ID_PREFIX = randomUUID().slice(0, 24);
let requestCount = 0;
function nextRequestId(): string {
  requestCount += 1;
  return REQUEST_ID_PREFIX + requestCount.toString(16).padStart(12, '0');
}

/**
 * Every answer carries its request id, and the rest of the request runs with it in async
 * context, so a line a service logs through the app's logger names the request too. A public
 * read (decision 186) skips the async context, which costs more than the read itself: its own
 * lines (the error handler's, Fastify's access lines) come from the request's logger, which
 * names the request anyway.
 */
export const requestIdPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', function sendRequestId(request, reply, done) {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (isPublicRead(request)) done();
    else currentRequestId.run(request.id, done);
  });
});
