import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { adminDropDetail, adminDropList, createDropBody, dropIdParams } from '#common/contract/drops.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** Drops for the restaurant's staff (/api/admin/drops). */
export const dropsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { dropsAdmin } = app.services;
  const tags = ['drops'];

  app.get(
    '/api/admin/drops',
    {
      schema: {
        operationId: 'listOwnDrops',
        security: bearerAccess,
        tags: ['portal', ...tags],
        summary: "The staff's own restaurant's drops",
        response: { 200: adminDropList, ...standardErrors },
      },
    },
    async (request) => dropsAdmin.listOwnDrops(await request.principal()),
  );

  app.post(
    '/api/admin/drops',
    {
      schema: {
        operationId: 'createDrop',
        security: bearerAccess,
        tags: ['portal', ...tags],
        summary:
          'Create a drop: slots for every date from dateFrom to dateTo × times, capacity covers each, hidden until releaseAt; entries from entryOpensAt to entryClosesAt',
        body: createDropBody,
        response: { 201: adminDropDetail, ...standardErrors },
      },
    },
    async (request, reply) => reply.code(201).send(await dropsAdmin.createDrop(await request.principal(), request.body)),
  );

  app.get(
    '/api/admin/drops/:id',
    {
      schema: {
        operationId: 'getOwnDrop',
        security: bearerAccess,
        tags: ['portal', ...tags],
        summary: 'One of the restaurant’s drops: slots, every entry with diner name, party size, position and result, and the seed after the draw',
        params: dropIdParams,
        response: { 200: adminDropDetail, ...standardErrors },
      },
    },
    async (request) => dropsAdmin.getOwnDrop(await request.principal(), request.params.id),
  );
};
