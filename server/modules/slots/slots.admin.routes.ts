import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminSlot, adminSlotList, adminSlotsQuery, bulkSlotsBody, bulkSlotsResponse, slotIdParams, updateSlotBody } from '#common/contract/portal.ts';
import { staffRoute } from '#server/staff-route.ts';

/** The staff's slots: /api/admin/slots. */
export const slotsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { slots } = app.services;

  staffRoute(
    app,
    'GET',
    '/api/admin/slots',
    { operationId: 'listSlots', summary: "A date's slots with covers booked", querystring: adminSlotsQuery, reply: adminSlotList },
    (principal, { query }) => slots.listSlots(principal, query.date),
  );

  staffRoute(
    app,
    'POST',
    '/api/admin/slots/bulk',
    {
      operationId: 'addSlotsInBulk',
      summary: 'Add a time every `interval` minutes from start to end (inclusive); existing times are skipped',
      body: bulkSlotsBody,
      reply: bulkSlotsResponse,
      status: 201,
    },
    (principal, { body }) => slots.addSlots(principal, body),
  );

  staffRoute(
    app,
    'PATCH',
    '/api/admin/slots/:id',
    {
      operationId: 'updateSlot',
      summary: 'Set a slot available or full, and/or change its capacity (409 when bookings would be lost)',
      params: slotIdParams,
      body: updateSlotBody,
      reply: adminSlot,
    },
    (principal, { params, body }) => slots.updateSlot(principal, params.id, body),
  );

  staffRoute(
    app,
    'DELETE',
    '/api/admin/slots/:id',
    {
      operationId: 'deleteSlot',
      summary: "Delete a time nobody has booked (409 with the reason when it has bookings or is a drop's)",
      params: slotIdParams,
      reply: z.null(),
      status: 204,
    },
    async (principal, { params }) => {
      await slots.deleteSlot(principal, params.id);
      return null;
    },
  );
};
