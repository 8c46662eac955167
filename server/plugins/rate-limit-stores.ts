import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { queryRows, type Db } from '#server/db/client.ts';

/**
 * Where rate-limit counters live. Fixed windows: a key's hits in the window that
 * contains `now`. Memory suits one process; PostgreSQL or Redis share the counts
 * between N instances.
 */
export interface RateLimitStore {
  /** Adds one hit (or `by`; -1 gives one back) and returns the window's total including it. */
  hit(key: string, windowStart: Date, windowMs: number, by?: number): Promise<number>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counts = new Map<string, { windowStart: number; hits: number }>();

  async hit(key: string, windowStart: Date, _windowMs?: number, by = 1): Promise<number> {
    const start = windowStart.getTime();
    const current = this.counts.get(key);
    if (!current || current.windowStart !== start) {
      // Old windows are dropped lazily; bound memory by clearing when it grows large.
      if (this.counts.size > 100_000) this.counts.clear();
      this.counts.set(key, { windowStart: start, hits: by });
      return by;
    }
    current.hits += by;
    return current.hits;
  }

  async close(): Promise<void> {}
}

export class PostgresRateLimitStore implements RateLimitStore {
  private lastCleanup = 0;

  constructor(private readonly db: Db) {}

  async hit(key: string, windowStart: Date, windowMs: number, by = 1): Promise<number> {
    const [row] = await queryRows<{ hits: number }>(
      this.db,
      sql`INSERT INTO rate_limit_counters (key, window_start, hits) VALUES (${key}, ${windowStart.toISOString()}, ${by})
          ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + ${by}
          RETURNING hits`,
    );
    if (windowStart.getTime() - this.lastCleanup > windowMs * 10) {
      this.lastCleanup = windowStart.getTime();
      // Keys under sms: are the daily text caps' (decision 095), kept by their own cleanup.
      await this.db.execute(
        sql`DELETE FROM rate_limit_counters WHERE window_start < ${new Date(windowStart.getTime() - windowMs * 10).toISOString()} AND key NOT LIKE 'sms:%'`,
      );
    }
    return row.hits;
  }

  async close(): Promise<void> {}
}

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    // A Redis outage must not crash the app; hit() then fails and the caller decides.
    this.redis.on('error', () => {});
  }

  async hit(key: string, windowStart: Date, windowMs: number, by = 1): Promise<number> {
    const redisKey = `tablefair:rl:${key}:${windowStart.getTime()}`;
    const [[, hits]] = (await this.redis
      .multi()
      .incrby(redisKey, by)
      .pexpire(redisKey, windowMs * 2)
      .exec()) as [[Error | null, number]];
    return hits;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => {});
  }
}
