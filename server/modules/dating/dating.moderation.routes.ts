import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { standardErrors } from '#common/contract/common.ts';
import { datingMemberParams } from '#common/contract/dating.ts';
import { moderationReportsQuery, moderationReportsResponse, moderationReviewBody, moderationReviewResponse } from '#common/contract/moderation.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';
import { sendDatingPhoto } from './dating.routes.ts';
import { notStored } from '#server/no-store.ts';

/** Tablefair moderators' side of dating: the moderation list of reported members (decision 185). */
export const datingModerationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { datingModeration, dating } = app.services;
  const tags = ['moderation'];

  app.get(
    '/api/moderation/reports',
    {
      schema: {
        operationId: 'listReportedMembers',
        tags,
        summary: 'Dating members reported by others, most open reports first, with each report’s reason (at most 100 members)',
        security: bearerAccess,
        querystring: moderationReportsQuery,
        response: { 200: moderationReportsResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => notStored(reply, await datingModeration.listReports(await request.principal(), request.query.status)),
  );

  app.get(
    '/api/moderation/photos/:photoId',
    {
      schema: {
        operationId: 'getReportedMemberPhoto',
        tags,
        summary: 'A reported member’s photo, to moderators only',
        security: bearerAccess,
        params: z.object({ photoId: z.string().max(100) }),
        response: { 200: z.any(), ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) =>
      sendDatingPhoto(reply, await dating.readPhotoForModerator(await request.principal(), request.params.photoId), 'private, no-store'),
  );

  app.post(
    '/api/moderation/members/:memberId/review',
    {
      schema: {
        operationId: 'reviewReportedMember',
        tags,
        summary: 'Close a member’s open reports: DISMISS shows them again, SUSPEND hides them for good and signs them out',
        security: bearerAccess,
        params: datingMemberParams,
        body: moderationReviewBody,
        response: { 200: moderationReviewResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => datingModeration.reviewMember(await request.principal(), request.params.memberId, request.body),
  );
};
