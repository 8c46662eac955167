import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '#server/errors.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';

/** Heartbeat comments keep proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/** Open streams per account and per address, shared by every stream route of one app (keyed by its deps). */
const openCounts = new WeakMap<object, Map<string, number>>();

function accountOf(principal: Principal): string | null {
  if (principal.kind === 'diner') return `diner:${principal.userId}`;
  if (principal.kind === 'staff') return `staff:${principal.staffId}`;
  if (principal.kind === 'dating') return `dating:${principal.datingUserId}`;
  if (principal.kind === 'moderator') return `moderator:${principal.moderatorId}`;
  return null;
}

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
    // At most EVENT_STREAMS_PER_ACCOUNT and EVENT_STREAMS_PER_IP open at once (decision 096).
    const { perAccount, perIp } = app.deps.config.eventStreams;
    let counts = openCounts.get(app.deps);
    if (!counts) openCounts.set(app.deps, (counts = new Map()));
    const account = accountOf(await reply.request.principal());
    const places = [
      ...(account ? [{ key: account, limit: perAccount, what: 'for this account' }] : []),
      { key: `ip:${reply.request.ip}`, limit: perIp, what: 'from this address' },
    ];
    const full = places.find((place) => (counts.get(place.key) ?? 0) >= place.limit);
    if (full) {
      unsubscribe();
      throw new AppError(
        'RATE_LIMITED',
        `Too many live updates are open ${full.what} (at most ${full.limit}). Close another tab or window showing them and try again.`,
      );
    }
    for (const place of places) counts.set(place.key, (counts.get(place.key) ?? 0) + 1);
    reply.hijack();
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    openStreams.add(raw);
    app.deps.metrics?.eventStreamsOpen.inc();
    const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), HEARTBEAT_MS);
    raw.on('close', () => {
      for (const place of places) {
        const left = (counts.get(place.key) ?? 1) - 1;
        if (left > 0) counts.set(place.key, left);
        else counts.delete(place.key);
      }
      unsubscribe();
      clearInterval(heartbeat);
      openStreams.delete(raw);
      app.deps.metrics?.eventStreamsOpen.dec();
    });
    raw.write('retry: 3000\n\n');
    send({ type: 'ready' } as E);
  };
}
