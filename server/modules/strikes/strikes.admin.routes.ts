import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { adminStrikeDispute, adminStrikeDisputeList, disputeIdParams, resolveDisputeBody } from '#common/contract/strikes.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** The restaurant's side of strikes: the disputes of its no-shows, and their resolution. */
export const strikesAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { strikes } = app.services;
  const tags = ['portal'];

  app.get(
    '/api/admin/strike-disputes',
    {
      schema: {
        operationId: 'listStrikeDisputes',
        security: bearerAccess,
        tags,
        summary: "Disputes of the restaurant's no-show strikes, open first",
        response: { 200: adminStrikeDisputeList, ...standardErrors },
      },
    },
    async (request) => strikes.listOwnDisputes(await request.principal()),
  );

  app.patch(
    '/api/admin/strike-disputes/:id',
    {
      schema: {
        operationId: 'decideStrikeDispute',
        security: bearerAccess,
        tags,
        summary: 'Uphold (the strike is removed and the fee refunded) or reject a dispute, once',
        params: disputeIdParams,
        body: resolveDisputeBody,
        response: { 200: adminStrikeDispute, ...standardErrors },
      },
    },
    async (request) => strikes.resolveOwnDispute(await request.principal(), request.params.id, request.body),
  );
};
