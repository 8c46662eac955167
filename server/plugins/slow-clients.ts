import { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { AppConfig } from '#server/config.ts';
import { isPublicRead } from './public-reads.ts';

const TIMEOUT_BODY = JSON.stringify({ error: 'The request took too long to arrive. Please try again.' });

/**
 * Slow clients (a body trickled a byte at a time holds a connection and its memory): the headers
 * must arrive within REQUEST_HEADERS_TIMEOUT_SECONDS (Node's headersTimeout) and the whole request
 * within REQUEST_TIMEOUT_SECONDS. Node checks its own requestTimeout only every 30 s, so this
 * plugin also times each request from its headers to its parsed body and, when that runs over,
 * answers 408 `{error}` itself and closes the connection. Streams' responses are not limited:
 * only the time the request takes to arrive. Public reads (decision 186) are GETs whose body
 * Fastify never reads, so they are not timed here (Node's headersTimeout and requestTimeout stay).
 */
export const slowClientsPlugin = fp(async (app, options: { config: AppConfig }) => {
  const { headersSeconds, requestSeconds } = options.config.requestTimeouts;
  app.server.headersTimeout = headersSeconds * 1000;
  const timers = new WeakMap<object, NodeJS.Timeout>();

  app.addHook('onRequest', function timeSlowBody(request, _reply, done) {
    const raw = request.raw;
    // An injected request (app.inject: the sandbox's webhooks, tests) has its body in memory and
    // no connection to hold or to close, so only requests on a real connection are timed.
    if (raw.complete || isPublicRead(request) || !(raw.socket instanceof Socket)) return done();
    const timer = setTimeout(() => {
      const socket = raw.socket;
      if (raw.complete || !socket || socket.destroyed) return;
      request.log.info({ timeoutSeconds: requestSeconds }, 'request body too slow: answered 408 and closed');
      socket.end(
        `HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(TIMEOUT_BODY)}\r\nconnection: close\r\n\r\n${TIMEOUT_BODY}`,
      );
      setTimeout(() => socket.destroy(), 1000).unref();
    }, requestSeconds * 1000);
    timer.unref();
    timers.set(request, timer);
    raw.once('end', () => clearTimeout(timer));
    raw.once('close', () => clearTimeout(timer));
    done();
  });

  app.addHook('preValidation', function stopSlowBodyTimer(request, _reply, done) {
    const timer = timers.get(request);
    if (timer) clearTimeout(timer);
    done();
  });
});
