import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import { restaurantDetail, restaurantKeyParams, restaurantList } from '#common/contract/restaurants.ts';
import { renderHeroSvg } from './hero-image.ts';
import { publicAccess } from '#common/contract/openapi-security.ts';

export const restaurantsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { restaurants } = app.services;

  app.get(
    '/api/restaurants',
    {
      schema: {
        operationId: 'listRestaurants',
        security: publicAccess,
        tags: ['restaurants'],
        summary: 'Every restaurant in the city',
        response: { 200: restaurantList },
      },
      config: { etag: true, sharedAnswerSeconds: 300 },
    },
    async (request) => restaurants.listRestaurants(await request.principal()),
  );

  app.get(
    '/api/restaurants/:slug',
    {
      schema: {
        operationId: 'getRestaurant',
        security: publicAccess,
        tags: ['restaurants'],
        summary: 'One restaurant, by slug or id, with its photos, menu, house rules and where it is',
        params: restaurantKeyParams,
        response: { 200: restaurantDetail, ...standardErrors },
      },
    },
    async (request) => restaurants.getRestaurant(await request.principal(), request.params.slug),
  );

  app.get(
    '/api/restaurant/:id/hero-image',
    {
      schema: {
        operationId: 'getHeroImage',
        security: publicAccess,
        tags: ['restaurants'],
        summary: "The restaurant's hero image: the photo its staff uploaded, else a generated one",
        params: z.object({ id: z.string().min(1).max(120) }),
      },
      config: { etag: true },
    },
    async (request, reply) => {
      const principal = await request.principal();
      const restaurant = await restaurants.getRestaurant(principal, request.params.id);
      const photo = await restaurants.readHeroImage(principal, restaurant.id);
      if (photo) {
        // Short-lived: a new upload must show soon even at this address (uploads also get a new ?v= address).
        return reply.type(photo.contentType).header('cache-control', 'public, max-age=300').send(photo.body);
      }
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=3600').send(renderHeroSvg(restaurant.id, restaurant.emoji));
    },
  );
};
