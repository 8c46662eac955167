import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, standardErrors } from '#common/contract/common.ts';
import { ledgerMonthQuery } from '#common/contract/deposit-receipts.ts';
import {
  paymentIntent,
  paymentIntentList,
  paymentIntentParams,
  sandboxDecision,
  sandboxPayment,
  webhookAnswer,
  webhookParams,
} from '#common/contract/payments.ts';
import { bearerAccess, publicAccess } from '#common/contract/openapi-security.ts';

/**
 * Payments over HTTP: the provider's webhooks (raw body, for the signature), a diner's or staff's
 * view of their intents, and the sandbox gateway's approval calls.
 */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { payments } = app.services;
  const tags = ['payments'];

  // Webhooks in their own scope: the body stays the exact bytes the provider signed.
  await app.register(async (scope) => {
    const webhooks = scope.withTypeProvider<ZodTypeProvider>();
    webhooks.removeAllContentTypeParsers();
    webhooks.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
    webhooks.post(
      '/api/payments/webhooks/:provider',
      {
        schema: {
          operationId: 'receivePaymentWebhook',
          security: publicAccess,
          tags,
          summary: "A payment provider's signed webhook: a bad signature is refused (400); a repeated event changes nothing (200)",
          params: webhookParams,
          response: { 200: webhookAnswer, 400: errorResponse, 404: errorResponse },
        },
      },
      async (request) => {
        const rawBody = typeof request.body === 'string' ? request.body : '';
        const outcome = await payments.receiveWebhook(request.params.provider, rawBody, request.headers);
        return { ok: true as const, outcome };
      },
    );
  });

  app.get(
    '/api/payments/intents',
    {
      schema: {
        operationId: 'listPayments',
        security: bearerAccess,
        tags,
        summary: "The caller's payments (a restaurant's, for its staff)",
        response: { 200: paymentIntentList, ...standardErrors },
      },
    },
    async (request) => payments.listForAccount(await request.principal()),
  );

  app.get(
    '/api/admin/ledger.csv',
    {
      schema: {
        operationId: 'downloadLedgerCsv',
        security: bearerAccess,
        tags,
        summary: "The staff's restaurant's ledger lines posted in a month (Kolkata), as a CSV download with formula-safe cells",
        querystring: ledgerMonthQuery,
        response: { 200: z.string().describe('text/csv'), ...standardErrors },
      },
    },
    async (request, reply) => {
      const csv = await payments.ledgerCsv(await request.principal(), request.query.month);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="ledger-${request.query.month}.csv"`)
        .send(csv);
    },
  );

  app.get(
    '/api/admin/statement.csv',
    {
      schema: {
        operationId: 'downloadDepositStatementCsv',
        security: bearerAccess,
        tags,
        summary:
          "The staff's restaurant's deposit statement for bookings in a month (Kolkata): date, guest, booking, deposit, held, kept, released, credited and refunded in rupees, paid at in IST",
        querystring: ledgerMonthQuery,
        response: { 200: z.string().describe('text/csv'), ...standardErrors },
      },
    },
    async (request, reply) => {
      const csv = await payments.statementCsv(await request.principal(), request.query.month);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="deposit-statement-${request.query.month}.csv"`)
        .send(csv);
    },
  );

  app.get(
    '/api/payments/intents/:id',
    {
      schema: {
        operationId: 'getPayment',
        security: bearerAccess,
        tags,
        summary: 'One payment, for its owner or the restaurant’s staff',
        params: paymentIntentParams,
        response: { 200: paymentIntent, ...standardErrors },
      },
    },
    async (request) => payments.getIntent(request.params.id, await request.principal()),
  );

  if (payments.sandbox) {
    const sandbox = payments.sandbox;
    // The sandbox gateway delivers its webhooks through the same route a real provider calls.
    sandbox.connect((delivery) => app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: delivery.headers, payload: delivery.rawBody }));
    // A delayed webhook must not call a closed app (Fastify refuses to reopen one).
    app.addHook('preClose', async () => sandbox.disconnect());

    app.get(
      '/api/payments/sandbox/:id',
      {
        schema: {
          operationId: 'getSandboxPayment',
          security: publicAccess,
          tags,
          summary: 'Sandbox gateway: what its approval page shows (amount and merchant only)',
          params: paymentIntentParams,
          response: { 200: sandboxPayment, ...standardErrors },
        },
      },
      async (request) => payments.sandboxPayment(request.params.id),
    );

    app.post(
      '/api/payments/sandbox/:id/decision',
      {
        schema: {
          operationId: 'decideSandboxPayment',
          security: publicAccess,
          tags,
          summary: 'Sandbox gateway: the diner approves or declines; the answer reaches payments later by signed webhook',
          params: paymentIntentParams,
          body: sandboxDecision,
          response: { 200: sandboxPayment, ...standardErrors },
        },
        config: { rateLimitGroup: 'booking' },
      },
      async (request) => payments.sandboxDecide(request.params.id, request.body),
    );
  }
};
