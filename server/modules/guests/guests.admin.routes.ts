import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { standardErrors } from '#common/contract/common.ts';
import { briefQuery, guestCard, guestCardParams, guestList, guestListQuery, guestNotesBody, guestParams, tonightsBrief } from '#common/contract/guests.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** Knowing your guests, the staff's side (decisions 261–265): one restaurant's guests only; any other is not found. */
export const guestsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { guests } = app.services;

  app.get(
    '/api/admin/guests',
    {
      schema: {
        operationId: 'listGuests',
        security: bearerAccess,
        tags: ['portal'],
        summary: 'The guest list: search by name, phone or email; filter by tag, last visit and visits; most recent visit first, at most 200',
        querystring: guestListQuery,
        response: { 200: guestList, ...standardErrors },
      },
    },
    async (request) => guests.listGuests(await request.principal(), request.query),
  );

  app.get(
    '/api/admin/guests.csv',
    {
      schema: {
        operationId: 'exportGuestsCsv',
        security: bearerAccess,
        tags: ['portal'],
        summary: 'The guest list with the same search and filters, as a CSV safe to open in a spreadsheet',
        querystring: guestListQuery,
        response: { 200: z.string().describe('text/csv'), ...standardErrors },
      },
    },
    async (request, reply) => {
      const csv = await guests.exportGuestsCsv(await request.principal(), request.query);
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="guests.csv"').send(csv);
    },
  );

  app.get(
    '/api/admin/guests/brief',
    {
      schema: {
        operationId: 'getTonightsBrief',
        security: bearerAccess,
        tags: ['portal'],
        summary: "Tonight's brief: a date's arrivals by time (today in Kolkata by default), with party, table, tags, requests and allergies",
        querystring: briefQuery,
        response: { 200: tonightsBrief, ...standardErrors },
      },
    },
    async (request) => guests.getTonightsBrief(await request.principal(), request.query.date),
  );

  app.get(
    '/api/admin/guest-cards/:reservationId',
    {
      schema: {
        operationId: 'getGuestCard',
        security: bearerAccess,
        tags: ['portal'],
        summary: "The guest card of one of this restaurant's bookings: visits, no-shows and late cancels here, requests, tags and note",
        params: guestCardParams,
        response: { 200: guestCard, ...standardErrors },
      },
    },
    async (request) => guests.getGuestCard(await request.principal(), request.params.reservationId),
  );

  app.get(
    '/api/admin/guests/:guestId',
    {
      schema: {
        operationId: 'getGuest',
        security: bearerAccess,
        tags: ['portal'],
        summary: 'One guest of this restaurant, as on the guest card',
        params: guestParams,
        response: { 200: guestCard, ...standardErrors },
      },
    },
    async (request) => guests.getGuest(await request.principal(), request.params.guestId),
  );

  app.put(
    '/api/admin/guests/:guestId/notes',
    {
      schema: {
        operationId: 'saveGuestNotes',
        security: bearerAccess,
        tags: ['portal'],
        summary:
          "The restaurant's own tags (VIP, regular, allergy, celebrating) and note (at most 500 characters) about a guest; no other restaurant sees them",
        params: guestParams,
        body: guestNotesBody,
        response: { 200: guestCard, ...standardErrors },
      },
    },
    async (request) => guests.saveGuestNotes(await request.principal(), request.params.guestId, request.body),
  );
};
