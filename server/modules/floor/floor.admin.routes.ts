import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
import { staffRoute } from '#server/staff-route.ts';

/** The staff's floor (decision 240): tables, combinations, shifts, turn times, pacing, and which table each booking takes. */
export const floorAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { floor } = app.services;

  staffRoute(
    app,
    'GET',
    '/api/admin/floor',
    {
      operationId: 'getFloor',
      summary: 'The restaurant’s tables (by section), allowed combinations, shifts, booking interval, turn times and pacing',
      reply: adminFloor,
    },
    (principal) => floor.getFloor(principal),
  );

  staffRoute(
    app,
    'PUT',
    '/api/admin/floor/tables',
    {
      operationId: 'replaceFloorTables',
      summary: 'Replace the tables and combinations (a table kept by id keeps its bookings; removing one with bookings to come is refused)',
      body: replaceFloorTablesBody,
      reply: adminFloor,
    },
    (principal, { body }) => floor.replaceTables(principal, body),
  );

  staffRoute(
    app,
    'PUT',
    '/api/admin/floor/settings',
    {
      operationId: 'updateFloorSettings',
      summary: 'Shifts per weekday (Monday first), booking interval, turn times by party size and pacing per 15 minutes',
      body: floorSettings,
      reply: adminFloor,
    },
    (principal, { body }) => floor.updateSettings(principal, body),
  );

  staffRoute(
    app,
    'GET',
    '/api/admin/floor/day',
    {
      operationId: 'getFloorDay',
      summary: 'The day’s table assignments that still count, with their bookings',
      querystring: floorDayQuery,
      reply: floorDay,
    },
    (principal, { query }) => floor.getDay(principal, query.date),
  );

  staffRoute(
    app,
    'PUT',
    '/api/admin/floor/assignments/:reservationId',
    {
      operationId: 'reassignTable',
      summary: 'Seat a live booking at other tables, free for its whole turn',
      params: reservationIdParams,
      body: reassignTableBody,
      reply: tableAssignmentView,
    },
    (principal, { params, body }) => floor.reassignTable(principal, params.reservationId, body),
  );

  staffRoute(
    app,
    'DELETE',
    '/api/admin/floor/assignments/:reservationId',
    {
      operationId: 'unassignTable',
      summary: 'Take a booking off its table (its time and covers stay)',
      params: reservationIdParams,
      reply: z.null(),
      status: 204,
    },
    async (principal, { params }) => {
      await floor.unassignTable(principal, params.reservationId);
      return null;
    },
  );
};
