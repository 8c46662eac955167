import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { adminDropDetail, adminDropList, createDropBody, dropIdParams } from '#common/contract/drops.ts';

/** Drops for the restaurant's staff (/api/admin/drops). */
export const dropsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { dropsAdmin } = app.services;
  const bearer = [{ bearer: [] }];
  const tags = ['drops'];

  app.get(
    '/api/admin/drops',
    {
      schema: {
        tags: ['portal', ...tags],
        summary: "The staff's own restaurant's drops",
        security: bearer,
        response: { 200: adminDropList, ...standardErrors },
      },
    },
    async (request) => dropsAdmin.listOwnDrops(await request.principal()),
  );

  app.post(
    '/api/admin/drops',
    {
      schema: {
        tags: ['portal', ...tags],
        summary:
          'Create a drop: slots for every date from dateFrom to dateTo × times, capacity covers each, hidden until releaseAt; entries from entryOpensAt to entryClosesAt',
        security: bearer,
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
        tags: ['portal', ...tags],
        summary: 'One of the restaurant’s drops: slots, every entry with diner name, party size, position and result, and the seed after the draw',
        security: bearer,
        params: dropIdParams,
        response: { 200: adminDropDetail, ...standardErrors },
      },
    },
    async (request) => dropsAdmin.getOwnDrop(await request.principal(), request.params.id),
  );
};
