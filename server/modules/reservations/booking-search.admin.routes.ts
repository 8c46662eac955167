import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bookingSearchQuery, bookingSearchResponse } from '#common/contract/booking-search.ts';
import { standardErrors } from '#common/contract/common.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** Find a booking (decision 236): the staff's own restaurant's bookings, any date. */
export const bookingSearchAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { bookingSearch } = app.services;
  app.get(
    '/api/admin/bookings/search',
    {
      schema: {
        operationId: 'searchBookings',
        security: bearerAccess,
        tags: ['portal'],
        summary: 'Find bookings by guest name, phone (4 digits or more) or booking code, any date: upcoming first, at most 50',
        querystring: bookingSearchQuery,
        response: { 200: bookingSearchResponse, ...standardErrors },
      },
    },
    async (request) => bookingSearch.searchBookings(await request.principal(), request.query.q),
  );
};
