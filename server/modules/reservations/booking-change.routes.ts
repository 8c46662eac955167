import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bookingChangeView, changeBookingBody, changeBookingResponse, changeTerms, changeTermsQuery } from '#common/contract/booking-change.ts';
import { standardErrors } from '#common/contract/common.ts';
import { reservationIdParams } from '#common/contract/reservations.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** A diner changes a booking's time or party size (decisions 280-284). */
export const bookingChangeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { bookingChanges } = app.services;

  app.get(
    '/api/reservations/:id/change-terms',
    {
      schema: {
        operationId: 'previewBookingChange',
        security: bearerAccess,
        tags: ['reservations'],
        summary: 'What changing the booking to this time and party would cost or release, checked as the change would be; nothing is taken',
        params: reservationIdParams,
        querystring: changeTermsQuery,
        response: { 200: changeTerms, ...standardErrors },
      },
    },
    async (request) => bookingChanges.previewChange(await request.principal(), request.params.id, request.query),
  );

  app.post(
    '/api/reservations/:id/change',
    {
      schema: {
        operationId: 'changeBooking',
        security: bearerAccess,
        tags: ['reservations'],
        summary:
          'Change a booking to another time and/or party size at the same restaurant, atomically. When the change asks an extra deposit, answers the payment to approve; the booking keeps its old terms until it is authorised',
        params: reservationIdParams,
        body: changeBookingBody,
        response: { 200: changeBookingResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => bookingChanges.changeBooking(await request.principal(), request.params.id, request.body),
  );

  app.get(
    '/api/reservations/:id/changes',
    {
      schema: {
        operationId: 'listBookingChanges',
        security: bearerAccess,
        tags: ['reservations'],
        summary: "The booking's changes, oldest first",
        params: reservationIdParams,
        response: { 200: z.array(bookingChangeView), ...standardErrors },
      },
    },
    async (request) => bookingChanges.listChangesAsDiner(await request.principal(), request.params.id),
  );
};
