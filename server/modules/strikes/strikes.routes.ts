import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { disputeStrikeBody, myStrikesResponse, strikeIdParams } from '#common/contract/strikes.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** The diner's no-show strikes (/me): read them, dispute one. */
export const strikesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { strikes } = app.services;
  const tags = ['strikes'];

  app.get(
    '/api/me/strikes',
    {
      schema: {
        operationId: 'listMyStrikes',
        security: bearerAccess,
        tags,
        summary: "The signed-in diner's no-show strikes, their disputes and any block",
        response: { 200: myStrikesResponse, ...standardErrors },
      },
    },
    async (request) => strikes.listMyStrikes(await request.principal()),
  );

  app.post(
    '/api/me/strikes/:id/dispute',
    {
      schema: {
        operationId: 'disputeStrike',
        security: bearerAccess,
        tags,
        summary: 'Dispute a strike (once, within 14 days of it); the restaurant decides',
        params: strikeIdParams,
        body: disputeStrikeBody,
        response: { 200: myStrikesResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => strikes.disputeStrike(await request.principal(), request.params.id, request.body),
  );
};
