import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { bearerAccess, datingCookieAccess, publicAccess } from '#common/contract/openapi-security.ts';
import {
  channelChoices,
  datingNotificationPreferences,
  datingNotificationPreferencesQuery,
  datingPushChoice,
  notificationPreferences,
  pushSubscriptionAnswer,
  pushSubscriptionBody,
  pushUnsubscribeBody,
  vapidPublicKeyResponse,
} from '#common/contract/push.ts';
import { notStored } from '#server/no-store.ts';

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
          "Keep this browser's push subscription (PushSubscription.toJSON()) for the signed-in diner: waitlist offers, reminders and draw results reach it (a dating member subscribes under /dating/me)",
        body: pushSubscriptionBody,
        response: { 201: pushSubscriptionAnswer, ...standardErrors },
      },
    },
    async (request, reply) => reply.code(201).send(await push.subscribe(await request.principal(), 'diner', request.body)),
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
    async (request) => push.unsubscribe(await request.principal(), 'diner', request.body.endpoint),
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

/**
 * A dating member's browsers and push choice (decision 219): the same service and schemas as the
 * diner's, under /dating with the member's cookie session. Registered inside the dating routes, so
 * their JSON-only rule keeps cross-site forms off these cookie-authenticated calls (decision 050).
 */
export const datingPushRoutes: FastifyPluginAsyncZod = async (app) => {
  const { push } = app.services;
  const dating = ['dating', 'notifications'];

  app.post(
    '/dating/me/push-subscriptions',
    {
      schema: {
        operationId: 'subscribeDatingMemberToPush',
        security: datingCookieAccess,
        tags: dating,
        summary: "Keep this browser's push subscription (PushSubscription.toJSON()) for the signed-in dating member: their date-plan changes reach it",
        body: pushSubscriptionBody,
        response: { 201: pushSubscriptionAnswer, ...standardErrors },
      },
    },
    async (request, reply) => reply.code(201).send(await push.subscribe(await request.principal(), 'dating', request.body)),
  );

  app.delete(
    '/dating/me/push-subscriptions',
    {
      schema: {
        operationId: 'unsubscribeDatingMemberFromPush',
        security: datingCookieAccess,
        tags: dating,
        summary:
          "Stop pushing the member's date-plan changes to this browser (by its endpoint); also sent at sign-out; removing one that is not kept is not an error",
        body: pushUnsubscribeBody,
        response: { 200: pushSubscriptionAnswer, ...standardErrors },
      },
    },
    async (request) => push.unsubscribe(await request.principal(), 'dating', request.body.endpoint),
  );

  app.get(
    '/dating/me/notification-preferences',
    {
      schema: {
        operationId: 'getDatingNotificationPreferences',
        security: datingCookieAccess,
        tags: dating,
        summary: "Whether the member's date-plan changes go by push, to how many browsers, and whether `endpoint` is one of them",
        querystring: datingNotificationPreferencesQuery,
        response: { 200: datingNotificationPreferences, ...standardErrors },
      },
    },
    async (request, reply) => notStored(reply, await push.datingPreferences(await request.principal(), request.query.endpoint)),
  );

  app.put(
    '/dating/me/notification-preferences',
    {
      schema: {
        operationId: 'setDatingNotificationPreferences',
        security: datingCookieAccess,
        tags: dating,
        summary: "Turn push of the member's date-plan changes on or off on every browser they subscribed (decision 227: they go by push alone)",
        querystring: datingNotificationPreferencesQuery,
        body: datingPushChoice,
        response: { 200: datingNotificationPreferences, ...standardErrors },
      },
    },
    async (request) => push.chooseDating(await request.principal(), request.body, request.query.endpoint),
  );
};
