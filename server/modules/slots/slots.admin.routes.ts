import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { adminSlot, adminSlotList, adminSlotsQuery, bulkSlotsBody, bulkSlotsResponse, slotIdParams, updateSlotBody } from '#common/contract/portal.ts';

/** The staff's slots: /api/admin/slots. */
export const slotsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { slots } = app.services;
  const bearer = [{ bearer: [] }];
  const tags = ['portal'];

  app.get(
    '/api/admin/slots',
    {
      schema: {
        tags,
        summary: "A date's slots with covers booked",
        security: bearer,
        querystring: adminSlotsQuery,
        response: { 200: adminSlotList, ...standardErrors },
      },
    },
    async (request) => slots.listSlots(await request.principal(), request.query.date),
  );

  app.post(
    '/api/admin/slots/bulk',
    {
      schema: {
        tags,
        summary: 'Add a time every `interval` minutes from start to end (inclusive); existing times are skipped',
        security: bearer,
        body: bulkSlotsBody,
        response: { 201: bulkSlotsResponse, ...standardErrors },
      },
    },
    async (request, reply) => reply.code(201).send(await slots.addSlots(await request.principal(), request.body)),
  );

  app.patch(
    '/api/admin/slots/:id',
    {
      schema: {
        tags,
        summary: 'Set a slot available or full',
        security: bearer,
        params: slotIdParams,
        body: updateSlotBody,
        response: { 200: adminSlot, ...standardErrors },
      },
    },
    async (request) => slots.setSlotStatus(await request.principal(), request.params.id, request.body.status),
  );
};
