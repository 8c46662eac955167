import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyBody, standardErrors, uuid } from '#common/contract/common.ts';
import { adminRestaurant, photoIdParams, photoPurposes } from '#common/contract/portal.ts';
import { PHOTO_UPLOAD_MAX_BYTES, PHOTO_WIDTHS, type PhotoWidth } from '#common/domain/restaurant-profile.ts';
import { bearerAccess, publicAccess } from '#common/contract/openapi-security.ts';
import { badInput, notFound } from '#server/errors.ts';
import { registerImageUpload } from './multipart-image.ts';

const adminPhoto = adminRestaurant.shape.photos.element;

/** A restaurant's photos (decision 234): the staff's uploads in the portal, and every width of each, for anyone. */
export const restaurantPhotosRoutes: FastifyPluginAsyncZod = async (app) => {
  const { restaurantPhotos } = app.services;
  const tags = ['portal'];

  app.get(
    '/api/restaurant-photos/:photoId/:width',
    {
      schema: {
        operationId: 'getRestaurantPhoto',
        security: publicAccess,
        tags: ['restaurants'],
        summary: `A restaurant's photo as WebP, ${PHOTO_WIDTHS.join(', ')} pixels wide (its address never changes, so it is cached for a year)`,
        params: z.object({
          photoId: uuid,
          width: z.coerce
            .number()
            .refine((value) => (PHOTO_WIDTHS as readonly number[]).includes(value), { message: `width: One of ${PHOTO_WIDTHS.join(', ')}` }),
        }),
      },
    },
    async (request, reply) => {
      const bytes = await restaurantPhotos.readPhoto(await request.principal(), request.params.photoId, request.params.width as PhotoWidth);
      if (!bytes) throw notFound('Photo not found');
      return reply.type('image/webp').header('cache-control', 'public, max-age=31536000, immutable').send(bytes);
    },
  );

  app.delete(
    '/api/admin/restaurant/photos/:photoId',
    {
      schema: {
        operationId: 'deleteRestaurantPhoto',
        security: bearerAccess,
        tags,
        summary: "Remove one of the staff's own restaurant's photos",
        params: photoIdParams,
        response: { 204: z.null(), ...standardErrors },
      },
    },
    async (request, reply) => {
      await restaurantPhotos.removePhoto(await request.principal(), request.params.photoId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/admin/restaurant/photos/:photoId/cover',
    {
      schema: {
        operationId: 'makeRestaurantPhotoCover',
        security: bearerAccess,
        tags,
        summary: 'Put a photo first: the cover of the page (or the first page of the menu)',
        params: photoIdParams,
        body: emptyBody,
        response: { 204: z.null(), ...standardErrors },
      },
    },
    async (request, reply) => {
      await restaurantPhotos.makeCover(await request.principal(), request.params.photoId);
      return reply.code(204).send(null);
    },
  );

  await registerImageUpload(app, {
    url: '/api/admin/restaurant/photos',
    operationId: 'addRestaurantPhoto',
    summary: 'Add a photo (multipart: image file, purpose gallery|menu, alt). JPEG, PNG or WebP up to 12 MB; stored as WebP at phone and laptop widths',
    maxBytes: PHOTO_UPLOAD_MAX_BYTES,
    textFields: 4,
    status: 201,
    answer: adminPhoto,
    async store(request, { bytes, fields }) {
      const purpose = fields.purpose ?? 'gallery';
      const alt = fields.alt ?? '';
      if (!(photoPurposes as readonly string[]).includes(purpose)) throw badInput('purpose: must be gallery or menu');
      if (alt.length > 140) throw badInput('alt: at most 140 characters');
      return restaurantPhotos.addPhoto(await request.principal(), { purpose: purpose as 'gallery' | 'menu', alt, bytes });
    },
  });
};
