import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyBody, standardErrors } from '#common/contract/common.ts';
import {
  floorAssignmentParams,
  floorLive,
  floorLiveQuery,
  floorParty,
  floorReservationParams,
  moveFloorPartyBody,
  seatBookingBody,
  seatWalkInBody,
} from '#common/contract/floor-live.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';
import { adminBooking } from '#common/contract/portal.ts';

/** The host view (decision 245): the floor now, and the host's seat, walk-in, move, finish and no-show. */
export const floorLiveAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { floorLive: live } = app.services;
  const tags = ['portal'];

  app.get(
    '/api/admin/floor/live',
    {
      schema: {
        operationId: 'getFloorLive',
        security: bearerAccess,
        tags,
        summary: 'Every table’s state now (free, reserved, running late, seated, to clear) and the day’s parties per table (today by default)',
        querystring: floorLiveQuery,
        response: { 200: floorLive, ...standardErrors },
      },
    },
    async (request) => live.getFloorLive(await request.principal(), request.query.date),
  );

  app.post(
    '/api/admin/floor/live/bookings/:reservationId/seat',
    {
      schema: {
        operationId: 'seatBooking',
        security: bearerAccess,
        tags,
        summary: 'Seat an accepted booking now, at its table or at other tables free for its turn',
        params: floorReservationParams,
        body: seatBookingBody,
        response: { 200: floorParty, ...standardErrors },
      },
    },
    async (request) => live.seatBooking(await request.principal(), request.params.reservationId, request.body),
  );

  app.post(
    '/api/admin/floor/live/bookings/:reservationId/no-show',
    {
      schema: {
        operationId: 'markFloorNoShow',
        security: bearerAccess,
        tags,
        summary: 'Mark an accepted booking a no-show (15 minutes after its time; the deposit policy and strike apply)',
        params: floorReservationParams,
        body: emptyBody,
        response: { 200: adminBooking, ...standardErrors },
      },
    },
    async (request) => live.markNoShow(await request.principal(), request.params.reservationId),
  );

  app.post(
    '/api/admin/floor/live/walk-ins',
    {
      schema: {
        operationId: 'seatWalkIn',
        security: bearerAccess,
        tags,
        summary: 'Seat a walk-in now at tables free for its whole turn (online availability drops with it)',
        body: seatWalkInBody,
        response: { 201: floorParty, ...standardErrors },
      },
    },
    async (request, reply) => reply.code(201).send(await live.seatWalkIn(await request.principal(), request.body)),
  );

  app.post(
    '/api/admin/floor/live/parties/:assignmentId/move',
    {
      schema: {
        operationId: 'moveFloorParty',
        security: bearerAccess,
        tags,
        summary: 'Move a party, seated or expected, to other tables free for the rest of its turn',
        params: floorAssignmentParams,
        body: moveFloorPartyBody,
        response: { 200: floorParty, ...standardErrors },
      },
    },
    async (request) => live.moveParty(await request.principal(), request.params.assignmentId, request.body),
  );

  app.post(
    '/api/admin/floor/live/parties/:assignmentId/finish',
    {
      schema: {
        operationId: 'finishFloorParty',
        security: bearerAccess,
        tags,
        summary: 'The party has left: the table is free now and the rest of its turn is offered to the waitlist first',
        params: floorAssignmentParams,
        body: emptyBody,
        response: { 200: floorParty, ...standardErrors },
      },
    },
    async (request) => live.finishParty(await request.principal(), request.params.assignmentId),
  );
};
