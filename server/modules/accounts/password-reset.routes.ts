import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors, uuid } from '#common/contract/common.ts';
import {
  confirmEmailBody,
  emailConfirmed,
  passwordResetConfirmBody,
  passwordResetDone,
  passwordResetRequestBody,
  passwordResetStarted,
  staffAccountList,
  staffAccountQuery,
  staffPasswordBody,
  staffPasswordSet,
} from '#common/contract/password-reset.ts';
import { bearerAccess, publicAccess } from '#common/contract/openapi-security.ts';

/** "Forgot password" for the three sign-ins, a diner's email confirmation, and the platform's new passwords for staff (decisions 230, 231). */
export const passwordResetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { passwordReset, emailVerification, staffPasswords } = app.services;

  app.post(
    '/api/auth/password-reset',
    {
      schema: {
        operationId: 'requestPasswordReset',
        security: publicAccess,
        tags: ['accounts'],
        summary:
          'Forgot password: a 6-digit code to the account’s verified email or phone (diner, staff or dating). The same 202 whether or not an account matches',
        body: passwordResetRequestBody,
        response: { 202: passwordResetStarted, ...standardErrors },
      },
      config: { rateLimitGroup: 'reset' },
    },
    async (request, reply) => reply.code(202).send(await passwordReset.requestReset(await request.principal(), request.body, { ip: request.ip })),
  );

  app.post(
    '/api/auth/password-reset/confirm',
    {
      schema: {
        operationId: 'confirmPasswordReset',
        security: publicAccess,
        tags: ['accounts'],
        summary: 'The code and a new password: sets it once (15 minutes, 5 tries) and ends every session of the account',
        body: passwordResetConfirmBody,
        response: { 200: passwordResetDone, ...standardErrors },
      },
      config: { rateLimitGroup: 'reset' },
    },
    async (request) => passwordReset.confirmReset(await request.principal(), request.body),
  );

  app.post(
    '/api/auth/email/confirm',
    {
      schema: {
        operationId: 'confirmDinerEmail',
        security: publicAccess,
        tags: ['accounts'],
        summary: 'The link from the welcome email: the diner’s email becomes an address a password reset may use',
        body: confirmEmailBody,
        response: { 200: emailConfirmed, ...standardErrors },
      },
      config: { rateLimitGroup: 'reset' },
    },
    async (request) => emailVerification.confirmEmail(await request.principal(), request.body.token),
  );

  app.get(
    '/api/moderation/staff-accounts',
    {
      schema: {
        operationId: 'searchStaffAccounts',
        security: bearerAccess,
        tags: ['moderation'],
        summary: 'Restaurant logins whose username, email or restaurant name contains q (Tablefair moderators)',
        querystring: staffAccountQuery,
        response: { 200: staffAccountList, ...standardErrors },
      },
    },
    async (request) => staffPasswords.searchStaff(await request.principal(), request.query.q),
  );

  app.put(
    '/api/moderation/staff-accounts/:staffId/password',
    {
      schema: {
        operationId: 'setStaffPassword',
        security: bearerAccess,
        tags: ['moderation'],
        summary: 'Give a restaurant login a new password (Tablefair moderators); every session of that login ends',
        params: z.object({ staffId: uuid }),
        body: staffPasswordBody,
        response: { 200: staffPasswordSet, ...standardErrors },
      },
    },
    async (request) => staffPasswords.setStaffPassword(await request.principal(), request.params.staffId, request.body.password),
  );
};
