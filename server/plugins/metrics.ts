import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '#server/config.ts';
import type { AppMetrics } from '#server/metrics.ts';
import { routeFacts } from './public-reads.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The private listener for /metrics when METRICS_PORT is set; main.ts starts it. */
    metricsListener: FastifyInstance | undefined;
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares in constant time (both sides hashed to the same length first). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const sent = /^Bearer (.+)$/.exec(header ?? '')?.[1];
  return sent !== undefined && timingSafeEqual(digest(sent), digest(token));
}

const metricsSchema = { operationId: 'getMetrics', tags: ['operations'], summary: 'Prometheus metrics (METRICS_TOKEN or the METRICS_PORT listener)' };

/**
 * Request latency for every route (by its template, never the raw path) and GET /metrics, kept
 * off the public site: on the main port only with `Authorization: Bearer METRICS_TOKEN`
 * (404 when no token is set, 401 when it does not match), or on its own port (METRICS_PORT),
 * which the operator keeps private.
 */
export const metricsPlugin = fp<{ config: AppConfig; metrics: AppMetrics }>(async (app, { config, metrics }) => {
  // The labels of each route, method and status are made once and kept (decision 270): a request
  // finds its set by two lookups instead of building an object and a status string.
  type Labels = { method: string; route: string; status_code: string };
  const labelsByRoute = new Map<string, Map<number, Labels>>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeFacts(request).url ?? 'unmatched';
    const method = request.method;
    const status = reply.statusCode;
    const key = `${method} ${route}`;
    let byStatus = labelsByRoute.get(key);
    if (!byStatus) labelsByRoute.set(key, (byStatus = new Map()));
    let labels = byStatus.get(status);
    if (!labels) byStatus.set(status, (labels = { method, route, status_code: String(status) }));
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  const answer = async () => metrics.registry.metrics();
  const { token, port } = config.metrics;
  app.get('/metrics', { logLevel: 'warn', schema: { ...metricsSchema, hide: !token } }, async (request, reply) => {
    if (!token) return reply.code(404).send({ error: 'Not found' });
    if (!tokenMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer');
      return reply.code(401).send({ error: 'Send the metrics token as Authorization: Bearer <token>' });
    }
    return reply.type(metrics.registry.contentType).send(await answer());
  });

  let listener: FastifyInstance | undefined;
  if (port !== undefined) {
    listener = Fastify({ logger: false });
    listener.get('/metrics', { schema: metricsSchema }, async (_request, reply) => reply.type(metrics.registry.contentType).send(await answer()));
    app.addHook('onClose', async () => listener?.close());
  }
  app.decorate('metricsListener', listener);
});
