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

/** The availability route's pattern, as Fastify, the metrics and the access line name it. */
const AVAILABILITY_ROUTE = '/api/restaurants/:slug/availability';
/**
 * Public and answered from memory (decision 186): no cookie, session or async context. Its kept
 * answers are also sent before routing (decision 285), which refuses a config whose hooks that skips.
 */
const AVAILABILITY_CONFIG = { publicRead: true };

export const availabilityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { availability } = app.services;
  // A URL answered here once is answered before routing while its answer stays kept (decision 285).
  const early = app.earlyAnswers.route(
    AVAILABILITY_ROUTE,
    AVAILABILITY_CONFIG,
    ({ slug, date, partySize }: { slug: string; date: string; partySize: number }) => availability.keptAvailabilityJson(slug, date, partySize),
  );

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
      config: AVAILABILITY_CONFIG,
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
      early.learn(request.raw.url, { slug, date, partySize });
      return sendText(request, reply.type(JSON_CONTENT_TYPE), json);
    },
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
      config: { publicRead: true },
      validatorCompiler: fastChecksFirst({ params: checkRestaurantKey }),
      compress: false,
    },
    async (request, reply) => sendText(request, reply.type(JSON_CONTENT_TYPE), await availability.getCalendarJson(request.params.slug)),
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
