import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, standardErrors } from '#common/contract/common.ts';
import {
  acceptDatePlanResponse,
  afterDateBody,
  datePlan,
  datePlanParams,
  datePlanShareLink,
  datePlansResponse,
  dateShareParams,
  sharedDatePlan,
} from '#common/contract/dating-plans.ts';
import { datingCookieAccess, publicAccess } from '#common/contract/openapi-security.ts';
import { notStored } from '#server/no-store.ts';

/** An empty JSON body: the plan calls carry nothing but the plan in the path. */
const noBody = z.object({}).strict().optional();

/**
 * A member's date plans (decision 184), under /dating: registered inside the dating routes, so the
 * same JSON-only rule keeps cross-site forms off these cookie-authenticated POSTs (decision 050).
 */
export const datePlansRoutes: FastifyPluginAsyncZod = async (app) => {
  const { datePlans } = app.services;
  const tags = ['dating'];
  const moves = [
    {
      path: 'decline',
      operationId: 'declineDatePlan',
      summary: 'Decline a proposed date plan: it closes for both, and any paid deposit is released',
      run: datePlans.decline,
    },
    {
      path: 'another',
      operationId: 'askForAnotherDatePlan',
      summary: 'Ask once per match for another option: a plan at another restaurant replaces this one (409, and this one stays, when there is none)',
      run: datePlans.askAgain,
    },
    {
      path: 'cancel',
      operationId: 'cancelDatePlan',
      summary: 'Cancel a booked date up to its start; within 24 hours it is a flake (the deposit goes to the other member, and a strike)',
      run: datePlans.cancel,
    },
  ] as const;

  app.get(
    '/dating/plans',
    {
      schema: {
        operationId: 'listDatePlans',
        security: datingCookieAccess,
        tags,
        summary: "The member's date plans, newest first; a mutual yes without a plan gets one proposed when a partner table fits",
        response: { 200: datePlansResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => notStored(reply, await datePlans.listPlans(await request.principal())),
  );

  app.post(
    '/dating/plans/:planId/accept',
    {
      schema: {
        operationId: 'acceptDatePlan',
        security: datingCookieAccess,
        tags,
        summary: 'Accept a proposed date plan by paying its deposit: answers the payment to approve (the same one on a second call)',
        params: datePlanParams,
        body: noBody,
        response: { 200: acceptDatePlanResponse, 415: errorResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => datePlans.accept(await request.principal(), request.params.planId),
  );

  for (const move of moves) {
    app.post(
      `/dating/plans/:planId/${move.path}`,
      {
        schema: {
          operationId: move.operationId,
          security: datingCookieAccess,
          tags,
          summary: move.summary,
          params: datePlanParams,
          body: noBody,
          response: { 200: datePlan, 415: errorResponse, ...standardErrors },
        },
        config: { rateLimitGroup: 'booking' },
      },
      async (request) => move.run(await request.principal(), request.params.planId),
    );
  }

  app.put(
    '/dating/plans/:planId/after-date',
    {
      schema: {
        operationId: 'answerAfterDate',
        security: datingCookieAccess,
        tags,
        summary: 'After a date both came to: "Did they show up?" and "Would you meet again?", once; two yeses from both propose a second date',
        params: datePlanParams,
        body: afterDateBody,
        response: { 200: datePlan, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => datePlans.answerAfterDate(await request.principal(), request.params.planId, request.body),
  );

  app.post(
    '/dating/plans/:planId/share',
    {
      schema: {
        operationId: 'shareDatePlan',
        security: datingCookieAccess,
        tags,
        summary: 'A link to the plan for a trusted contact: where, when and both first names, until the end of the date',
        params: datePlanParams,
        body: noBody,
        response: { 200: datePlanShareLink, 415: errorResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => datePlans.shareLink(await request.principal(), request.params.planId),
  );

  app.delete(
    '/dating/plans/:planId/share',
    {
      schema: {
        operationId: 'stopSharingDatePlan',
        security: datingCookieAccess,
        tags,
        summary: 'Stop sharing: every link the member made for this plan ends now (decision 208); answers the plan',
        params: datePlanParams,
        response: { 200: datePlan, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => datePlans.stopSharing(await request.principal(), request.params.planId),
  );

  app.get(
    '/api/date-share/:token',
    {
      schema: {
        operationId: 'readSharedDatePlan',
        security: publicAccess,
        tags,
        summary: 'A date plan as the trusted contact it was shared with sees it (the signed link is the access; 404 once the date is over)',
        params: dateShareParams,
        response: { 200: sharedDatePlan, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => notStored(reply, await datePlans.readSharedPlan(request.params.token)),
  );
};
