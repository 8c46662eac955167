import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyBody, standardErrors } from '#common/contract/common.ts';
import {
  confirmReservationResponse,
  createReservationBody,
  createReservationResponse,
  dinerReservation,
  reservationIdParams,
  reservationDetail,
  reservationList,
  reservationSummary,
  bookingRequest,
} from '#common/contract/reservations.ts';
import { bearerAccess, optionalBearerAccess } from '#common/contract/openapi-security.ts';

export const reservationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reservations, deposits } = app.services;

  app.post(
    '/api/reservations',
    {
      schema: {
        operationId: 'holdTable',
        security: bearerAccess,
        tags: ['reservations'],
        summary: 'Hold a table: a HELD reservation that must be confirmed before holdExpiresAt',
        body: createReservationBody,
        response: { 201: createReservationResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => {
      const reservation = await reservations.createReservation(await request.principal(), request.body);
      return reply.code(201).send(reservation);
    },
  );

  app.get(
    '/api/reservations',
    {
      schema: {
        operationId: 'listMyReservations',
        security: bearerAccess,
        tags: ['reservations'],
        summary: "The signed-in diner's reservations",
        response: { 200: reservationList, ...standardErrors },
      },
    },
    async (request) => reservations.listMyReservations(await request.principal()),
  );

  app.get(
    '/api/reservations/status',
    {
      schema: {
        operationId: 'countMyReservations',
        security: bearerAccess,
        tags: ['reservations'],
        summary: 'Counts: pending, ongoing, completed',
        response: { 200: reservationSummary, ...standardErrors },
      },
    },
    async (request) => reservations.getMySummary(await request.principal()),
  );

  app.get(
    '/api/reservations/:id',
    {
      schema: {
        operationId: 'getReservation',
        security: optionalBearerAccess,
        tags: ['reservations'],
        summary: 'One reservation by id, with its deposit requirement (no token needed; a token sent must be the owner’s)',
        params: reservationIdParams,
        response: { 200: reservationDetail, ...standardErrors },
      },
    },
    async (request) => reservations.getReservation(await request.principal(), request.params.id),
  );

  app.post(
    '/api/reservations/:id/confirm',
    {
      schema: {
        operationId: 'confirmReservation',
        security: optionalBearerAccess,
        tags: ['reservations'],
        summary:
          'Confirm a hold before it expires (HELD → PENDING). Where the slot asks a deposit, answers the payment to approve instead; the hold becomes PENDING once it is authorised. The id alone will do, a token sent must be the owner’s',
        params: reservationIdParams,
        body: emptyBody,
        response: { 200: confirmReservationResponse, ...standardErrors },
      },
    },
    async (request) => deposits.confirmHold(await request.principal(), request.params.id),
  );

  app.post(
    '/api/reservations/:id/cancel',
    {
      schema: {
        operationId: 'cancelReservation',
        security: optionalBearerAccess,
        tags: ['reservations'],
        summary: 'Cancel a hold (the id alone will do), or with the owner’s token a pending request or an accepted reservation at least 2 hours ahead',
        params: reservationIdParams,
        body: emptyBody,
        response: { 200: dinerReservation, ...standardErrors },
      },
    },
    async (request) => reservations.cancelReservation(await request.principal(), request.params.id),
  );

  app.put(
    '/api/reservations/:id/request',
    {
      schema: {
        operationId: 'setBookingRequest',
        security: optionalBearerAccess,
        tags: ['reservations'],
        summary:
          'Tell the restaurant an occasion, quick picks and a request (at most 200 characters), until the booking’s cut-off (409 after). The id alone will do for a hold; later, the owner’s token',
        params: reservationIdParams,
        body: bookingRequest,
        response: { 200: dinerReservation, ...standardErrors },
      },
    },
    async (request) => reservations.setBookingRequest(await request.principal(), request.params.id, request.body),
  );

  app.delete(
    '/api/reservations/:id/request',
    {
      schema: {
        operationId: 'removeBookingRequest',
        security: optionalBearerAccess,
        tags: ['reservations'],
        summary: 'Remove what the diner told the restaurant for this booking (any time). The id alone will do for a hold; later, the owner’s token',
        params: reservationIdParams,
        response: { 200: dinerReservation, ...standardErrors },
      },
    },
    async (request) => reservations.removeBookingRequest(await request.principal(), request.params.id),
  );
};
