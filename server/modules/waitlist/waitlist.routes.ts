import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { joinWaitlistBody, waitlistEntry, waitlistIdParams, waitlistResponse } from '#common/contract/waitlist.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** The diner's waitlist: join, list (with live offers), leave. */
export const waitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  const { waitlist } = app.services;
  const tags = ['waitlist'];

  app.post(
    '/api/waitlist',
    {
      schema: {
        operationId: 'joinWaitlist',
        security: bearerAccess,
        tags,
        summary:
          'Join the waitlist for a restaurant, date, party size and time window; freed covers are offered to the longest-waiting match as a 10-minute hold',
        body: joinWaitlistBody,
        response: { 201: waitlistEntry, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => reply.code(201).send(await waitlist.joinWaitlist(await request.principal(), request.body)),
  );

  app.get(
    '/api/waitlist',
    {
      schema: {
        operationId: 'listMyWaitlist',
        security: bearerAccess,
        tags,
        summary: "The signed-in diner's waitlist entries and live offers",
        response: { 200: waitlistResponse, ...standardErrors },
      },
    },
    async (request) => waitlist.listMyWaitlist(await request.principal()),
  );

  app.delete(
    '/api/waitlist/:id',
    {
      schema: {
        operationId: 'leaveWaitlist',
        security: bearerAccess,
        tags,
        summary: 'Leave the waitlist; a live offer is let go and passes to the next in line',
        params: waitlistIdParams,
        response: { 200: waitlistEntry, ...standardErrors },
      },
    },
    async (request) => waitlist.leaveWaitlist(await request.principal(), request.params.id),
  );
};
