import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { DATING_SESSION_COOKIE } from './sessions.ts';

/** Request examples on the main calls, by operationId: what a client generator or a reader starts from. */
const requestExamples: Record<string, unknown> = {
  signUpDiner: { username: 'asha_k', password: 'masala-dosa-42', name: 'Asha K', preferredHood: 'Indiranagar' },
  logInDiner: { username: 'demo', password: 'demo1234' },
  logInStaff: { username: 'toit-tandoor', password: 'staff1234' },
  logInModerator: { username: 'moderator', password: 'moderate1234' },
  reviewReportedMember: { decision: 'SUSPEND', note: 'Photos belong to someone else' },
  holdTable: { restaurantSlug: 'toit-tandoor', date: '2026-11-27', time: '20:00', partySize: 2 },
  confirmReservation: {},
  cancelReservation: {},
  joinWaitlist: { restaurantSlug: 'toit-tandoor', date: '2026-11-27', partySize: 4, windowStart: '19:00', windowEnd: '21:00' },
  enterDrop: { partySize: 2 },
  logInDating: { phone: '9876543210', password: 'filter-coffee-7' },
};

/** Every error answer has this body (spec section 6). */
const errorBody = {
  type: 'object',
  properties: { error: { type: 'string', description: 'One sentence saying what went wrong' } },
  required: ['error'],
};

type Operation = {
  operationId?: string;
  requestBody?: { content?: Record<string, { example?: unknown }> };
  responses?: Record<string, unknown>;
};

/**
 * Adds what routes do not declare themselves: request examples, and a generic 4XX answer on the
 * few operations whose only documented answer is a success (any call can still be refused, e.g. a
 * malformed request or the rate limit).
 */
export function completeDocument<T extends { paths?: Record<string, Record<string, unknown>> }>(document: T): T {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations) as Operation[]) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const example = operation.operationId ? requestExamples[operation.operationId] : undefined;
      const json = operation.requestBody?.content?.['application/json'];
      if (example !== undefined && json) json.example = example;
      const responses = (operation.responses ??= {});
      if (!Object.keys(responses).some((status) => status.startsWith('4'))) {
        responses['4XX'] = { description: 'The request was refused', content: { 'application/json': { schema: errorBody } } };
      }
    }
  }
  return document;
}

/** The OpenAPI document, generated from the Zod contract: /docs (UI) and /docs/json. */
export const openApiPlugin = fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Tablefair API',
        description: 'Fair restaurant reservations for Bengaluru. Every error is `{ "error": "<sentence>" }` with its status.',
        version: '1.0.0',
        license: { name: 'Proprietary', url: 'https://tablefair.in/terms' },
      },
      // Relative: the document describes the server that serves it, wherever it is deployed.
      servers: [{ url: '/', description: 'The server this document was read from' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Diner, restaurant staff or Tablefair moderator token from the login calls' },
          datingSession: {
            type: 'apiKey',
            in: 'cookie',
            name: DATING_SESSION_COOKIE,
            description: 'The dating session cookie (httpOnly, path /dating) set by the dating sign-in',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (documentObject) =>
      completeDocument(('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject) as never),
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
});
