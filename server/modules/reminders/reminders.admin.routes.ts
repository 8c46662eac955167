import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';
import { reminderSetting } from '#common/contract/reminders.ts';

/** The staff's own restaurant's reminder setting (decision 150). */
export const remindersAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reminders } = app.services;
  const tags = ['portal'];

  app.get(
    '/api/admin/reminders',
    {
      schema: {
        operationId: 'getReminderSetting',
        tags,
        summary: 'Whether diners of the signed-in staff’s restaurant get reminders before their reservations',
        security: bearerAccess,
        response: { 200: reminderSetting, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => reminders.getOwnSetting(await request.principal()),
  );

  app.put(
    '/api/admin/reminders',
    {
      schema: {
        operationId: 'updateReminderSetting',
        tags,
        summary: 'Turn reminders before reservations on or off for the signed-in staff’s restaurant',
        security: bearerAccess,
        body: reminderSetting,
        response: { 200: reminderSetting, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => reminders.updateOwnSetting(await request.principal(), request.body),
  );
};
