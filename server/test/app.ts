import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { ManualClock } from '#server/clock.ts';
import { loadConfig, type AppConfig } from '#server/config.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import type { LogDestination } from '#server/logging.ts';
import { createTestDatabase } from './database.ts';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  clock: ManualClock;
  config: AppConfig;
  close(): Promise<void>;
}

/** Limits high enough that ordinary tests never meet them; rate-limit tests set their own. */
export const GENEROUS_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_LOGIN_PER_IP: '100000',
  RATE_LIMIT_LOGIN_PER_ACCOUNT: '100000',
  RATE_LIMIT_SIGNUP_PER_IP: '100000',
  RATE_LIMIT_SIGNUP_PER_ACCOUNT: '100000',
  RATE_LIMIT_BOOKING_PER_DINER: '100000',
  RATE_LIMIT_UPLOAD_PER_CALLER: '100000',
  SMS_MAX_PER_ACCOUNT_PER_DAY: '100000',
  SMS_MAX_PER_IP_PER_DAY: '100000',
  SMS_MAX_PER_HOUR: '100000',
  MAX_HOLDS_PER_RESTAURANT_PER_HOUR: '100000',
};

/** A fixed "now" for tests: 10:00 in Kolkata on a weekday, well before the evening slots. */
export const TEST_NOW = '2026-11-23T04:30:00.000Z';
/** TEST_NOW's day in Kolkata: its evening slots are still ahead of "now". */
export const TEST_TODAY = '2026-11-23';
/** The Kolkata day after TEST_NOW's: its evening slots are all ahead of "now". */
export const TEST_TOMORROW = '2026-11-24';

/** The real app on an isolated database, with a clock the test moves by hand. */
export async function createTestApp(
  options: { env?: Record<string, string>; now?: string; database?: DatabaseHandle; logDestination?: LogDestination } = {},
): Promise<TestApp> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '10', ...GENEROUS_RATE_LIMITS, ...options.env });
  const database = options.database ?? (await createTestDatabase());
  const clock = new ManualClock(options.now ?? TEST_NOW);
  const app = await buildApp({ config, database, clock, runBackgroundJobs: false, logDestination: options.logDestination });
  await app.ready();
  return {
    app,
    database,
    clock,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** `Authorization` header for a bearer token. */
export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** POST /api/reservations as the diner holding `token`: the hold most tests start from (with what the diner tells the restaurant, if any). */
export function requestHold(
  app: FastifyInstance,
  token: string,
  hold: { restaurantSlug: string; date: string; time: string; partySize: number; request?: object },
) {
  return app.inject({ method: 'POST', url: '/api/reservations', headers: bearer(token), payload: hold });
}

/** PUT /api/moderation/staff-accounts/:id/password as the account holding `token` (a moderator, or someone it must refuse). */
export function setStaffPassword(app: FastifyInstance, token: string, staffId: string, password: string) {
  return app.inject({ method: 'PUT', url: `/api/moderation/staff-accounts/${staffId}/password`, headers: bearer(token), payload: { password } });
}

/** A POST whose JSON body goes as written (too large, malformed, unsigned), for tests of what the server refuses. */
export function postRawJson(app: FastifyInstance, url: string, payload: string) {
  return app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
}
