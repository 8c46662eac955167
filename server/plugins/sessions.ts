import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '#server/modules/accounts/principal.ts';

/** The token of an `Authorization: Bearer …` header, if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Adds `request.principal()`: who is calling, resolved once per request and only
 * when a route asks (public reads of the restaurant list never touch the session table).
 * Sources of credentials register resolvers here (bearer tokens; the dating cookie).
 */
export const sessionsPlugin = fp(async (app) => {
  app.decorateRequest('principal', function (this: FastifyRequest) {
    const cached = (this as FastifyRequest & { principalPromise?: Promise<Principal> }).principalPromise;
    if (cached) return cached;
    const promise = app.resolvePrincipal(this);
    (this as FastifyRequest & { principalPromise?: Promise<Principal> }).principalPromise = promise;
    return promise;
  });

  app.decorate('resolvePrincipal', async (request: FastifyRequest): Promise<Principal> => {
    return app.services.sessions.resolvePrincipal(bearerToken(request));
  });
});
