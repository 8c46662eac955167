import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { datePartnerProfile, datePartnerSetting } from '#common/contract/dating.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** The staff's side of dating: whether their restaurant hosts Tablefair dates (decision 183). */
export const datingAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { datingPartners } = app.services;
  const tags = ['portal'];

  app.get(
    '/api/admin/date-partner',
    {
      schema: {
        operationId: 'getDatePartner',
        tags,
        summary: 'Whether the signed-in staff’s restaurant hosts Tablefair dates, and its date-partner profile',
        security: bearerAccess,
        response: { 200: datePartnerSetting, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => datingPartners.getOwn(await request.principal()),
  );

  app.put(
    '/api/admin/date-partner',
    {
      schema: {
        operationId: 'saveDatePartner',
        tags,
        summary: 'Host Tablefair dates at the signed-in staff’s restaurant, or change its date-partner profile',
        security: bearerAccess,
        body: datePartnerProfile,
        response: { 200: datePartnerSetting, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => datingPartners.saveOwn(await request.principal(), request.body),
  );

  app.delete(
    '/api/admin/date-partner',
    {
      schema: {
        operationId: 'leaveDatePartners',
        tags,
        summary: 'Stop hosting Tablefair dates at the signed-in staff’s restaurant',
        security: bearerAccess,
        response: { 200: datePartnerSetting, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => datingPartners.leave(await request.principal()),
  );
};
