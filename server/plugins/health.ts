import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { liveResponse, notReadyResponse, readyResponse, type ReadinessChecks } from '#common/contract/operations.ts';
import type { DatabaseHandle } from '#server/db/client.ts';

/** A readiness probe answers within this, whatever the database does (load balancers time out at a few seconds). */
export const READINESS_TIMEOUT_MS = 2000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Turns readiness false at once (SIGTERM, before connections drain), so the balancer stops sending. */
    markShuttingDown(): void;
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('readiness check timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Reads every check; never throws. */
async function readiness(database: DatabaseHandle, shuttingDown: boolean): Promise<ReadinessChecks> {
  const checks: ReadinessChecks = { database: false, writable: false, migrations: false, changeFeed: false, notShuttingDown: !shuttingDown };
  try {
    const health = await withTimeout(database.health(), READINESS_TIMEOUT_MS);
    checks.database = true;
    checks.writable = health.writable;
    checks.migrations = health.pendingMigrations === 0;
  } catch {
    // Unreachable (or too slow): every database check stays false.
  }
  checks.changeFeed = database.availabilityChanges.deliveryEpoch() !== null;
  return checks;
}

/**
 * Liveness and readiness for load balancers and orchestrators: no session, no rate limit, and
 * nothing logged while healthy (route log level warn); a change of readiness is logged once.
 */
export const healthPlugin = fp<{ database: DatabaseHandle }>(async (app: FastifyInstance, { database }) => {
  let shuttingDown = false;
  let lastReady: boolean | undefined;
  app.decorate('markShuttingDown', () => {
    shuttingDown = true;
  });

  const routes: FastifyPluginAsyncZod = async (scope) => {
    scope.get(
      '/health/live',
      { logLevel: 'warn', schema: { operationId: 'getHealthLive', tags: ['operations'], summary: 'The process is up', response: { 200: liveResponse } } },
      async () => ({ status: 'live' as const }),
    );
    scope.get(
      '/health/ready',
      {
        logLevel: 'warn',
        schema: {
          operationId: 'getHealthReady',
          tags: ['operations'],
          summary:
            'Ready for traffic: the database answers and takes writes, migrations are applied, the change feed listens, and the instance is not shutting down',
          response: { 200: readyResponse, 503: notReadyResponse },
        },
      },
      async (request, reply) => {
        const checks = await readiness(database, shuttingDown);
        const ready = Object.values(checks).every(Boolean);
        if (ready !== lastReady) {
          if (lastReady !== undefined) request.log.warn({ checks }, ready ? 'instance ready again' : 'instance not ready');
          lastReady = ready;
        }
        if (ready) return { status: 'ready' as const, checks };
        reply.header('retry-after', '5');
        return reply.code(503).send({ error: 'This instance is not ready to serve', checks });
      },
    );
  };
  await app.register(routes);
});
