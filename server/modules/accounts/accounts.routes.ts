import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountDeletionResponse, dinerProfile, loginBody, loginResponse, signupBody, staffLoginResponse } from '#common/contract/accounts.ts';
import { standardErrors } from '#common/contract/common.ts';
import { bearerToken } from '#server/plugins/sessions.ts';
import { bearerAccess, optionalBearerAccess, publicAccess } from '#common/contract/openapi-security.ts';

export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accounts, accountDeletion } = app.services;

  app.post(
    '/api/auth/signup',
    {
      schema: {
        operationId: 'signUpDiner',
        security: publicAccess,
        tags: ['accounts'],
        summary: 'Create a diner account',
        body: signupBody,
        response: { 201: dinerProfile, ...standardErrors },
      },
      config: { rateLimitGroup: 'signup' },
    },
    async (request, reply) => {
      const profile = await accounts.signUpDiner(await request.principal(), request.body);
      return reply.code(201).send(profile);
    },
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        operationId: 'logInDiner',
        security: publicAccess,
        tags: ['accounts'],
        summary: 'Sign a diner in',
        body: loginBody,
        response: { 200: loginResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'login' },
    },
    async (request) => accounts.logInDiner(await request.principal(), request.body),
  );

  app.post(
    '/api/auth/restaurant-login',
    {
      schema: {
        operationId: 'logInStaff',
        security: publicAccess,
        tags: ['accounts'],
        summary: 'Sign restaurant staff in',
        body: loginBody,
        response: { 200: staffLoginResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'login' },
    },
    async (request) => accounts.logInStaff(await request.principal(), request.body),
  );

  app.post(
    '/api/moderation/auth/login',
    {
      schema: {
        operationId: 'logInModerator',
        security: publicAccess,
        tags: ['moderation'],
        summary: 'Sign a Tablefair moderator in (bearer token)',
        body: loginBody,
        response: { 200: loginResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'login' },
    },
    async (request) => accounts.logInModerator(await request.principal(), request.body),
  );

  app.post(
    '/api/moderation/auth/logout',
    {
      schema: {
        operationId: 'logOutModerator',
        security: optionalBearerAccess,
        tags: ['moderation'],
        summary: 'Revoke a moderator’s bearer token',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await accounts.logOut(await request.principal(), bearerToken(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/auth/me',
    {
      schema: {
        operationId: 'getSignedInDiner',
        security: bearerAccess,
        tags: ['accounts'],
        summary: 'The signed-in diner',
        response: { 200: dinerProfile, ...standardErrors },
      },
    },
    async (request) => accounts.getCurrentDiner(await request.principal()),
  );

  app.delete(
    '/api/auth/me',
    {
      schema: {
        operationId: 'deleteMyAccount',
        security: bearerAccess,
        tags: ['accounts'],
        summary:
          'Delete the signed-in diner’s account: upcoming bookings are cancelled (deposit rules as for any cancel); the profile, requests, restaurants’ notes, messages and the dating profile and photos are erased; the payment ledger is kept',
        response: { 200: accountDeletionResponse, ...standardErrors },
      },
    },
    async (request) => accountDeletion.deleteMyAccount(await request.principal()),
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        operationId: 'logOut',
        security: optionalBearerAccess,
        tags: ['accounts'],
        summary: 'Revoke the bearer token (diner or staff)',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await accounts.logOut(await request.principal(), bearerToken(request));
      return reply.code(204).send(null);
    },
  );
};
