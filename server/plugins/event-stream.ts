import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Heartbeat comments keep proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/**
 * Server-sent event streams for one route plugin. `subscribe` runs first and does the
 * access check, so a refusal is still an ordinary `{error}` reply; only then is the
 * response taken over. Each stream starts with a `ready` event and gets a heartbeat;
 * streams still open when the app closes are ended, so shutdown never waits on them.
 */
export function createEventStreams(app: FastifyInstance) {
  const openStreams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.end();
  });

  return async function openEventStream<E extends { type: string }>(
    reply: FastifyReply,
    subscribe: (send: (event: E) => void) => (() => void) | Promise<() => void>,
  ): Promise<void> {
    const raw = reply.raw;
    const send = (event: E) => {
      raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    const unsubscribe = await subscribe(send);
    reply.hijack();
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    openStreams.add(raw);
    const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), HEARTBEAT_MS);
    raw.on('close', () => {
      unsubscribe();
      clearInterval(heartbeat);
      openStreams.delete(raw);
    });
    raw.write('retry: 3000\n\n');
    send({ type: 'ready' } as E);
  };
}
