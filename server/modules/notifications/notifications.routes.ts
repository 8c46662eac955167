import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { createEventStreams } from '#server/plugins/event-stream.ts';
import { devMailboxQuery, devMailboxResponse, type DinerStreamEvent } from '#common/contract/waitlist.ts';
import { bearerAccess, publicAccess } from '#common/contract/openapi-security.ts';
import { errorResponse } from '#common/contract/common.ts';
import { exotelReceiptBody, exotelReceiptParams, receiptAnswer, whatsAppChallengeQuery } from '#common/contract/messages.ts';
import { forbidden } from '#server/errors.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The diner's live events, the dev mailbox, and the SMS and WhatsApp providers' delivery receipts. */
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

  // Exotel posts its receipts as a form (decision 210); the token in the path is their only proof.
  await app.register(async (scope) => {
    const receipts = scope.withTypeProvider<ZodTypeProvider>();
    receipts.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    receipts.post(
      '/api/notifications/receipts/exotel/:token',
      {
        schema: {
          operationId: 'receiveExotelReceipt',
          security: publicAccess,
          tags: ['notifications'],
          summary: "Exotel's SMS StatusCallback: a text's delivery status (sent, delivered, failed); 403 without the secret token in the path",
          params: exotelReceiptParams,
          body: exotelReceiptBody,
          response: { 200: receiptAnswer, 400: errorResponse, 403: errorResponse },
        },
      },
      async (request) => {
        const accepted = await notifications.receiveExotelReceipt(request.params.token, request.body as Record<string, string | undefined>);
        if (!accepted) throw forbidden('This receipt is not signed for this server');
        return { ok: true as const };
      },
    );
  });

  // The WhatsApp webhook's body stays the exact bytes Meta signed (X-Hub-Signature-256, decision 211).
  await app.register(async (scope) => {
    const webhook = scope.withTypeProvider<ZodTypeProvider>();
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));
    webhook.get(
      '/api/notifications/webhooks/whatsapp',
      {
        schema: {
          operationId: 'verifyWhatsAppWebhook',
          security: publicAccess,
          tags: ['notifications'],
          summary: "The WhatsApp webhook's verify handshake: hub.challenge back when hub.verify_token is ours, 403 otherwise",
          querystring: whatsAppChallengeQuery,
          response: { 200: z.string().describe('text/plain: the challenge'), 403: errorResponse },
        },
      },
      async (request, reply) => {
        const challenge = notifications.answerWhatsAppChallenge(request.query as Record<string, string | undefined>);
        if (challenge === null) throw forbidden('The verify token does not match');
        return reply.type('text/plain').send(challenge);
      },
    );
    webhook.post(
      '/api/notifications/webhooks/whatsapp',
      {
        schema: {
          operationId: 'receiveWhatsAppWebhook',
          security: publicAccess,
          tags: ['notifications'],
          summary: "WhatsApp Cloud API's webhook: message statuses (sent, delivered, read, failed); 403 when X-Hub-Signature-256 is not the app secret's",
          response: { 200: receiptAnswer, 403: errorResponse },
        },
      },
      async (request) => {
        const rawBody = typeof request.body === 'string' ? request.body : '';
        const signature = request.headers['x-hub-signature-256'];
        const accepted = await notifications.receiveWhatsAppWebhook(rawBody, typeof signature === 'string' ? signature : undefined);
        if (!accepted) throw forbidden('The webhook signature does not match');
        return { ok: true as const };
      },
    );
  });

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
