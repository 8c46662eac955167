import { z } from 'zod';

/** GET /health/live: the process answers. */
export const liveResponse = z.object({ status: z.literal('live') });

/** Each readiness check by name: true when it passes. */
export const readinessChecks = z.object({
  database: z.boolean(),
  writable: z.boolean(),
  migrations: z.boolean(),
  changeFeed: z.boolean(),
  notShuttingDown: z.boolean(),
});
export type ReadinessChecks = z.infer<typeof readinessChecks>;

/** GET /health/ready: 200 when every check passes, else 503 naming the ones that fail. */
export const readyResponse = z.object({ status: z.literal('ready'), checks: readinessChecks });
export const notReadyResponse = z.object({ error: z.string(), checks: readinessChecks });

/** The metrics token, sent as `Authorization: Bearer <token>`. */
export const metricsHeaders = z.object({ authorization: z.string().max(512).optional() });
