import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '#server/modules/accounts/principal.ts';
import { isPublicRead } from './public-reads.ts';

/** The token of an `Authorization: Bearer …` header, if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The dating session cookie: httpOnly, SameSite=Lax, scoped to /dating (decision 050). */
export const DATING_SESSION_COOKIE = 'tf_dating_session';

/** The dating session token, sent as a cookie, read only on /dating paths (diner and staff calls use bearer tokens). */
export function datingSessionToken(request: FastifyRequest): string | undefined {
  if (!request.url.startsWith('/dating/')) return undefined;
  return request.cookies?.[DATING_SESSION_COOKIE] || undefined;
}

/**
 * Adds `request.principal()`: who is calling, resolved once per request and only
 * when a route asks (public reads of the restaurant list never touch the session table).
 * Sources of credentials register resolvers here (bearer tokens; the dating cookie).
 * Cookies are parsed on every request but public reads (decision 186), which never read one
 * (`reply.setCookie` still works there: the cookie plugin parses on demand).
 */
export const sessionsPlugin = fp(async (app) => {
  await app.register(cookie, { hook: false });
  app.addHook('onRequest', function parseCookies(request, _reply, done) {
    if (!isPublicRead(request)) {
      const header = request.headers.cookie;
      request.cookies = header ? app.parseCookie(header) : {};
    }
    done();
  });
  app.decorateRequest('principal', function (this: FastifyRequest) {
    const cached = (this as FastifyRequest & { principalPromise?: Promise<Principal> }).principalPromise;
    if (cached) return cached;
    const promise = app.resolvePrincipal(this);
    (this as FastifyRequest & { principalPromise?: Promise<Principal> }).principalPromise = promise;
    return promise;
  });

  app.decorate('resolvePrincipal', async (request: FastifyRequest): Promise<Principal> => {
    // A bearer token wins; without one, the dating cookie speaks for the caller.
    return app.services.sessions.resolvePrincipal(bearerToken(request) ?? datingSessionToken(request));
  });
});
