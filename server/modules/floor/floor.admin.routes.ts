import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import {
  adminFloor,
  floorDay,
  floorDayQuery,
  floorSettings,
  reassignTableBody,
  replaceFloorTablesBody,
  reservationIdParams,
  tableAssignmentView,
} from '#common/contract/floor.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** The staff's floor (decision 240): tables, combinations, shifts, turn times, pacing, and which table each booking takes. */
export const floorAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { floor } = app.services;
  const tags = ['portal'];

  app.get(
    '/api/admin/floor',
    {
      schema: {
        operationId: 'getFloor',
        security: bearerAccess,
        tags,
        summary: 'The restaurant’s tables (by section), allowed combinations, shifts, booking interval, turn times and pacing',
        response: { 200: adminFloor, ...standardErrors },
      },
    },
    async (request) => floor.getFloor(await request.principal()),
  );

  app.put(
    '/api/admin/floor/tables',
    {
      schema: {
        operationId: 'replaceFloorTables',
        security: bearerAccess,
        tags,
        summary: 'Replace the tables and combinations (a table kept by id keeps its bookings; removing one with bookings to come is refused)',
        body: replaceFloorTablesBody,
        response: { 200: adminFloor, ...standardErrors },
      },
    },
    async (request) => floor.replaceTables(await request.principal(), request.body),
  );

  app.put(
    '/api/admin/floor/settings',
    {
      schema: {
        operationId: 'updateFloorSettings',
        security: bearerAccess,
        tags,
        summary: 'Shifts per weekday (Monday first), booking interval, turn times by party size and pacing per 15 minutes',
        body: floorSettings,
        response: { 200: adminFloor, ...standardErrors },
      },
    },
    async (request) => floor.updateSettings(await request.principal(), request.body),
  );

  app.get(
    '/api/admin/floor/day',
    {
      schema: {
        operationId: 'getFloorDay',
        security: bearerAccess,
        tags,
        summary: 'The day’s table assignments that still count, with their bookings',
        querystring: floorDayQuery,
        response: { 200: floorDay, ...standardErrors },
      },
    },
    async (request) => floor.getDay(await request.principal(), request.query.date),
  );

  app.put(
    '/api/admin/floor/assignments/:reservationId',
    {
      schema: {
        operationId: 'reassignTable',
        security: bearerAccess,
        tags,
        summary: 'Seat a live booking at other tables, free for its whole turn',
        params: reservationIdParams,
        body: reassignTableBody,
        response: { 200: tableAssignmentView, ...standardErrors },
      },
    },
    async (request) => floor.reassignTable(await request.principal(), request.params.reservationId, request.body),
  );

  app.delete(
    '/api/admin/floor/assignments/:reservationId',
    {
      schema: {
        operationId: 'unassignTable',
        security: bearerAccess,
        tags,
        summary: 'Take a booking off its table (its time and covers stay)',
        params: reservationIdParams,
        response: { 204: z.null(), ...standardErrors },
      },
    },
    async (request, reply) => {
      await floor.unassignTable(await request.principal(), request.params.reservationId);
      return reply.code(204).send(null);
    },
  );
};
