import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { depositDayQuery, depositDayResponse, myDepositsResponse } from '#common/contract/deposit-receipts.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** Deposits as the diner (/me) and the portal's day see them. */
export const depositsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deposits } = app.services;

  app.get(
    '/api/me/deposits',
    {
      schema: {
        operationId: 'listMyDeposits',
        security: bearerAccess,
        tags: ['reservations'],
        summary: "The diner's deposits, each with its receipt (held, credit at the table, released, kept, refunded)",
        response: { 200: myDepositsResponse, ...standardErrors },
      },
    },
    async (request) => deposits.listMyDeposits(await request.principal()),
  );

  app.get(
    '/api/admin/deposits',
    {
      schema: {
        operationId: 'listDeposits',
        security: bearerAccess,
        tags: ['portal'],
        summary: "A day's deposits: each booking's deposit state and the totals held, captured and released",
        querystring: depositDayQuery,
        response: { 200: depositDayResponse, ...standardErrors },
      },
    },
    async (request) => deposits.depositDay(await request.principal(), request.query.date),
  );
};
