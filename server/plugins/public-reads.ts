import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A public read answered from memory (decision 186): anyone may call it, it reads no body,
     * cookie or session, and it is the busiest traffic. The hooks that do per-request work such a
     * route never uses skip it: cookie parsing (sessions.ts), the request id's async context
     * (request-id.ts; the x-request-id header is still sent and the request's own logger still
     * names it) and the slow-client timer (slow-clients.ts; a GET's body is never read). Security
     * headers, metrics, the error handler, ETags and rate limits treat it like any other route.
     */
    publicRead?: boolean;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the hooks ask of the request's route, read once per request (routeFacts). */
    tablefairRouteFacts: RouteFacts | null;
  }
}

/** The route options the app's hooks read on every request: the pattern and its config. */
export interface RouteFacts {
  /** The route's pattern (`/api/restaurants/:slug/availability`); undefined for a 404. */
  url: string | undefined;
  config: FastifyContextConfig | undefined;
  publicRead: boolean;
}

/**
 * The request's route facts. Fastify's `request.routeOptions` builds a new object of thirteen
 * fields on every read, and eight hooks read it per request; the facts are read once per request
 * and kept on it (decision 270). The request is decorated with `tablefairRouteFacts` by
 * routeFactsPlugin, so the property is part of every request's shape from the start.
 */
export function routeFacts(request: FastifyRequest): RouteFacts {
  let facts = request.tablefairRouteFacts;
  if (!facts) {
    const options = request.routeOptions;
    facts = { url: options.url, config: options.config, publicRead: options.config?.publicRead === true };
    request.tablefairRouteFacts = facts;
  }
  return facts;
}

/** Declares `tablefairRouteFacts` on every request (registered first, in server/app.ts). */
export const routeFactsPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('tablefairRouteFacts', null);
});

/** Whether the request's route is marked `config: { publicRead: true }` (false for 404s). */
export function isPublicRead(request: FastifyRequest): boolean {
  return routeFacts(request).publicRead;
}

type HookDone = (error?: Error) => void;
type SendDone = (error: Error | null, payload?: unknown) => void;

/**
 * An async request hook that runs only when `applies` says so (a route option, usually): every
 * other request passes through a plain callback, without the promise an async hook costs on each
 * request, public reads included (decision 186). Fastify treats the two forms alike.
 */
export function hookWhen(applies: (request: FastifyRequest) => boolean, hook: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) {
  return namedAfter(hook, (request: FastifyRequest, reply: FastifyReply, done: HookDone): void => {
    if (!applies(request)) return done();
    hook(request, reply).then(
      () => done(),
      (error: Error) => done(error),
    );
  });
}

/** The same for an onSend hook: the payload goes on untouched when the hook does not apply. */
export function onSendWhen(
  applies: (request: FastifyRequest) => boolean,
  hook: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>,
) {
  return namedAfter(hook, (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: SendDone): void => {
    if (!applies(request)) return done(null, payload);
    hook(request, reply, payload).then(
      (next) => done(null, next),
      (error: Error) => done(error),
    );
  });
}

/**
 * The wrapper takes the hook's name, which is what Fastify lists for a route's hooks: the early
 * answers' test reads that list to see every hook a kept answer skips (decision 285).
 */
function namedAfter<Wrapper extends (...args: never[]) => void>(hook: { name: string }, wrapper: Wrapper): Wrapper {
  return Object.defineProperty(wrapper, 'name', { value: hook.name });
}
