import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_DATE_DEPOSIT_PAISE } from '#common/domain/dating-plan.ts';
import { refuseUnsafeProductionSettings } from './production-refusals.ts';

/** Every environment variable the server reads, parsed and typed once. */
const flag = z
  .enum(['1', '0', 'true', 'false', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true');

/** Every environment variable the server reads, with its rule and default (`.env.example` lists them all). */
export const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PostgreSQL server; unset means the embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().default('./data'),
  /**
   * The embedded database's shared buffers (decision 182): PostgreSQL's own cache inside PGlite's
   * memory. PostgreSQL's default, 128MB, costs about as much resident memory again.
   */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9]\d*(kB|MB|GB)$/, { message: 'PGLITE_SHARED_BUFFERS must be a size such as 32MB' })
    .default('32MB'),
  /**
   * Seed demo data: on by default for the embedded database, off for DATABASE_URL and in production
   * unless SEED_DEMO=1. Production never seeds the demo accounts, whose passwords are published (decision 201).
   */
  SEED_DEMO: flag,
  /** How long a hold lasts. Fractions are allowed (0.1 = 6 seconds) for tests and demos. */
  HOLD_MINUTES: z.coerce.number().positive().max(120).default(10),
  /** Slots starting within this many minutes can no longer be booked. */
  BOOKING_CUTOFF_MINUTES: z.coerce.number().int().min(0).max(1440).default(30),
  MAX_ACTIVE_HOLDS: z.coerce.number().int().min(1).max(100).default(2),
  /** Live reservations (holds included) starting later that one diner may have at once. */
  MAX_UPCOMING_RESERVATIONS: z.coerce.number().int().min(1).max(100).default(4),
  /** Holds one diner may start at one restaurant in any hour (decision 098); offers the system places do not count. */
  MAX_HOLDS_PER_RESTAURANT_PER_HOUR: z.coerce.number().int().min(1).default(4),
  /** No-show strikes (decision 122): this many within STRIKE_WINDOW_DAYS block new holds and drop entries. */
  STRIKE_LIMIT: z.coerce.number().int().min(1).max(100).default(3),
  STRIKE_WINDOW_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /** How long a waitlist offer (an exclusive hold) lasts before the next in line gets it. Fractions allowed. */
  WAITLIST_OFFER_MINUTES: z.coerce.number().positive().max(120).default(10),
  /** Outgoing email: smtp(s)://user:pass@host:port; unset means the dev mailbox and the log only. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Tablefair <no-reply@tablefair.in>'),
  /**
   * The dev mailbox (decision 093): `own` (default outside production) shows a signed-in diner only the
   * messages addressed to their account; `all` shows the whole outbox to anyone and is refused in
   * production; `off` (default in production) answers 404. `1`/`true` mean `own`, `0`/`false` mean `off`.
   */
  DEV_MAILBOX: z.enum(['', 'own', 'all', 'off', '1', 'true', '0', 'false']).optional(),
  /** How text messages leave: log (the log and the dev mailbox; the only driver so far). */
  SMS_DRIVER: z.enum(['log']).default('log'),
  /** How WhatsApp messages leave (decision 153): log (the log and the dev mailbox; the only driver so far). */
  WHATSAPP_DRIVER: z.enum(['log']).default('log'),
  /** Which channel reminders text a verified phone on (decision 153): sms or whatsapp. */
  REMINDER_TEXT_CHANNEL: z.enum(['sms', 'whatsapp']).default('sms'),
  /** Where diners reach the app, for the links in emails and texts (reminders, calendar files); default http://localhost:PORT. */
  PUBLIC_URL: z.preprocess((value) => (value === '' ? undefined : value), z.url({ protocol: /^https?$/ }).optional()),
  /** Countries texts may go to (decision 095): comma-separated calling codes. */
  SMS_ALLOWED_COUNTRY_CODES: z
    .string()
    .default('+91')
    .transform((value) =>
      value
        .split(',')
        .map((code) => code.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^\+\d{1,4}$/, { message: 'each country code is + and 1 to 4 digits' })).min(1)),
  /** Caps on texts, counted in the database so N instances share them (decision 095). Days are Kolkata days. */
  SMS_MAX_PER_ACCOUNT_PER_DAY: z.coerce.number().int().min(1).default(5),
  SMS_MAX_PER_IP_PER_DAY: z.coerce.number().int().min(1).default(20),
  SMS_MAX_PER_HOUR: z.coerce.number().int().min(1).default(200),
  /** Dating photo uploads not claimed by a finished signup within this many minutes are deleted by the sweep (issue 12 item 7). */
  UNCLAIMED_UPLOAD_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(60),
  /** Bytes of dating photos one address may upload per (Kolkata) day, counted in the database so N instances agree. */
  UPLOAD_BYTES_PER_IP_PER_DAY: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(40 * 1024 * 1024),
  /** Curated dating suggestions per member per Kolkata day, and the most candidates scored per member (decision 140). */
  DATING_SUGGESTIONS_PER_DAY: z.coerce.number().int().min(1).max(20).default(3),
  DATING_CANDIDATE_POOL: z.coerce.number().int().min(2).max(2000).default(30),
  /** What each member of a date plan pays on accepting, in paise: credit at the table, or paid to the one who came (decision 184). */
  DATING_DEPOSIT_PAISE: z.coerce.number().int().min(100).max(500_000).default(DEFAULT_DATE_DEPOSIT_PAISE),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24 * 30),
  /** log2 of scrypt's N; 15 means 32 MiB of memory per hash. */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(15),
  /** Secret for signed URLs and links; generated once and kept in the database when unset or empty (server/signing.ts). */
  SIGNING_SECRET: z.preprocess((value) => (value === '' ? undefined : value), z.string().min(32).optional()),
  /** How often expired holds are swept to CANCELLED (they stop counting at expiry regardless). */
  HOLD_SWEEP_SECONDS: z.coerce.number().positive().default(15),
  /** Reminders before a reservation (issue 16): minutes before the start, comma-separated; empty sends none. */
  REMINDER_OFFSETS_MINUTES: z
    .string()
    .default('1440,120')
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .map(Number),
    )
    .pipe(z.array(z.number().int().positive().max(10_080))),
  /** Availability in memory (decision 073): the most seconds an entry serves, whatever notifications say; 0 turns the cache off. */
  AVAILABILITY_CACHE_SECONDS: z.coerce.number().min(0).max(3600).default(300),
  /** How many restaurants' next 30 days the availability cache keeps (about 60 KB each). */
  AVAILABILITY_CACHE_RESTAURANTS: z.coerce.number().int().min(1).default(5000),
  WEB_DIST_DIR: z.string().default('./dist/web'),
  /**
   * Which proxies in front may set X-Forwarded-For (decision 094): a hop count (`1` = the nearest
   * proxy only; `true` means 1, never "trust everything") or a comma-separated list of proxy addresses/CIDRs.
   */
  TRUST_PROXY: z.string().optional(),
  /** A request's headers must arrive within this many seconds. */
  REQUEST_HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(10),
  /** A whole request, body included, must arrive within this many seconds, or 408 and the connection is closed. Fractions allowed. */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(60),
  /** Live-event streams (a diner's /api/me/events, the portal's /api/admin/events) open at once per account and per address, per instance. */
  EVENT_STREAMS_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  EVENT_STREAMS_PER_IP: z.coerce.number().int().min(1).default(20),
  /** On SIGTERM, how long requests in flight may take to finish before connections are cut. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().positive().max(600).default(10),
  /** Where rate-limit counters live: memory (one process), postgres or redis (shared by N instances). */
  RATE_LIMIT_STORE: z.enum(['memory', 'postgres', 'redis']).default('memory'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  RATE_LIMIT_LOGIN_PER_IP: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_LOGIN_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_SIGNUP_PER_IP: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_SIGNUP_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_BOOKING_PER_DINER: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_UPLOAD_PER_CALLER: z.coerce.number().int().min(1).default(30),
  /** Where uploaded files live: local disk under DATA_DIR/uploads, or an S3-compatible bucket. */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag,
  /** Where deposits are authorised: sandbox (built in, the default) or razorpay (docs/payments.md). */
  PAYMENTS_DRIVER: z.enum(['sandbox', 'razorpay']).default('sandbox'),
  /** The sandbox in production, on purpose, for a demo where no real money moves (decision 201); production refuses the sandbox without it. */
  PAYMENTS_SANDBOX_DEMO: flag,
  /** The sandbox gateway's webhook signing secret (HMAC-SHA-256); random per process when unset. Never logged. */
  PAYMENTS_WEBHOOK_SECRET: z.preprocess((value) => (value === '' ? undefined : value), z.string().min(16).optional()),
  /** How long a call to the provider may take before it counts as timed out (a retry or the next webhook settles it). */
  PAYMENTS_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Razorpay API keys and webhook secret (PAYMENTS_DRIVER=razorpay). Never logged. */
  RAZORPAY_KEY_ID: z.string().optional(),
  RAZORPAY_KEY_SECRET: z.string().optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().optional(),
  /** Razorpay's API origin; tests point it at a local server. */
  RAZORPAY_API_BASE: z.string().url().default('https://api.razorpay.com'),
  /** GET /metrics on the main port answers only `Authorization: Bearer <METRICS_TOKEN>`; unset, it answers 404 there. Never logged. */
  METRICS_TOKEN: z.preprocess((value) => (value === '' ? undefined : value), z.string().min(16).optional()),
  /** Serve /metrics (no token) on this separate port too, for a scraper on a private network; unset means none. */
  METRICS_PORT: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** How long opening a database connection may take before the request is answered 503 (and the primary looked for again). */
  /** On SIGTERM, readiness turns false at once; the instance keeps serving this long so the balancer sees it before draining starts. */
  SHUTDOWN_READINESS_DELAY_SECONDS: z.coerce.number().min(0).max(120).default(0),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
});

