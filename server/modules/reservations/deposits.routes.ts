import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { depositDayQuery, depositDayResponse, myDepositsResponse } from '#common/contract/deposit-receipts.ts';

/** Deposits as the diner (/me) and the portal's day see them. */
export const depositsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deposits } = app.services;
  const security = [{ bearer: [] }];

  app.get(
    '/api/me/deposits',
    {
      schema: {
        tags: ['reservations'],
        summary: "The diner's deposits, each with its receipt (held, credit at the table, released, kept, refunded)",
        security,
        response: { 200: myDepositsResponse, ...standardErrors },
      },
    },
    async (request) => deposits.listMyDeposits(await request.principal()),
  );

  app.get(
    '/api/admin/deposits',
    {
      schema: {
        tags: ['portal'],
        summary: "A day's deposits: each booking's deposit state and the totals held, captured and released",
        security,
        querystring: depositDayQuery,
        response: { 200: depositDayResponse, ...standardErrors },
      },
    },
    async (request) => deposits.depositDay(await request.principal(), request.query.date),
  );
};
