import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { HERO_IMAGE_MAX_BYTES, adminRestaurant, updateAdminRestaurantBody, uploadResponse } from '#common/contract/portal.ts';
import { adminDepositPolicy, depositPolicyBody } from '#common/contract/deposits.ts';
import { registerImageUpload } from './multipart-image.ts';
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

  await registerImageUpload(app, {
    url: '/api/upload',
    operationId: 'uploadHeroImage',
    summary: 'Upload the hero photo (multipart: image file + restaurantId). JPEG, PNG or WebP by their bytes, at most 5 MB',
    maxBytes: HERO_IMAGE_MAX_BYTES,
    textFields: 5,
    status: 200,
    answer: uploadResponse,
    store: async (request, { bytes, fields }) => restaurants.uploadHeroImage(await request.principal(), { restaurantId: fields.restaurantId, bytes }),
  });
};