/** TRUST_PROXY as Fastify's trustProxy: off, a hop count, or a list of addresses/CIDRs (decision 094). */
function trustProxyOf(value: string | undefined): false | number | string[] {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === '0' || text === 'false') return false;
  // Legacy `true`/`1` meant "trust every X-Forwarded-For entry", which any client can forge: now one hop.
  if (text === 'true') return 1;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 10) throw new Error('Invalid configuration: TRUST_PROXY: a hop count must be between 0 and 10');
    return hops;
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => {
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address);
    return family === 0 || rest.length > 0 || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)));
  });
  if (bad.length) throw new Error(`Invalid configuration: TRUST_PROXY: ${bad.join(', ')} is not a hop count, an IP address or a CIDR`);
  return entries;
}

/**
 * The value for Fastify's `trustProxy` option: a hop count becomes proxy-addr's own rule for one
 * (the first `hops` addresses from the socket are proxies), because Fastify's types omit numbers.
 */
export function fastifyTrustProxy(trustProxy: AppConfig['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  return trustProxy === 0 ? false : (_address, hop) => hop < trustProxy;
}

/** Who may read the dev mailbox: nobody, each diner their own messages, or anyone everything (decision 093). */
export type DevMailboxMode = 'off' | 'own' | 'all';

/** DEV_MAILBOX as a mode; `all` is refused in production because it hands every one-time code to anyone. */
function devMailboxMode(value: string | undefined, nodeEnv: string): DevMailboxMode {
  const mode: DevMailboxMode = !value
    ? nodeEnv === 'production'
      ? 'off'
      : 'own'
    : value === '1' || value === 'true'
      ? 'own'
      : value === '0' || value === 'false'
        ? 'off'
        : (value as DevMailboxMode);
  if (mode === 'all' && nodeEnv === 'production') {
    throw new Error(
      'Invalid configuration: DEV_MAILBOX=all shows every code and email in the outbox to anyone and is refused when NODE_ENV=production (use DEV_MAILBOX=own or leave it unset)',
    );
  }
  return mode;
}

export type AppConfig = {
  nodeEnv: string;
  port: number;
  host: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  databaseUrl: string | undefined;
  databasePoolSize: number;
  dataDir: string;
  /** PGlite's shared_buffers, as PostgreSQL reads a size ('32MB'). */
  pgliteSharedBuffers: string;
  seedDemo: boolean;
  holdMinutes: number;
  bookingCutoffMinutes: number;
  maxActiveHolds: number;
  maxUpcomingReservations: number;
  maxHoldsPerRestaurantPerHour: number;
  /** No-show strikes that block bookings, and how long each counts (decision 122). */
  strikes: { limit: number; windowDays: number };
  waitlistOfferMinutes: number;
  /** Outgoing email and SMS (the outbox's drivers) and whether the dev mailbox is served. */
  notifications: { smtpUrl: string | undefined; mailFrom: string; devMailbox: DevMailboxMode; smsDriver: 'log'; whatsappDriver: 'log' };
  /** Where diners reach the app, without a trailing slash: links in emails and texts start with it. */
  publicUrl: string;
  /** Who texts may go to and how many (decision 095). */
  sms: { allowedCountryCodes: string[]; maxPerAccountPerDay: number; maxPerIpPerDay: number; maxPerHour: number };
  /** Anonymous dating photo uploads: how long an unclaimed one lives, and bytes per address per day. */
  uploads: { unclaimedTtlMinutes: number; bytesPerIpPerDay: number };
  /** Curated matches: suggestions per member per day, and candidates scored per member (decision 140). */
  datingMatches: { perDay: number; candidatePool: number };
  datingDepositPaise: number;
  sessionTtlHours: number;
  passwordHashCost: number;
  signingSecret: string | undefined;
  holdSweepSeconds: number;
  /** Minutes before a reservation's start that a reminder goes out (issue 16). */
  reminderOffsetsMinutes: number[];
  /** The channel reminders text a verified phone on. */
  reminderTextChannel: 'sms' | 'whatsapp';
  availabilityCache: { maxAgeSeconds: number; maxRestaurants: number };
  webDistDir: string;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses/CIDRs. */
  trustProxy: false | number | string[];
  shutdownGraceSeconds: number;
  /** Slow clients: headers, and the whole request, must arrive in time. */
  requestTimeouts: { headersSeconds: number; requestSeconds: number };
  /** Open live-event streams allowed per account and per address. */
  eventStreams: { perAccount: number; perIp: number };
  rateLimits: {
    store: 'memory' | 'postgres' | 'redis';
    redisUrl: string;
    windowSeconds: number;
    loginPerIp: number;
    loginPerAccount: number;
    signupPerIp: number;
    signupPerAccount: number;
    bookingPerCaller: number;
    uploadPerCaller: number;
  };
  /** The payments provider (docs/payments.md); secrets are never logged. */
  payments: {
    driver: 'sandbox' | 'razorpay';
    webhookSecret: string;
    providerTimeoutMs: number;
    /** Set when driver is razorpay. */
    razorpay?: { keyId: string; keySecret: string; webhookSecret: string; apiBase: string };
  };
  storage: {
    driver: 'local' | 's3';
    /** Set when driver is s3. */
    s3?: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string; forcePathStyle: boolean };
  };
  /** Who may read /metrics: the token on the main port, or anyone who reaches the separate port. */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  databaseConnectTimeoutMs: number;
  shutdownReadinessDelaySeconds: number;
};

