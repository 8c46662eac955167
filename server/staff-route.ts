import type { z } from 'zod';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { standardErrors } from '#common/contract/common.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';

type Schema = z.ZodType;

/** What a portal staff route declares: its contract schemas, and the status a success answers with. */
export interface StaffRouteSpec<Params extends Schema, Query extends Schema, Body extends Schema, Reply extends Schema> {
  operationId: string;
  summary: string;
  params?: Params;
  querystring?: Query;
  body?: Body;
  /** The success answer's schema, sent with `status` (200 unless said). */
  reply: Reply;
  status?: 200 | 201 | 204;
}

/** The parsed input a handler gets: fastify has validated each part against the spec's schemas. */
export interface StaffRouteInput<Params extends Schema, Query extends Schema, Body extends Schema> {
  params: z.infer<Params>;
  query: z.infer<Query>;
  body: z.infer<Body>;
}

/**
 * Declares one of the portal's staff routes (first the floor's, decisions 240 and 245): bearer
 * access, the portal tag, the standard errors, and a handler that gets the caller's principal and
 * the validated input and only calls the service (routes translate HTTP; the service checks access).
 */
export function staffRoute<Params extends Schema, Query extends Schema, Body extends Schema, Reply extends Schema>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  spec: StaffRouteSpec<Params, Query, Body, Reply>,
  handle: (principal: Principal, input: StaffRouteInput<Params, Query, Body>) => Promise<z.infer<Reply>>,
): void {
  const status = spec.status ?? 200;
  app.route({
    method,
    url,
    schema: {
      operationId: spec.operationId,
      security: bearerAccess,
      tags: ['portal'],
      summary: spec.summary,
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.querystring ? { querystring: spec.querystring } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      response: { [status]: spec.reply, ...standardErrors },
    },
    handler: async (request, reply) => {
      const input = { params: request.params, query: request.query, body: request.body } as StaffRouteInput<Params, Query, Body>;
      const result = await handle(await request.principal(), input);
      // The success status is the spec's own; fastify serialises it by the spec's reply schema.
      return (reply as FastifyReply).code(status).send(result);
    },
  });
}
