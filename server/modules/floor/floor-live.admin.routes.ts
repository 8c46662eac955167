import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyBody } from '#common/contract/common.ts';
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
import { adminBooking } from '#common/contract/portal.ts';
import { staffRoute } from '#server/staff-route.ts';

/** The host view (decision 245): the floor now, and the host's seat, walk-in, move, finish and no-show. */
export const floorLiveAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { floorLive: live } = app.services;

  staffRoute(
    app,
    'GET',
    '/api/admin/floor/live',
    {
      operationId: 'getFloorLive',
      summary: 'Every table’s state now (free, reserved, running late, seated, to clear) and the day’s parties per table (today by default)',
      querystring: floorLiveQuery,
      reply: floorLive,
    },
    (principal, { query }) => live.getFloorLive(principal, query.date),
  );

  staffRoute(
    app,
    'POST',
    '/api/admin/floor/live/bookings/:reservationId/seat',
    {
      operationId: 'seatBooking',
      summary: 'Seat an accepted booking now, at its table or at other tables free for its turn',
      params: floorReservationParams,
      body: seatBookingBody,
      reply: floorParty,
    },
    (principal, { params, body }) => live.seatBooking(principal, params.reservationId, body),
  );

  staffRoute(
    app,
    'POST',
    '/api/admin/floor/live/bookings/:reservationId/no-show',
    {
      operationId: 'markFloorNoShow',
      summary: 'Mark an accepted booking a no-show (15 minutes after its time; the deposit policy and strike apply)',
      params: floorReservationParams,
      body: emptyBody,
      reply: adminBooking,
    },
    (principal, { params }) => live.markNoShow(principal, params.reservationId),
  );

  staffRoute(
    app,
    'POST',
    '/api/admin/floor/live/walk-ins',
    {
      operationId: 'seatWalkIn',
      summary: 'Seat a walk-in now at tables free for its whole turn (online availability drops with it)',
      body: seatWalkInBody,
      reply: floorParty,
      status: 201,
    },
    (principal, { body }) => live.seatWalkIn(principal, body),
  );

  staffRoute(
    app,
    'POST',
    '/api/admin/floor/live/parties/:assignmentId/move',
    {
      operationId: 'moveFloorParty',
      summary: 'Move a party, seated or expected, to other tables free for the rest of its turn',
      params: floorAssignmentParams,
      body: moveFloorPartyBody,
      reply: floorParty,
    },
    (principal, { params, body }) => live.moveParty(principal, params.assignmentId, body),
  );

  staffRoute(
    app,
    'POST',
    '/api/admin/floor/live/parties/:assignmentId/finish',
    {
      operationId: 'finishFloorParty',
      summary: 'The party has left: the table is free now and the rest of its turn is offered to the waitlist first',
      params: floorAssignmentParams,
      body: emptyBody,
      reply: floorParty,
    },
    (principal, { params }) => live.finishParty(principal, params.assignmentId),
  );
};
