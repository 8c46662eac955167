import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { devMailboxQuery, devMailboxResponse, type DinerStreamEvent } from '#common/contract/waitlist.ts';

/** Heartbeat comments keep proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/** The diner's live events and the dev mailbox. */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notifications } = app.services;

  // Streams still open when the app closes are ended, so shutdown never waits on them.
  const openStreams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.end();
  });
  app.addHook('onClose', async () => notifications.close());

  app.get('/api/me/events', {
    schema: {
      tags: ['notifications'],
      summary: 'Server-sent events for the signed-in diner: `offer` when a table is held for them (drop or waitlist), `drop` when a drop they entered has drawn; a comment every 15 s. Read with fetch and the bearer header.',
      security: [{ bearer: [] }],
      response: { 200: z.string().describe('text/event-stream'), ...standardErrors },
    },
  }, async (request, reply) => {
    const raw = reply.raw;
    const send = (event: DinerStreamEvent) => {
      raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    // The access check runs before any header is sent, so a refusal is an ordinary {error}.
    const unsubscribe = notifications.subscribeToMyEvents(await request.principal(), send);
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
    send({ type: 'ready' });
  });

  app.get('/api/dev/mailbox', {
    schema: {
      tags: ['notifications'],
      summary: 'Recent email and SMS from the outbox, newest first (only when NODE_ENV is not production, or DEV_MAILBOX=1; otherwise 404)',
      querystring: devMailboxQuery,
      response: { 200: devMailboxResponse, ...standardErrors },
    },
  }, async (request) => notifications.listDevMailbox(await request.principal(), request.query));
};
