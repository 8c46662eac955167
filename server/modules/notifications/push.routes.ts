import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { bearerAccess, publicAccess } from '#common/contract/openapi-security.ts';
import {
  channelChoices,
  notificationPreferences,
  pushSubscriptionAnswer,
  pushSubscriptionBody,
  pushUnsubscribeBody,
  vapidPublicKeyResponse,
} from '#common/contract/push.ts';

const tags = ['notifications'];

/** Web Push subscriptions and the diner's channels (decision 212). */
export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  const { push } = app.services;

  app.get(
    '/api/push/vapid-public-key',
    {
      schema: {
        operationId: 'getVapidPublicKey',
        security: publicAccess,
        tags,
        summary: 'The VAPID public key browsers subscribe with (`enabled` false when this server sends no push)',
        response: { 200: vapidPublicKeyResponse, ...standardErrors },
      },
    },
    async () => push.publicKey(),
  );

  app.post(
    '/api/me/push-subscriptions',
    {
      schema: {
        operationId: 'subscribeToPush',
        security: bearerAccess,
        tags,
        summary:
          "Keep this browser's push subscription (PushSubscription.toJSON()) for the signed-in diner: offers, reminders, draw results and date-plan changes reach it",
        body: pushSubscriptionBody,
        response: { 201: pushSubscriptionAnswer, ...standardErrors },
      },
    },
    async (request, reply) => reply.code(201).send(await push.subscribe(await request.principal(), request.body)),
  );

  app.delete(
    '/api/me/push-subscriptions',
    {
      schema: {
        operationId: 'unsubscribeFromPush',
        security: bearerAccess,
        tags,
        summary: 'Stop pushing to this browser (by its endpoint); removing one that is not kept is not an error',
        body: pushUnsubscribeBody,
        response: { 200: pushSubscriptionAnswer, ...standardErrors },
      },
    },
    async (request) => push.unsubscribe(await request.principal(), request.body.endpoint),
  );

  app.get(
    '/api/me/notification-preferences',
    {
      schema: {
        operationId: 'getNotificationPreferences',
        security: bearerAccess,
        tags,
        summary: 'The channels the signed-in diner receives offers and reminders on; email is always on',
        response: { 200: notificationPreferences, ...standardErrors },
      },
    },
    async (request) => push.preferences(await request.principal()),
  );

  app.put(
    '/api/me/notification-preferences',
    {
      schema: {
        operationId: 'setNotificationPreferences',
        security: bearerAccess,
        tags,
        summary: 'Turn push, WhatsApp and SMS on or off for the signed-in diner (email cannot be turned off: decision 212)',
        body: channelChoices,
        response: { 200: notificationPreferences, ...standardErrors },
      },
    },
    async (request) => push.choose(await request.principal(), request.body),
  );
};
