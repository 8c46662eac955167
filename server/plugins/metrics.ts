import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '#server/config.ts';
import type { AppMetrics } from '#server/metrics.ts';
import type { HistogramSeries } from '#server/scrape-time-histogram.ts';
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
  // Each route, method and status has its histogram series, made once and kept (decisions 238,
  // 270): a request finds it by three map lookups, building no object or string, and the
  // observation is counted in numbers of our own that /metrics formats at scrape time.
  const seriesByRoute = new Map<string, Map<string, Map<number, HistogramSeries>>>();
  app.addHook('onResponse', function recordDuration(request, reply, done) {
    const route = routeFacts(request).url ?? 'unmatched';
    const method = request.method;
    const status = reply.statusCode;
    let byMethod = seriesByRoute.get(route);
    if (!byMethod) seriesByRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) byStatus.set(status, (series = metrics.httpDuration.series({ method, route, status_code: String(status) })));
    metrics.httpDuration.observe(series, reply.elapsedTime / 1000);
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
