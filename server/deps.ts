import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.ts';
import type { AppConfig } from './config.ts';
import type { ChangeFeed, Db } from './db/client.ts';
import type { AppEvents } from './events.ts';
import type { AppMetrics } from './metrics.ts';

/** What every service is built from. Services never see a request. */
export interface AppDeps {
  db: Db;
  clock: Clock;
  config: AppConfig;
  events: AppEvents;
  log: FastifyBaseLogger;
  /** Restaurants whose availability changed, from the database (any instance). */
  availabilityChanges: ChangeFeed;
  /** Prometheus series services record into (GET /metrics); absent where a service is built alone. */
  metrics?: AppMetrics;
}
