import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyBody, standardErrors } from '#common/contract/common.ts';
import { adminBooking, adminBookingsResponse, bookingIdParams, updateBookingBody, type PortalStreamEvent } from '#common/contract/portal.ts';
import { createEventStreams } from '#server/plugins/event-stream.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** The staff's bookings: the list with today's counts, the moves, and the live stream (/api/admin/bookings, /api/admin/events). */
export const reservationsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reservationsAdmin, deposits } = app.services;
  const tags = ['portal'];

  app.get(
    '/api/admin/bookings',
    {
      schema: {
        operationId: 'listBookings',
        security: bearerAccess,
        tags,
        summary: "Upcoming bookings and today's live counts",
        response: { 200: adminBookingsResponse, ...standardErrors },
      },
    },
    async (request) => reservationsAdmin.listBookings(await request.principal()),
  );

  app.patch(
    '/api/admin/bookings/:id',
    {
      schema: {
        operationId: 'moveBooking',
        security: bearerAccess,
        tags,
        summary: 'Move a booking: Confirm, Cancel, Seat, Complete or No-show (any other move answers 409)',
        params: bookingIdParams,
        body: updateBookingBody,
        response: { 200: adminBooking, ...standardErrors },
      },
    },
    async (request) => reservationsAdmin.moveBooking(await request.principal(), request.params.id, request.body.status),
  );

  app.post(
    '/api/admin/bookings/:id/waive-fee',
    {
      schema: {
        operationId: 'waiveBookingFee',
        security: bearerAccess,
        tags,
        summary: "Waive a late cancel's or a no-show's fee: what is still blocked is released, a fee taken is refunded (409 when there is none)",
        params: bookingIdParams,
        body: emptyBody,
        response: { 204: z.null(), ...standardErrors },
      },
    },
    async (request, reply) => {
      await deposits.waiveFee(await request.principal(), request.params.id);
      return reply.code(204).send(null);
    },
  );

  // Streams that are still open when the app closes are ended, so shutdown never waits on them.
  const openEventStream = createEventStreams(app);

  app.get(
    '/api/admin/events',
    {
      schema: {
        operationId: 'streamRestaurantEvents',
        security: bearerAccess,
        tags,
        summary:
          'Server-sent events: `booking` when a booking is created or moves, `slots` when capacity frees up, `floor` when the host changes the floor; a comment every 15 s',
        response: { 200: z.string().describe('text/event-stream'), ...standardErrors },
      },
    },
    async (request, reply) => {
      // The access check runs in subscribe, before any header is sent.
      const principal = await request.principal();
      await openEventStream<PortalStreamEvent>(reply, (send) => reservationsAdmin.subscribeToChanges(principal, send));
    },
  );
};