/** Reads the configuration from an environment (process.env by default). */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.STORAGE_DRIVER === 's3') {
    const missing = (['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((name) => !e[name]);
    if (missing.length) throw new Error(`Invalid configuration: STORAGE_DRIVER=s3 needs ${missing.join(', ')}`);
  }
  if (e.PAYMENTS_DRIVER === 'razorpay') {
    const missing = (['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'] as const).filter((name) => !e[name]);
    if (missing.length) throw new Error(`Invalid configuration: PAYMENTS_DRIVER=razorpay needs ${missing.join(', ')}`);
  }
  const config: AppConfig = {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir: e.DATA_DIR,
    pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS,
    seedDemo: env.SEED_DEMO === undefined || env.SEED_DEMO === '' ? !e.DATABASE_URL && e.NODE_ENV !== 'production' : e.SEED_DEMO,
    holdMinutes: e.HOLD_MINUTES,
    bookingCutoffMinutes: e.BOOKING_CUTOFF_MINUTES,
    maxActiveHolds: e.MAX_ACTIVE_HOLDS,
    maxUpcomingReservations: e.MAX_UPCOMING_RESERVATIONS,
    maxHoldsPerRestaurantPerHour: e.MAX_HOLDS_PER_RESTAURANT_PER_HOUR,
    strikes: { limit: e.STRIKE_LIMIT, windowDays: e.STRIKE_WINDOW_DAYS },
    waitlistOfferMinutes: e.WAITLIST_OFFER_MINUTES,
    notifications: {
      smtpUrl: e.SMTP_URL || undefined,
      mailFrom: e.MAIL_FROM,
      devMailbox: devMailboxMode(e.DEV_MAILBOX, e.NODE_ENV),
      smsDriver: e.SMS_DRIVER,
      whatsappDriver: e.WHATSAPP_DRIVER,
    },
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    sms: {
      allowedCountryCodes: e.SMS_ALLOWED_COUNTRY_CODES,
      maxPerAccountPerDay: e.SMS_MAX_PER_ACCOUNT_PER_DAY,
      maxPerIpPerDay: e.SMS_MAX_PER_IP_PER_DAY,
      maxPerHour: e.SMS_MAX_PER_HOUR,
    },
    uploads: { unclaimedTtlMinutes: e.UNCLAIMED_UPLOAD_TTL_MINUTES, bytesPerIpPerDay: e.UPLOAD_BYTES_PER_IP_PER_DAY },
    datingMatches: { perDay: e.DATING_SUGGESTIONS_PER_DAY, candidatePool: e.DATING_CANDIDATE_POOL },
    datingDepositPaise: e.DATING_DEPOSIT_PAISE,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    passwordHashCost: e.PASSWORD_HASH_COST,
    signingSecret: e.SIGNING_SECRET,
    holdSweepSeconds: e.HOLD_SWEEP_SECONDS,
    reminderOffsetsMinutes: e.REMINDER_OFFSETS_MINUTES,
    reminderTextChannel: e.REMINDER_TEXT_CHANNEL,
    availabilityCache: { maxAgeSeconds: e.AVAILABILITY_CACHE_SECONDS, maxRestaurants: e.AVAILABILITY_CACHE_RESTAURANTS },
    webDistDir: e.WEB_DIST_DIR,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    requestTimeouts: { headersSeconds: e.REQUEST_HEADERS_TIMEOUT_SECONDS, requestSeconds: e.REQUEST_TIMEOUT_SECONDS },
    eventStreams: { perAccount: e.EVENT_STREAMS_PER_ACCOUNT, perIp: e.EVENT_STREAMS_PER_IP },
    rateLimits: {
      store: e.RATE_LIMIT_STORE,
      redisUrl: e.REDIS_URL,
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      loginPerIp: e.RATE_LIMIT_LOGIN_PER_IP,
      loginPerAccount: e.RATE_LIMIT_LOGIN_PER_ACCOUNT,
      signupPerIp: e.RATE_LIMIT_SIGNUP_PER_IP,
      signupPerAccount: e.RATE_LIMIT_SIGNUP_PER_ACCOUNT,
      bookingPerCaller: e.RATE_LIMIT_BOOKING_PER_DINER,
      uploadPerCaller: e.RATE_LIMIT_UPLOAD_PER_CALLER,
    },
    payments: {
      driver: e.PAYMENTS_DRIVER,
      webhookSecret: e.PAYMENTS_WEBHOOK_SECRET ?? randomBytes(32).toString('hex'),
      providerTimeoutMs: e.PAYMENTS_PROVIDER_TIMEOUT_MS,
      razorpay:
        e.PAYMENTS_DRIVER === 'razorpay'
          ? { keyId: e.RAZORPAY_KEY_ID!, keySecret: e.RAZORPAY_KEY_SECRET!, webhookSecret: e.RAZORPAY_WEBHOOK_SECRET!, apiBase: e.RAZORPAY_API_BASE }
          : undefined,
    },
    storage: {
      driver: e.STORAGE_DRIVER,
      s3:
        e.STORAGE_DRIVER === 's3'
          ? {
              endpoint: e.S3_ENDPOINT!,
              bucket: e.S3_BUCKET!,
              region: e.S3_REGION,
              accessKeyId: e.S3_ACCESS_KEY_ID!,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
            }
          : undefined,
    },
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    shutdownReadinessDelaySeconds: e.SHUTDOWN_READINESS_DELAY_SECONDS,
  };
  refuseUnsafeProductionSettings(e);
  return config;
}
