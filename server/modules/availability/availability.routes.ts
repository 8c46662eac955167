import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import {
  availabilityCalendar,
  availabilityQuery,
  availabilityResponse,
  availableTodayQuery,
  availableTodayResponse,
  restaurantKeyParams,
} from '#common/contract/restaurants.ts';
import { TODAY_ANSWER_SECONDS } from './availability.service.ts';
import { publicAccess } from '#common/contract/openapi-security.ts';

export const availabilityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { availability } = app.services;

  app.get(
    '/api/restaurants/:slug/availability',
    {
      schema: {
        operationId: 'getAvailability',
        security: publicAccess,
        tags: ['availability'],
        summary: 'Slots of a date, each available or not for the party size',
        params: restaurantKeyParams,
        querystring: availabilityQuery,
        response: { 200: availabilityResponse, ...standardErrors },
      },
    },
    async (request) => availability.getAvailability(await request.principal(), request.params.slug, request.query.date, request.query.partySize),
  );

  app.get(
    '/api/restaurants/:slug/calendar',
    {
      schema: {
        operationId: 'getAvailabilityCalendar',
        security: publicAccess,
        tags: ['availability'],
        summary: 'For each of the next 30 days, which party sizes (2/4/6/8) have a free time',
        params: restaurantKeyParams,
        response: { 200: availabilityCalendar, ...standardErrors },
      },
    },
    async (request) => availability.getCalendar(await request.principal(), request.params.slug),
  );

  app.get(
    '/api/discover/available-today',
    {
      schema: {
        operationId: 'listAvailableToday',
        security: publicAccess,
        tags: ['availability'],
        summary: 'Restaurants with a free time in the next 24 hours (Kolkata), with those times; optionally a neighbourhood first and only the first N',
        querystring: availableTodayQuery,
        response: { 200: availableTodayResponse, ...standardErrors },
      },
      // The 24-hour window moves with the clock, so a kept answer is rebuilt at least every 15 seconds.
      config: { etag: true, sharedAnswerSeconds: TODAY_ANSWER_SECONDS },
    },
    async (request) => availability.listAvailableToday(await request.principal(), request.query),
  );
};
