import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { datePartnerProfile, datePartnerSetting } from '#common/contract/dating.ts';
import { adminDate, adminDatesQuery, adminDatesResponse, dateArrivalBody, dateArrivalParams, datePlanParams } from '#common/contract/dating-plans.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';
import { notStored } from '#server/no-store.ts';

/** The staff's side of dating: whether their restaurant hosts Tablefair dates (decision 183). */
export const datingAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { datingPartners, datePlans } = app.services;
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

  app.get(
    '/api/admin/dates',
    {
      schema: {
        operationId: 'listTablefairDates',
        tags,
        summary: 'The Tablefair dates booked at the signed-in staff’s restaurant on a day: party of 2, both first names, who has arrived',
        security: bearerAccess,
        querystring: adminDatesQuery,
        response: { 200: adminDatesResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => notStored(reply, await datePlans.listDatesOfDay(await request.principal(), request.query.date)),
  );

  app.post(
    '/api/admin/dates/:planId/arrivals',
    {
      schema: {
        operationId: 'markDateArrival',
        tags,
        summary: 'One member of a Tablefair date is at the table; the second arrival seats it and turns both deposits into credit on the bill',
        security: bearerAccess,
        params: datePlanParams,
        body: dateArrivalBody,
        response: { 200: adminDate, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => datePlans.markArrival(await request.principal(), request.params.planId, request.body.memberId),
  );

  app.delete(
    '/api/admin/dates/:planId/arrivals/:memberId',
    {
      schema: {
        operationId: 'undoDateArrival',
        tags,
        summary: 'An arrival marked by mistake, undone within 10 minutes while the other member has not arrived',
        security: bearerAccess,
        params: dateArrivalParams,
        response: { 200: adminDate, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => datePlans.undoArrival(await request.principal(), request.params.planId, request.params.memberId),
  );
};
