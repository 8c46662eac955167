import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminStrikeDispute, adminStrikeDisputeList, disputeIdParams, resolveDisputeBody } from '#common/contract/strikes.ts';
import { staffRoute } from '#server/staff-route.ts';

/** The restaurant's side of strikes: the disputes of its no-shows, and their resolution. */
export const strikesAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { strikes } = app.services;

  staffRoute(
    app,
    'GET',
    '/api/admin/strike-disputes',
    { operationId: 'listStrikeDisputes', summary: "Disputes of the restaurant's no-show strikes, open first", reply: adminStrikeDisputeList },
    (principal) => strikes.listOwnDisputes(principal),
  );

  staffRoute(
    app,
    'PATCH',
    '/api/admin/strike-disputes/:id',
    {
      operationId: 'decideStrikeDispute',
      summary: 'Uphold (the strike is removed and the fee refunded) or reject a dispute, once',
      params: disputeIdParams,
      body: resolveDisputeBody,
      reply: adminStrikeDispute,
    },
    (principal, { params, body }) => strikes.resolveOwnDispute(principal, params.id, body),
  );
};
