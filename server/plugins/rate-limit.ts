import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { hookWhen, onSendWhen, routeFacts } from './public-reads.ts';
import { MemoryRateLimitStore, PostgresRateLimitStore, RedisRateLimitStore, type RateLimitStore } from './rate-limit-stores.ts';

export type RateLimitGroup = NonNullable<import('fastify').FastifyContextConfig['rateLimitGroup']>;

/** One budget: `limit` hits per window for the key a request maps to. */
interface Budget {
  name: string;
  limit: number;
  keyOf(request: FastifyRequest): Promise<string | undefined>;
  /** Give the hit back when the call succeeds: only failed attempts spend it (an account's login budget). */
  onlyFailures?: boolean;
}

/** The account a login or signup names (username, or phone for dating), lower-cased. */
function accountNameOf(request: FastifyRequest): string | undefined {
  const body = request.body as { username?: unknown; phone?: unknown } | undefined;
  const name = typeof body?.username === 'string' ? body.username : typeof body?.phone === 'string' ? body.phone : undefined;
  return name ? name.trim().toLowerCase().slice(0, 64) : undefined;
}

function budgetsFor(config: AppConfig): Record<RateLimitGroup, Budget[]> {
  const byIp = async (request: FastifyRequest) => request.ip;
  const byAccountName = async (request: FastifyRequest) => accountNameOf(request);
  const byCaller = async (request: FastifyRequest) => {
    const principal = await request.principal();
    if (principal.kind === 'diner') return `diner:${principal.userId}`;
    if (principal.kind === 'staff') return `staff:${principal.staffId}`;
    if (principal.kind === 'dating') return `dating:${principal.datingUserId}`;
    if (principal.kind === 'moderator') return `moderator:${principal.moderatorId}`;
    return `ip:${request.ip}`;
  };
  const limits = config.rateLimits;
  return {
    login: [
      { name: 'login-ip', limit: limits.loginPerIp, keyOf: byIp },
      // Only failed logins spend the account's budget, so nobody else's calls can lock its owner out.
      { name: 'login-account', limit: limits.loginPerAccount, keyOf: byAccountName, onlyFailures: true },
    ],
    // Phone codes: per IP and per caller, never per phone (it would spend that phone's login budget).
    phone: [
      { name: 'phone-ip', limit: limits.loginPerIp, keyOf: byIp },
      { name: 'phone-caller', limit: limits.loginPerAccount, keyOf: byCaller },
    ],
    signup: [
      { name: 'signup-ip', limit: limits.signupPerIp, keyOf: byIp },
      { name: 'signup-account', limit: limits.signupPerAccount, keyOf: byAccountName },
    ],
    // "Forgot password": per address here; per typed address and per account in the service (decision 230).
    reset: [{ name: 'reset-ip', limit: limits.loginPerIp, keyOf: byIp }],
    booking: [{ name: 'booking', limit: limits.bookingPerCaller, keyOf: byCaller }],
    upload: [{ name: 'upload', limit: limits.uploadPerCaller, keyOf: byCaller }],
  };
}

export function createRateLimitStore(config: AppConfig, db: Db): RateLimitStore {
  switch (config.rateLimits.store) {
    case 'postgres':
      return new PostgresRateLimitStore(db);
    case 'redis':
      return new RedisRateLimitStore(config.rateLimits.redisUrl);
    case 'memory':
      return new MemoryRateLimitStore();
  }
}

/**
 * Rate limits for routes marked `config: { rateLimitGroup }`: fixed windows of
 * RATE_LIMIT_WINDOW_SECONDS, several budgets per group (per IP and per account name for
 * login and signup, per caller for booking). Over budget answers 429 with Retry-After.
 */
export const rateLimitPlugin = fp(async (app, options: { config: AppConfig; db: Db }) => {
  const { config } = options;
  const store = createRateLimitStore(config, options.db);
  const budgets = budgetsFor(config);
  const windowMs = config.rateLimits.windowSeconds * 1000;
  const refunds = new WeakMap<FastifyRequest, { key: string; windowStart: Date }[]>();

  // Only routes with a rateLimitGroup run these (a callback for the others, decision 186).
  app.addHook(
    'preHandler',
    hookWhen(
      (request) => routeFacts(request).config?.rateLimitGroup !== undefined,
      async function rateLimit(request, reply) {
        const group = routeFacts(request).config?.rateLimitGroup;
        if (!group) return;
        const now = app.deps.clock.now().getTime();
        const windowStart = new Date(now - (now % windowMs));
        for (const budget of budgets[group]) {
          const key = await budget.keyOf(request);
          if (!key) continue;
          let hits: number;
          try {
            hits = await store.hit(`${budget.name}:${key}`, windowStart, windowMs);
          } catch (error) {
            // Fail open: a broken counter store must not lock every diner out.
            request.log.warn({ err: error, budget: budget.name }, 'rate-limit store unavailable');
            continue;
          }
          if (budget.onlyFailures && hits <= budget.limit)
            refunds.set(request, [...(refunds.get(request) ?? []), { key: `${budget.name}:${key}`, windowStart }]);
          if (hits > budget.limit) {
            const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now) / 1000));
            reply.header('retry-after', String(retryAfter));
            throw new AppError('RATE_LIMITED', `Too many attempts. Please wait ${retryAfter} seconds and try again.`);
          }
        }
      },
    ),
  );

  // A call that succeeded gives back the hits of its onlyFailures budgets, before the answer leaves.
  app.addHook(
    'onSend',
    onSendWhen(
      (request) => refunds.has(request),
      async function refundRateLimit(request, reply, payload) {
        const owed = refunds.get(request);
        if (!owed || reply.statusCode >= 400) return payload;
        refunds.delete(request);
        for (const { key, windowStart } of owed) await store.hit(key, windowStart, windowMs, -1).catch(() => {});
        return payload;
      },
    ),
  );

  app.addHook('onClose', async () => store.close());
});
