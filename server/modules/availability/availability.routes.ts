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
import { JSON_CONTENT_TYPE, sendText } from '#server/http-compression.ts';
import { anonymous } from '#server/modules/accounts/principal.ts';
import { checkAvailabilityQuery, checkRestaurantKey, fastChecksFirst } from './public-read-checks.ts';

/** The routes' patterns, as Fastify, the metrics and the access line name them. */
const AVAILABILITY_ROUTE = '/api/restaurants/:slug/availability';
const CALENDAR_ROUTE = '/api/restaurants/:slug/calendar';
/**
 * Availability and the calendar: public and answered from memory (decision 186), so no cookie,
 * session or async context. Their kept answers are also sent before routing (decision 285), which
 * refuses a config with hooks that an early answer skips.
 */
const KEPT_READ_CONFIG = { publicRead: true };

export const availabilityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { availability } = app.services;
  // A URL answered here once is answered before routing while its answer stays kept (decision 285).
  const earlyAvailability = app.earlyAnswers.route(
    AVAILABILITY_ROUTE,
    KEPT_READ_CONFIG,
    ({ slug, date, partySize }: { slug: string; date: string; partySize: number }) => availability.keptAvailabilityJson(slug, date, partySize),
  );
  const earlyCalendar = app.earlyAnswers.route(CALENDAR_ROUTE, KEPT_READ_CONFIG, ({ slug }: { slug: string }) => availability.keptCalendarJson(slug));

  app.get(
    AVAILABILITY_ROUTE,
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
      // The usual query is checked without Zod (anything else goes to Zod, for the same 400s), and
      // the answer is sent as JSON text put together from pieces kept per date (decision 186).
      config: KEPT_READ_CONFIG,
      validatorCompiler: fastChecksFirst({ params: checkRestaurantKey, querystring: checkAvailabilityQuery }),
      // Almost every answer is under the compression threshold: the handler compresses the rare
      // larger one itself, so the rest skip @fastify/compress's per-request negotiation.
      compress: false,
    },
    async (request, reply) => {
      const { slug } = request.params;
      const { date, partySize } = request.query;
      // An answer already kept is sent without awaiting the memory's lookups (decision 238); else it is worked out.
      const json = availability.keptAvailabilityJson(slug, date, partySize) ?? (await availability.getAvailabilityJson(slug, date, partySize));
      earlyAvailability.learn(request.raw.url, { slug, date, partySize });
      return sendText(request, reply.type(JSON_CONTENT_TYPE), json);
    },
  );

  app.get(
    CALENDAR_ROUTE,
    {
      schema: {
        operationId: 'getAvailabilityCalendar',
        security: publicAccess,
        tags: ['availability'],
        summary: 'For each of the next 30 days, which party sizes (2/4/6/8) have a free time',
        params: restaurantKeyParams,
        response: { 200: availabilityCalendar, ...standardErrors },
      },
      config: KEPT_READ_CONFIG,
      validatorCompiler: fastChecksFirst({ params: checkRestaurantKey }),
      compress: false,
    },
    async (request, reply) => {
      const { slug } = request.params;
      const json = availability.keptCalendarJson(slug) ?? (await availability.getCalendarJson(slug));
      earlyCalendar.learn(request.raw.url, { slug });
      return sendText(request, reply.type(JSON_CONTENT_TYPE), json);
    },
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
      config: { etag: true, sharedAnswerSeconds: TODAY_ANSWER_SECONDS, publicRead: true },
    },
    async (request) => availability.listAvailableToday(anonymous, request.query),
  );
};
