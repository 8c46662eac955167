import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { adminStrikeDispute, adminStrikeDisputeList, disputeIdParams, resolveDisputeBody } from '#common/contract/strikes.ts';

/** The restaurant's side of strikes: the disputes of its no-shows, and their resolution. */
export const strikesAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { strikes } = app.services;
  const security = [{ bearer: [] }];
  const tags = ['portal'];

  app.get(
    '/api/admin/strike-disputes',
    {
      schema: {
        tags,
        summary: "Disputes of the restaurant's no-show strikes, open first",
        security,
        response: { 200: adminStrikeDisputeList, ...standardErrors },
      },
    },
    async (request) => strikes.listOwnDisputes(await request.principal()),
  );

  app.patch(
    '/api/admin/strike-disputes/:id',
    {
      schema: {
        tags,
        summary: 'Uphold (the strike is removed and the fee refunded) or reject a dispute, once',
        security,
        params: disputeIdParams,
        body: resolveDisputeBody,
        response: { 200: adminStrikeDispute, ...standardErrors },
      },
    },
    async (request) => strikes.resolveOwnDispute(await request.principal(), request.params.id, request.body),
  );
};
