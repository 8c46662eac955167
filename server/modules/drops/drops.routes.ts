import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { dropDetail, dropDrawAudit, dropIdParams, dropList, enterDropBody } from '#common/contract/drops.ts';
import { bearerAccess, optionalBearerAccess, publicAccess } from '#common/contract/openapi-security.ts';

/** Drops for diners (/api/drops); the staff's are in drops.admin.routes.ts. */
export const dropsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { drops } = app.services;
  const tags = ['drops'];

  app.get(
    '/api/drops',
    {
      schema: {
        operationId: 'listDrops',
        security: publicAccess,
        tags,
        summary: 'Every drop citywide: open (closing soonest first), upcoming and past',
        response: { 200: dropList, ...standardErrors },
      },
    },
    async (request) => drops.listDrops(await request.principal()),
  );

  app.get(
    '/api/drops/:id',
    {
      schema: {
        operationId: 'getDrop',
        security: optionalBearerAccess,
        tags,
        summary: "One drop: its window (countdown targets and serverTime), slots, and with a diner token the diner's entry and result",
        params: dropIdParams,
        response: { 200: dropDetail, ...standardErrors },
      },
    },
    async (request) => drops.getDrop(await request.principal(), request.params.id),
  );

  app.post(
    '/api/drops/:id/entries',
    {
      schema: {
        operationId: 'enterDrop',
        security: bearerAccess,
        tags,
        summary: 'Enter the drop with a party size: inside the entry window, with a verified phone, once per account and per phone',
        params: dropIdParams,
        body: enterDropBody,
        response: { 201: dropDetail, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => reply.code(201).send(await drops.enterDrop(await request.principal(), request.params.id, request.body)),
  );

  app.delete(
    '/api/drops/:id/entries',
    {
      schema: {
        operationId: 'withdrawDropEntry',
        security: bearerAccess,
        tags,
        summary: "Withdraw the caller's entry: before the draw it is removed; after it, the caller leaves the line",
        params: dropIdParams,
        response: { 200: dropDetail, ...standardErrors },
      },
    },
    async (request) => drops.leaveDrop(await request.principal(), request.params.id),
  );

  app.get(
    '/api/drops/:id/draw',
    {
      schema: {
        operationId: 'getDropDraw',
        security: publicAccess,
        tags,
        summary: 'The draw, for audit: seed, algorithm and the drawn order of entry ids (recompute with drawOrder(seed, entryIds))',
        params: dropIdParams,
        response: { 200: dropDrawAudit, ...standardErrors },
      },
    },
    async (request) => drops.getDrawAudit(await request.principal(), request.params.id),
  );
};
