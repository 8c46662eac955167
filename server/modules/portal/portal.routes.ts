import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, standardErrors } from '#common/contract/common.ts';
import {
  HERO_IMAGE_MAX_BYTES,
  adminBooking,
  adminBookingsResponse,
  adminRestaurant,
  adminSlot,
  adminSlotList,
  adminSlotsQuery,
  bookingIdParams,
  bulkSlotsBody,
  bulkSlotsResponse,
  slotIdParams,
  updateAdminRestaurantBody,
  updateBookingBody,
  updateSlotBody,
  uploadResponse,
  type PortalStreamEvent,
} from '#common/contract/portal.ts';
import { AppError } from '#server/errors.ts';
import { createEventStreams } from '#server/plugins/event-stream.ts';

/** The restaurant portal's HTTP surface: /api/admin/*, the live stream and the hero-photo upload. */
export const portalRoutes: FastifyPluginAsyncZod = async (app) => {
  const { portal } = app.services;
  const bearer = [{ bearer: [] }];
  const tags = ['portal'];

  app.get('/api/admin/restaurant', {
    schema: { tags, summary: "The signed-in staff's restaurant profile", security: bearer, response: { 200: adminRestaurant, ...standardErrors } },
  }, async (request) => portal.getRestaurant(await request.principal()));

  app.put('/api/admin/restaurant', {
    schema: {
      tags,
      summary: 'Update the public profile: name, neighborhood, instagramUrl, website, heroImageUrl',
      security: bearer,
      body: updateAdminRestaurantBody,
      response: { 200: adminRestaurant, ...standardErrors },
    },
  }, async (request) => portal.updateRestaurant(await request.principal(), request.body));

  app.get('/api/admin/slots', {
    schema: { tags, summary: "A date's slots with covers booked", security: bearer, querystring: adminSlotsQuery, response: { 200: adminSlotList, ...standardErrors } },
  }, async (request) => portal.listSlots(await request.principal(), request.query.date));

  app.post('/api/admin/slots/bulk', {
    schema: {
      tags,
      summary: 'Add a time every `interval` minutes from start to end (inclusive); existing times are skipped',
      security: bearer,
      body: bulkSlotsBody,
      response: { 201: bulkSlotsResponse, ...standardErrors },
    },
  }, async (request, reply) => reply.code(201).send(await portal.addSlots(await request.principal(), request.body)));

  app.patch('/api/admin/slots/:id', {
    schema: { tags, summary: 'Set a slot available or full', security: bearer, params: slotIdParams, body: updateSlotBody, response: { 200: adminSlot, ...standardErrors } },
  }, async (request) => portal.setSlotStatus(await request.principal(), request.params.id, request.body.status));

  app.get('/api/admin/bookings', {
    schema: { tags, summary: "Upcoming bookings and today's live counts", security: bearer, response: { 200: adminBookingsResponse, ...standardErrors } },
  }, async (request) => portal.listBookings(await request.principal()));

  app.patch('/api/admin/bookings/:id', {
    schema: {
      tags,
      summary: 'Move a booking: Confirm, Cancel, Seat, Complete or No-show (any other move answers 409)',
      security: bearer,
      params: bookingIdParams,
      body: updateBookingBody,
      response: { 200: adminBooking, ...standardErrors },
    },
  }, async (request) => portal.moveBooking(await request.principal(), request.params.id, request.body.status));

  // Streams that are still open when the app closes are ended, so shutdown never waits on them.
  const openEventStream = createEventStreams(app);

  app.get('/api/admin/events', {
    schema: {
      tags,
      summary: 'Server-sent events: `booking` when a booking is created or moves, `slots` when capacity frees up; a comment every 15 s',
      security: bearer,
      response: { 200: z.string().describe('text/event-stream'), ...standardErrors },
    },
  }, async (request, reply) => {
    // The access check runs in subscribe, before any header is sent.
    const principal = await request.principal();
    await openEventStream<PortalStreamEvent>(reply, (send) => portal.subscribeToChanges(principal, send));
  });

  // The hero photo upload: multipart, one file of at most 5 MB, in this plugin's scope only.
  await app.register(async (uploads) => {
    await uploads.register(multipart, { limits: { fileSize: HERO_IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 } });

    uploads.post('/api/upload', {
      schema: {
        tags,
        summary: 'Upload the hero photo (multipart: image file + restaurantId). JPEG, PNG or WebP by their bytes, at most 5 MB',
        security: bearer,
        consumes: ['multipart/form-data'],
        response: { 200: uploadResponse, 413: errorResponse, 415: errorResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'upload' },
      // Only restaurant staff get as far as sending a file.
      preHandler: async (request) => {
        portal.assertMayUpload(await request.principal());
      },
    }, async (request) => {
      let restaurantId: string | undefined;
      let bytes: Buffer | undefined;
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          try {
            bytes = await part.toBuffer();
          } catch (error) {
            if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
              throw new AppError('TOO_LARGE', `The photo is larger than ${HERO_IMAGE_MAX_BYTES / 1024 / 1024} MB`);
            }
            throw error;
          }
        } else if (part.fieldname === 'restaurantId' && typeof part.value === 'string') {
          restaurantId = part.value.trim();
        }
      }
      return portal.uploadHeroImage(await request.principal(), { restaurantId, bytes });
    });
  });
};
