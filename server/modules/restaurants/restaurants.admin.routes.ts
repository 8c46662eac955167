import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, standardErrors } from '#common/contract/common.ts';
import { HERO_IMAGE_MAX_BYTES, adminRestaurant, updateAdminRestaurantBody, uploadResponse } from '#common/contract/portal.ts';
import { adminDepositPolicy, depositPolicyBody } from '#common/contract/deposits.ts';
import { readImageForm } from './multipart-image.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';

/** The staff's own restaurant: its profile (/api/admin/restaurant) and the hero-photo upload (/api/upload). */
export const restaurantsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { restaurants } = app.services;
  const tags = ['portal'];

  app.get(
    '/api/admin/restaurant',
    {
      schema: {
        operationId: 'getOwnRestaurant',
        security: bearerAccess,
        tags,
        summary: "The signed-in staff's restaurant profile",
        response: { 200: adminRestaurant, ...standardErrors },
      },
    },
    async (request) => restaurants.getOwnRestaurant(await request.principal()),
  );

  app.put(
    '/api/admin/restaurant',
    {
      schema: {
        operationId: 'updateOwnRestaurant',
        security: bearerAccess,
        tags,
        summary: 'Update the public profile: name, neighborhood, instagramUrl, website, heroImageUrl',
        body: updateAdminRestaurantBody,
        response: { 200: adminRestaurant, ...standardErrors },
      },
    },
    async (request) => restaurants.updateOwnRestaurant(await request.principal(), request.body),
  );

  app.get(
    '/api/admin/deposit-policy',
    {
      schema: {
        operationId: 'getDepositPolicy',
        security: bearerAccess,
        tags,
        summary: "The signed-in staff's deposit policy (no deposit until one is saved). Amounts in paise",
        response: { 200: adminDepositPolicy, ...standardErrors },
      },
    },
    async (request) => restaurants.getOwnDepositPolicy(await request.principal()),
  );

  app.put(
    '/api/admin/deposit-policy',
    {
      schema: {
        operationId: 'replaceDepositPolicy',
        security: bearerAccess,
        tags,
        summary: 'Replace the deposit policy: default charge, weekday and time rules (first match wins), free-cancel window, kept shares',
        body: depositPolicyBody,
        response: { 200: adminDepositPolicy, ...standardErrors },
      },
    },
    async (request) => restaurants.updateOwnDepositPolicy(await request.principal(), request.body),
  );

  // The hero photo upload: multipart, one file of at most 5 MB, in this plugin's scope only.
  await app.register(async (uploads) => {
    await uploads.register(multipart, { limits: { fileSize: HERO_IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 } });

    uploads.post(
      '/api/upload',
      {
        schema: {
          operationId: 'uploadHeroImage',
          security: bearerAccess,
          tags,
          summary: 'Upload the hero photo (multipart: image file + restaurantId). JPEG, PNG or WebP by their bytes, at most 5 MB',
          consumes: ['multipart/form-data'],
          response: { 200: uploadResponse, 413: errorResponse, 415: errorResponse, ...standardErrors },
        },
        config: { rateLimitGroup: 'upload' },
        // Only restaurant staff get as far as sending a file.
        preHandler: async (request) => {
          restaurants.assertMayUpload(await request.principal());
        },
      },
      async (request) => {
        const { bytes, fields } = await readImageForm(request, HERO_IMAGE_MAX_BYTES);
        const restaurantId = fields.restaurantId;
        return restaurants.uploadHeroImage(await request.principal(), { restaurantId, bytes });
      },
    );
  });
};
