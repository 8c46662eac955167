import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyBody, standardErrors } from '#common/contract/common.ts';
import { bearerAccess, publicAccess } from '#common/contract/openapi-security.ts';
import { calendarLink, linkTokenParams, reminderLinkView } from '#common/contract/reminders.ts';
import { reservationIdParams } from '#common/contract/reservations.ts';
import { notStored } from '#server/no-store.ts';

/**
 * The diner's side of reminders (decisions 151, 152): the one-tap links, which need no sign-in because the
 * signed link is the access (decision 152), and the calendar file (decision 151).
 */
export const remindersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reminders } = app.services;
  const tags = ['reminders'];

  app.get(
    '/api/reminder-links/:token',
    {
      schema: {
        operationId: 'readReminderLink',
        tags,
        summary: "What a reminder's link will do (or did): reading it changes nothing, so a mail scanner opening it is harmless",
        security: publicAccess,
        params: linkTokenParams,
        response: { 200: reminderLinkView, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => notStored(reply, await reminders.readLink(request.params.token)),
  );

  app.post(
    '/api/reminder-links/:token',
    {
      schema: {
        operationId: 'answerReminderLink',
        tags,
        summary: "The diner's answer from a reminder: I'm coming, or Release my table (which offers it to the waitlist)",
        description: 'Only a link in the ready state changes anything; otherwise the answer says where the reservation stands.',
        security: publicAccess,
        params: linkTokenParams,
        body: emptyBody,
        response: { 200: reminderLinkView, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => reminders.answerLink(request.params.token),
  );

  app.get(
    '/api/calendar/:token',
    {
      schema: {
        operationId: 'getCalendarFile',
        tags,
        summary: 'A reservation as an RFC 5545 calendar file: a higher SEQUENCE after each change, METHOD:CANCEL once cancelled',
        security: publicAccess,
        params: linkTokenParams,
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => {
      const file = await reminders.calendarFile(request.params.token);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );

  app.get(
    '/api/reservations/:id/calendar-link',
    {
      schema: {
        operationId: 'getCalendarLink',
        tags,
        summary: "The signed address of the signed-in diner's reservation as a calendar file",
        security: bearerAccess,
        params: reservationIdParams,
        response: { 200: calendarLink, ...standardErrors },
      },
    },
    async (request) => reminders.calendarLinkForDiner(await request.principal(), request.params.id),
  );
};
