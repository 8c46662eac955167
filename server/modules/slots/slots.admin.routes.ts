import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { adminSlot, adminSlotList, adminSlotsQuery, bulkSlotsBody, bulkSlotsResponse, slotIdParams, updateSlotBody } from '#common/contract/portal.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** The staff's slots: /api/admin/slots. */
export const slotsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { slots } = app.services;
  const tags = ['portal'];

  app.get(
    '/api/admin/slots',
    {
      schema: {
        operationId: 'listSlots',
        security: bearerAccess,
        tags,
        summary: "A date's slots with covers booked",
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
        operationId: 'addSlotsInBulk',
        security: bearerAccess,
        tags,
        summary: 'Add a time every `interval` minutes from start to end (inclusive); existing times are skipped',
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
        operationId: 'updateSlot',
        security: bearerAccess,
        tags,
        summary: 'Set a slot available or full, and/or change its capacity (409 when bookings would be lost)',
        params: slotIdParams,
        body: updateSlotBody,
        response: { 200: adminSlot, ...standardErrors },
      },
    },
    async (request) => slots.updateSlot(await request.principal(), request.params.id, request.body),
  );

  app.delete(
    '/api/admin/slots/:id',
    {
      schema: {
        operationId: 'deleteSlot',
        security: bearerAccess,
        tags,
        summary: "Delete a time nobody has booked (409 with the reason when it has bookings or is a drop's)",
        params: slotIdParams,
        response: { 204: z.null(), ...standardErrors },
      },
    },
    async (request, reply) => {
      await slots.deleteSlot(await request.principal(), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
