import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { createEventStreams } from '#server/plugins/event-stream.ts';
import { devMailboxQuery, devMailboxResponse, type DinerStreamEvent } from '#common/contract/waitlist.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** The diner's live events and the dev mailbox. */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notifications } = app.services;

  const openEventStream = createEventStreams(app);

  app.get(
    '/api/me/events',
    {
      schema: {
        operationId: 'streamMyEvents',
        security: bearerAccess,
        tags: ['notifications'],
        summary:
          'Server-sent events for the signed-in diner: `offer` when a table is held for them (drop or waitlist), `drop` when a drop they entered has drawn; a comment every 15 s. Read with fetch and the bearer header.',
        response: { 200: z.string().describe('text/event-stream'), ...standardErrors },
      },
    },
    async (request, reply) => {
      // The access check runs in subscribe, before any header is sent.
      const principal = await request.principal();
      await openEventStream<DinerStreamEvent>(reply, (send) => notifications.subscribeToMyEvents(principal, send));
    },
  );

  app.get(
    '/api/dev/mailbox',
    {
      schema: {
        operationId: 'readDevMailbox',
        security: bearerAccess,
        tags: ['notifications'],
        summary:
          "Recent email and SMS from the outbox, newest first: by default only the signed-in diner's own (401 when signed out); everything with DEV_MAILBOX=all (refused in production); 404 when off (production's default)",
        querystring: devMailboxQuery,
        response: { 200: devMailboxResponse, ...standardErrors },
      },
    },
    async (request) => notifications.listDevMailbox(await request.principal(), request.query),
  );
};
