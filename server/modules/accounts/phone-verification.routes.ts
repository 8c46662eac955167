import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { phoneCodeSent, phoneVerificationStatus, startPhoneVerificationBody, verifyPhoneBody } from '#common/contract/accounts.ts';
import { standardErrors } from '#common/contract/common.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** Phone verification: a one-time code by SMS; the code never appears in a response. */
export const phoneVerificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { phoneVerification } = app.services;
  const tags = ['accounts'];

  app.get(
    '/api/auth/phone',
    {
      schema: {
        operationId: 'getPhoneVerification',
        security: bearerAccess,
        tags,
        summary: "The signed-in diner's verified phone and any code waiting to be entered",
        response: { 200: phoneVerificationStatus, ...standardErrors },
      },
    },
    async (request) => phoneVerification.getPhoneStatus(await request.principal()),
  );

  app.post(
    '/api/auth/phone/start',
    {
      schema: {
        operationId: 'startPhoneVerification',
        security: bearerAccess,
        tags,
        summary: 'Send a 6-digit code by SMS to verify a phone (valid 10 minutes, 5 tries; a new code at most every 30 s)',
        body: startPhoneVerificationBody,
        response: { 202: phoneCodeSent, ...standardErrors },
      },
      // Its own budgets (per caller and IP): naming a phone must not spend that phone's login budget (decision 084).
      config: { rateLimitGroup: 'phone' },
    },
    async (request, reply) => reply.code(202).send(await phoneVerification.startPhoneVerification(await request.principal(), request.body, { ip: request.ip })),
  );

  app.post(
    '/api/auth/phone/verify',
    {
      schema: {
        operationId: 'verifyPhone',
        security: bearerAccess,
        tags,
        summary: "Enter the code: the phone becomes the account's verified phone (one per account; a phone verifies one account)",
        body: verifyPhoneBody,
        response: { 200: phoneVerificationStatus, ...standardErrors },
      },
      config: { rateLimitGroup: 'phone' },
    },
    async (request) => phoneVerification.verifyPhone(await request.principal(), request.body),
  );
};
