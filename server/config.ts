import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_DATE_DEPOSIT_PAISE } from '#common/domain/dating-plan.ts';
import { refuseUnsafeProductionSettings } from './production-refusals.ts';

const flag = z
  .enum(['1', '0', 'true', 'false', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true');

/** A setting left empty (`KEY=` in an env file) counts as unset, so `schema` judges only a value given. */
const unsetWhenBlank = <Schema extends z.ZodType>(schema: Schema) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/**
 * Every environment variable the server reads, with its rule, its default and what it means, in
 * sections. Each `.describe()` is that variable's line in docs/configuration.md and its comment in
 * .env.example: both are generated from these sections by `npm run config-docs`, and
 * server/config.test.ts fails while either is stale or a variable has no description (decision 194).
 */
const serverEnv = {
  NODE_ENV: z
    .string()
    .default('development')
    .describe(
      '`production` turns the dev mailbox off, refuses `DEV_MAILBOX=all`, the payments sandbox (unless `PAYMENTS_SANDBOX_DEMO=1`) and texts on log drivers only (unless `TEXTS_LOG_DEMO=1`, decision 214), seeds nothing unless `SEED_DEMO=1`, and never makes or signs in the demo accounts: their passwords are published (decision 201).',
    ),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe('The port the server listens on.'),
  HOST: z.string().default('0.0.0.0').describe('The address the server listens on.'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino log level: fatal, error, warn, info, debug, trace or silent.'),
  TRUST_PROXY: z
    .string()
    .optional()
    .describe(
      'Trust `X-Forwarded-*` from proxies in front: a hop count (`1` = the nearest proxy only; `true` means `1`, never "trust everything") or a comma-separated list of proxy addresses/CIDRs (`10.0.0.0/8,192.168.1.5`). Unset trusts nothing (docs/operations.md §4, decision 094).',
    ),
  REQUEST_HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(10).describe("A request's headers must arrive within this many seconds."),
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(3600)
    .default(60)
    .describe(
      'The whole request, body included, must arrive within this many seconds (fractions allowed), or it is answered 408 and the connection closed (a trickled body; uploads on slow links need it long enough).',
    ),
  EVENT_STREAMS_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(1)
    .default(5)
    .describe('Live-event streams (`/api/me/events`, `/api/admin/events`) open at once per account, per instance; one more answers 429.'),
  EVENT_STREAMS_PER_IP: z.coerce.number().int().min(1).default(20).describe('Live-event streams open at once per address, per instance.'),
  SHUTDOWN_GRACE_SECONDS: z.coerce
    .number()
    .positive()
    .max(600)
    .default(10)
    .describe('On SIGTERM, how long requests in flight may take to finish before connections are cut.'),
  WEB_DIST_DIR: z.string().default('./dist/web').describe('Where the built web app (made by `vite build`) is served from.'),
};

const databaseEnv = {
  DATABASE_URL: z
    .string()
    .optional()
    .describe(
      'PostgreSQL connection string (`postgres://user:pass@host:5432/db`); unset means the embedded PGlite under `DATA_DIR`. It may name several hosts with `target_session_attrs=read-write` (`h1:5432,h2:5432/db?target_session_attrs=read-write`): the app finds the writable primary (docs/operations.md §10).',
    ),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10).describe('Connections per process on PostgreSQL.'),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(5000)
    .describe('A database connection not open by then answers 503 with Retry-After, and the app looks for the writable primary again.'),
  DATA_DIR: z
    .string()
    .default('./data')
    .describe(
      "The embedded database and uploaded files, owner-only (folders 0700, files 0600). One server per folder: `DATA_DIR/tablefair.lock` holds the running server's PID and a second server on the same folder refuses to start; a lock left by a killed server is taken over.",
    ),
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9]\d*(kB|MB|GB)$/, { message: 'PGLITE_SHARED_BUFFERS must be a size such as 32MB' })
    .default('32MB')
    .describe(
      "The embedded database's own cache (PostgreSQL's shared buffers inside PGlite); PostgreSQL's default of `128MB` costs about 130 MB more resident memory (decision 182).",
    ),
  SEED_DEMO: flag.describe(
    'Seed the demo restaurants and accounts: unset means on for PGlite, off for `DATABASE_URL` and in production; `1` or `0` forces it. Production never seeds the demo accounts, whose passwords are published (decision 201).',
  ),
};

const reservationsEnv = {
  HOLD_MINUTES: z.coerce
    .number()
    .positive()
    .max(120)
    .default(10)
    .describe('How long a hold lasts, in minutes (fractions allowed: `0.1` is 6 seconds, for tests and demos).'),
  BOOKING_CUTOFF_MINUTES: z.coerce.number().int().min(0).max(1440).default(30).describe('A slot can no longer be booked this many minutes before it starts.'),
  MAX_ACTIVE_HOLDS: z.coerce.number().int().min(1).max(100).default(2).describe('Unexpired holds one diner may have at once.'),
  MAX_UPCOMING_RESERVATIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(4)
    .describe('Live reservations (holds included) starting later that one diner may have at once.'),
  MAX_HOLDS_PER_RESTAURANT_PER_HOUR: z.coerce
    .number()
    .int()
    .min(1)
    .default(4)
    .describe(
      'Holds one diner may start at one restaurant in any hour, counted in the database (so N instances agree); the next answers 429 with the time to try again. Waitlist and drop offers do not count (decision 098).',
    ),
  STRIKE_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(3)
    .describe('No-show strikes within `STRIKE_WINDOW_DAYS` that block new holds and drop entries until the oldest leaves the window (decision 122).'),
  STRIKE_WINDOW_DAYS: z.coerce.number().int().min(1).max(3650).default(365).describe('How many days a no-show strike counts.'),
  WAITLIST_OFFER_MINUTES: z.coerce
    .number()
    .positive()
    .max(120)
    .default(10)
    .describe('How long a waitlist offer (an exclusive hold) lasts before the next in line gets it (fractions allowed).'),
  HOLD_SWEEP_SECONDS: z.coerce
    .number()
    .positive()
    .default(15)
    .describe('How often expired holds are written as cancelled (they stop counting at expiry regardless).'),
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
    .pipe(z.array(z.number().int().positive().max(10_080)))
    .describe(
      'Minutes before a reservation\'s start that a reminder goes out by email and text, comma-separated (empty sends none); each carries one-tap "I\'m coming" and "Release my table" links (decision 152).',
    ),
  REMINDER_TEXT_CHANNEL: z.enum(['sms', 'whatsapp']).default('sms').describe('How reminders text a verified phone: `sms` or `whatsapp` (decision 153).'),
  AVAILABILITY_CACHE_SECONDS: z.coerce
    .number()
    .min(0)
    .max(86_400)
    .default(3600)
    .describe(
      'Longest an in-memory availability entry serves unread; changes invalidate it at once through LISTEN/NOTIFY (decision 073), so this is only the safety net for a write that bypasses the triggers, which shows within about this long. A read after 60–90 % of it (drawn per entry) reads the restaurant again in the background and, if unchanged, renews the entry with its kept answers (decision 239); each such read costs about 25 ms of CPU per restaurant, so a short age costs a city of restaurants a share of a core. `0` turns the memory off.',
    ),
  AVAILABILITY_TEXT_MEGABYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(4096)
    .default(128)
    .describe(
      'How many million characters of finished availability answers are kept across all restaurants (about as many megabytes: the text is ASCII but for names in deposits); past it, the restaurants whose answers were started longest ago go first. A city of 2,000 restaurants asked for about 56,000 different (restaurant, date, party size) answers needs about 80 (docs/performance.md §10).',
    ),
  AVAILABILITY_CACHE_RESTAURANTS: z.coerce
    .number()
    .int()
    .min(1)
    .default(5000)
    .describe(
      "How many restaurants' next 30 days the availability cache keeps (about 0.3 MB each with a busy floor, before its kept answers; docs/performance.md §10).",
    ),
};

const accountsEnv = {
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24 * 30)
    .describe('How long a sign-in lasts, in hours.'),
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(15).describe("log2 of scrypt's N (15 means 32 MiB of memory per hash)."),
  SIGNING_SECRET: unsetWhenBlank(z.string().min(32)).describe(
    'At least 32 characters; signs upload URLs and the links in reminders and calendar emails (decision 152). Unset, a key is generated once and kept in the database, so every instance reads the same one (server/signing.ts).',
  ),
};

const messagesEnv = {
  PUBLIC_URL: unsetWhenBlank(z.url({ protocol: /^https?$/ })).describe(
    'Where diners reach the app: the links in emails and texts (reminders, calendar files) start with it. Unset means `http://localhost:PORT`.',
  ),
  SMTP_URL: z.string().optional().describe('Outgoing email (`smtp://user:pass@host:587`, or `smtps://`); unset keeps email in the dev mailbox and the log.'),
  MAIL_FROM: z.string().default('Tablefair <no-reply@tablefair.in>').describe('The sender of outgoing email.'),
  DEV_MAILBOX: z
    .enum(['', 'own', 'all', 'off', '1', 'true', '0', 'false'])
    .optional()
    .describe(
      'Who may read `GET /api/dev/mailbox` (recent email and texts, codes included): `own` (the default outside production): a signed-in diner sees only messages to their own account, signed out 401; `all`: the whole outbox to anyone (tests and local demos; refused at start when `NODE_ENV=production`); `off` (the default in production): 404. `1`/`true` mean `own`, `0`/`false` mean `off` (decision 093).',
    ),
  SMS_DRIVER: z
    .enum(['log', 'exotel'])
    .default('log')
    .describe(
      'How texts leave: `log` writes them to the log (outside production) and the dev mailbox, and is refused when `NODE_ENV=production` unless WhatsApp has a real driver; `exotel` sends them through Exotel with the DLT settings below (decision 210).',
    ),
  WHATSAPP_DRIVER: z
    .enum(['log', 'cloud'])
    .default('log')
    .describe(
      "How WhatsApp messages leave: `log` writes the template and its values to the log (outside production) and the dev mailbox (decision 153); `cloud` sends Meta's WhatsApp Business Cloud API template messages (decision 211).",
    ),
};

const optionalText = unsetWhenBlank(z.string());

/** The SMS gateway's settings (decision 210): read only when SMS_DRIVER=exotel, which needs every one without a default. */
const exotelEnv = {
  EXOTEL_API_BASE: z
    .string()
    .url()
    .default('https://api.in.exotel.com')
    .describe("Exotel's API origin: `https://api.in.exotel.com` (Mumbai cluster) or `https://api.exotel.com` (Singapore); tests point it at a local server."),
  EXOTEL_ACCOUNT_SID: optionalText.describe('The Exotel account SID (Dashboard → API settings).'),
  EXOTEL_API_KEY: optionalText.describe('The Exotel API key: the user name of the Basic authorisation.'),
  EXOTEL_API_TOKEN: optionalText.describe('The Exotel API token: the password of the Basic authorisation; never logged.'),
  EXOTEL_SENDER_ID: optionalText.describe("The DLT-registered sender id (header) texts come from, six letters such as `TBLFAR`: Exotel's `From`."),
  EXOTEL_DLT_ENTITY_ID: optionalText.describe("Tablefair's principal entity id on the DLT portal: Exotel's `DltEntityId`, sent with every text."),
  EXOTEL_DLT_TEMPLATE_CODE: optionalText.describe('The DLT template id of the one-time code texts (phone verification, password reset, dating signup).'),
  EXOTEL_DLT_TEMPLATE_NOTICE: optionalText.describe(
    'The DLT template id of the account notice text (a signup tried with a number that already has an account).',
  ),
  EXOTEL_DLT_TEMPLATE_REMINDER: optionalText.describe('The DLT template id of the reservation reminder text.'),
  EXOTEL_DLT_TEMPLATE_OFFER: optionalText.describe('The DLT template id of the "a table is yours" offer text (waitlist and drops).'),
  EXOTEL_CALLBACK_TOKEN: unsetWhenBlank(z.string().min(24)).describe(
    "At least 24 characters, kept secret: Exotel's delivery receipts carry no signature, so the StatusCallback URL (`PUBLIC_URL/api/notifications/receipts/exotel/<token>`) carries this token and a receipt without it is refused (decision 210).",
  ),
};

/** Web Push (docs/decisions/212-web-push-and-installable-app.md): the VAPID key pair that signs every push. */
const pushEnv = {
  PUSH_DRIVER: unsetWhenBlank(z.enum(['webpush', 'off'])).describe(
    '`webpush` sends offers, reminders, draw results and date-plan changes to the browsers diners and dating members subscribed (Web Push with VAPID); `off` leaves push out of every route. Unset: `webpush`, except in production without VAPID keys, where push stays off and the start-up log says so. `NODE_ENV=production` with `PUSH_DRIVER=webpush` (or only some of the VAPID settings) refuses to start without all three (decision 212).',
  ),
  VAPID_PUBLIC_KEY: optionalText.describe(
    'The VAPID public key (URL-safe base64, 65 bytes uncompressed P-256), as `npx web-push generate-vapid-keys` prints it; browsers subscribe with it. Unset outside production: a pair is made once and kept in `DATA_DIR/vapid-keys.json` (tests keep theirs in memory).',
  ),
  VAPID_PRIVATE_KEY: optionalText.describe('The VAPID private key that signs each push; kept secret, never logged. Changing it ends every subscription.'),
  VAPID_SUBJECT: optionalText.describe(
    'Who push services may contact about our pushes: a `mailto:` address or an `https:` URL (`mailto:ops@tablefair.in`). Unset outside production: `mailto:push@localhost`.',
  ),
};

/** WhatsApp Business Cloud API settings (decision 211): read only when WHATSAPP_DRIVER=cloud. */
const whatsappEnv = {
  WHATSAPP_API_BASE: z
    .string()
    .url()
    .default('https://graph.facebook.com/v21.0')
    .describe('The Graph API origin and version; tests point it at a local server.'),
  WHATSAPP_PHONE_NUMBER_ID: optionalText.describe("The business phone number's id (WhatsApp Manager → API setup): messages are posted to `/<id>/messages`."),
  WHATSAPP_ACCESS_TOKEN: optionalText.describe(
    "A system user's permanent access token with `whatsapp_business_messaging`; sent as a bearer token, never logged.",
  ),
  WHATSAPP_APP_SECRET: optionalText.describe("The Meta app's secret: the webhook's `X-Hub-Signature-256` is the HMAC-SHA256 of the raw body with it."),
  WHATSAPP_VERIFY_TOKEN: optionalText.describe("The token typed into the app's webhook settings; the verify handshake (`hub.verify_token`) must send it back."),
  WHATSAPP_TEMPLATE_LANGUAGE: z.string().default('en').describe('The language code the templates are registered in.'),
  WHATSAPP_TEMPLATE_CODE: z.string().default('tablefair_code').describe('The authentication template (copy-code button) one-time codes go out in.'),
  WHATSAPP_TEMPLATE_NOTICE: z.string().default('tablefair_account_notice').describe('The utility template of the account notice.'),
  WHATSAPP_TEMPLATE_OFFER: z.string().default('tablefair_table_offer').describe('The utility template of a table offer (waitlist and drops).'),
  MESSAGE_PROVIDER_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(500)
    .max(60_000)
    .default(10_000)
    .describe('How long a call to the SMS or WhatsApp provider may take before it counts as failed and is tried again later.'),
  TEXTS_LOG_DEMO: flag.describe(
    '`1` lets a production server run with only log drivers for texts: a demo where no code, reminder or offer reaches a phone (decision 214). Without it, `NODE_ENV=production` with `SMS_DRIVER=log` and `WHATSAPP_DRIVER=log` refuses to start.',
  ),
  SMS_ALLOWED_COUNTRY_CODES: z
    .string()
    .default('+91')
    .transform((value) =>
      value
        .split(',')
        .map((code) => code.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^\+\d{1,4}$/, { message: 'each country code is + and 1 to 4 digits' })).min(1))
    .describe('Calling codes texts may go to, comma-separated (`+91,+971`); a number with another code is refused with 400 (decision 095).'),
  SMS_MAX_PER_ACCOUNT_PER_DAY: z.coerce
    .number()
    .int()
    .min(1)
    .default(5)
    .describe('Texts per account per Kolkata day, counted in the database (shared by N instances); over the cap answers 429 (decision 095).'),
  SMS_MAX_PER_IP_PER_DAY: z.coerce.number().int().min(1).default(20).describe('Texts per address per Kolkata day.'),
  SMS_MAX_PER_HOUR: z.coerce
    .number()
    .int()
    .min(1)
    .default(200)
    .describe('Texts in all per hour: at most 24 times this a day, 4,800 by default (docs/operations.md §1).'),
};

const datingEnv = {
  UNCLAIMED_UPLOAD_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(60)
    .describe(
      'Dating photo uploads (which need no account) not claimed by a finished signup within this many minutes are deleted by the background sweep, file and row (docs/operations.md §6).',
    ),
  UPLOAD_BYTES_PER_IP_PER_DAY: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(40 * 1024 * 1024)
    .describe(
      'Bytes of dating photos one address may upload per Kolkata day (40 MB), counted in the database (shared by N instances); over it answers 429 "This network has uploaded 40 MB of photos today…". On S3 each presigned photo counts as 8 MB.',
    ),
  DATING_SUGGESTIONS_PER_DAY: z.coerce
    .number()
    .int()
    .min(1)
    .max(20)
    .default(3)
    .describe('Curated dating suggestions per member per Kolkata day; nobody is suggested more often than this either (decision 140).'),
  DATING_CANDIDATE_POOL: z.coerce
    .number()
    .int()
    .min(2)
    .max(2000)
    .default(30)
    .describe(
      "The most candidates scored per member when suggestions are made: those nearest in age whose home is one of the member's neighbourhoods (decision 140).",
    ),
  DATING_DEPOSIT_PAISE: z.coerce
    .number()
    .int()
    .min(100)
    .max(500_000)
    .default(DEFAULT_DATE_DEPOSIT_PAISE)
    .describe(
      'What each member of a date plan pays on accepting, in paise (₹300): credit on the bill at the table, or paid to the member who came if the other flakes (decision 184).',
    ),
};

const rateLimitsEnv = {
  RATE_LIMIT_STORE: z
    .enum(['memory', 'postgres', 'redis'])
    .default('memory')
    .describe('Where rate-limit counts live: `memory` (one process), `postgres` or `redis` (shared by N instances; decision 009).'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379').describe('Redis for `RATE_LIMIT_STORE=redis`.'),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60).describe('The length of one rate-limit window, in seconds.'),
  RATE_LIMIT_LOGIN_PER_IP: z.coerce
    .number()
    .int()
    .min(1)
    .default(30)
    .describe('Login attempts per window per IP; phone-code calls have their own budget with the same number, per IP.'),
  RATE_LIMIT_LOGIN_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe('Failed login attempts per window per account name; phone-code calls have their own budget with the same number, per signed-in caller.'),
  RATE_LIMIT_SIGNUP_PER_IP: z.coerce.number().int().min(1).default(10).describe('Signups per window per IP.'),
  RATE_LIMIT_SIGNUP_PER_ACCOUNT: z.coerce.number().int().min(1).default(5).describe('Signups per window per account name.'),
  RATE_LIMIT_BOOKING_PER_DINER: z.coerce.number().int().min(1).default(20).describe('Reservation creations per window per diner.'),
  RATE_LIMIT_UPLOAD_PER_CALLER: z.coerce.number().int().min(1).default(30).describe('Uploads per window per signed-in caller (else per IP).'),
};

const storageEnv = {
  STORAGE_DRIVER: z
    .enum(['local', 's3'])
    .default('local')
    .describe(
      'Where uploaded photos live: `local` (under `DATA_DIR/uploads`, the app signs its own upload URLs) or `s3` (an S3-compatible bucket, presigned PUT URLs; decision 196). With `s3` the four settings below without a default are required.',
    ),
  S3_ENDPOINT: z.string().optional().describe("The bucket's endpoint for `STORAGE_DRIVER=s3`, e.g. `https://s3.ap-south-1.amazonaws.com`, or a MinIO URL."),
  S3_BUCKET: z.string().optional().describe('The bucket for `STORAGE_DRIVER=s3`.'),
  S3_REGION: z.string().default('us-east-1').describe("The bucket's region."),
  S3_ACCESS_KEY_ID: z.string().optional().describe('The access key for that bucket (never logged).'),
  S3_SECRET_ACCESS_KEY: z.string().optional().describe("Its secret (never logged). The bucket's CORS must allow PUT with `Content-Type` from the site."),
  S3_FORCE_PATH_STYLE: flag.describe(
    '`1` or `true`: `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO and most self-hosted stores).',
  ),
};

const paymentsEnv = {
  PAYMENTS_DRIVER: z
    .enum(['sandbox', 'razorpay'])
    .default('sandbox')
    .describe(
      'Where deposits are authorised: `sandbox` (a built-in gateway; the diner approves or declines at `/pay/sandbox/{id}`) or `razorpay` (docs/payments.md).',
    ),
  PAYMENTS_SANDBOX_DEMO: flag.describe(
    '`1`: the sandbox in production, on purpose, for a demo where no real money moves; production refuses the sandbox without it, and every start then warns (decision 201).',
  ),
  PAYMENTS_WEBHOOK_SECRET: unsetWhenBlank(z.string().min(16)).describe(
    "The sandbox's webhook signing secret (HMAC-SHA-256, at least 16 characters); random per process when unset. Never logged.",
  ),
  PAYMENTS_PROVIDER_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(10_000)
    .describe('A provider call taking longer counts as timed out; a retry or the next webhook settles it.'),
  RAZORPAY_KEY_ID: z.string().optional().describe("Razorpay's API key id; required with `PAYMENTS_DRIVER=razorpay`. Never logged."),
  RAZORPAY_KEY_SECRET: z.string().optional().describe("Razorpay's API key secret; required with `PAYMENTS_DRIVER=razorpay`. Never logged."),
  RAZORPAY_WEBHOOK_SECRET: z
    .string()
    .optional()
    .describe("The webhook secret set on Razorpay's Dashboard; required with `PAYMENTS_DRIVER=razorpay`. Never logged."),
  RAZORPAY_API_BASE: z.string().url().default('https://api.razorpay.com').describe("Razorpay's API origin (tests point it at a local server)."),
};

const operationsEnv = {
  METRICS_TOKEN: unsetWhenBlank(z.string().min(16)).describe(
    'At least 16 characters: `GET /metrics` on the main port then answers `Authorization: Bearer <token>` only; unset, it answers 404 there (docs/operations.md §8). Never logged.',
  ),
  METRICS_PORT: unsetWhenBlank(z.coerce.number().int().min(0).max(65535)).describe(
    'Also serve `/metrics`, without a token, on this private listener; unset means none.',
  ),
  METRICS_HOST: z.string().default('127.0.0.1').describe('The address of that listener.'),
  SHUTDOWN_READINESS_DELAY_SECONDS: z.coerce
    .number()
    .min(0)
    .max(120)
    .default(0)
    .describe('On SIGTERM `/health/ready` turns false at once; the instance keeps serving this long, so the balancer sees it, before draining.'),
};

/** The sections of the configuration, in the order docs/configuration.md and .env.example list them. */
export const envSections = [
  { title: 'Server', variables: serverEnv },
  { title: 'Database', variables: databaseEnv },
  { title: 'Reservations', variables: reservationsEnv },
  { title: 'Accounts and secrets', variables: accountsEnv },
  { title: 'Email and texts', variables: messagesEnv },
  { title: 'SMS through Exotel (SMS_DRIVER=exotel, docs/operations.md §11)', variables: exotelEnv },
  { title: 'WhatsApp Business Cloud API (WHATSAPP_DRIVER=cloud, docs/operations.md §11)', variables: whatsappEnv },
  { title: 'Web Push (PUSH_DRIVER=webpush, docs/operations.md §11)', variables: pushEnv },
  { title: 'Dating', variables: datingEnv },
  { title: 'Rate limits', variables: rateLimitsEnv },
  { title: 'File storage', variables: storageEnv },
  { title: 'Payments (docs/payments.md)', variables: paymentsEnv },
  { title: 'Operations: health, metrics, failover (docs/operations.md §7-§10)', variables: operationsEnv },
] as const;

/** Every environment variable the server reads, parsed and typed once. */
export const envSchema = z.object({
  ...serverEnv,
  ...databaseEnv,
  ...reservationsEnv,
  ...accountsEnv,
  ...messagesEnv,
  ...exotelEnv,
  ...whatsappEnv,
  ...pushEnv,
  ...datingEnv,
  ...rateLimitsEnv,
  ...storageEnv,
  ...paymentsEnv,
  ...operationsEnv,
});

/**
 * Read by `vite build`, not by the server (web/features/dating/api.ts, web/features/discovery/tiles.ts
 * read them from `import.meta.env`): described here so the configuration's docs list them with the rest.
 */
export const webBuildEnv = {
  VITE_DATING_API_BASE: z.string().optional().describe("A prefix for the dating section's API calls; unset means the same origin (decision 055)."),
  VITE_MAP_TILE_URL: z
    .string()
    .optional()
    .describe(
      "The Leaflet tile URL template for the map at `/map`; must be `https:` or same-origin (the CSP's `img-src`). Unset means dark CARTO tiles, `https://{s}.basemaps.cartocdn.com/dark_all/{z}/{x}/{y}{r}.png`; markers still show when tiles cannot load.",
    ),
  VITE_MAP_TILE_ATTRIBUTION: z.string().optional().describe("The map's credit line (HTML) for those tiles; unset means the OpenStreetMap and CARTO credit."),
};

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

/** Exotel's account, the DLT registration and the receipts' secret (decision 210). */
export interface ExotelConfig {
  apiBase: string;
  accountSid: string;
  apiKey: string;
  apiToken: string;
  senderId: string;
  dltEntityId: string;
  /** The DLT template id per kind of text. */
  dltTemplateIds: { code: string; notice: string; reminder: string; offer: string };
  callbackToken: string;
}

/** The WhatsApp Business Cloud API's number, token, webhook secrets and template names (decision 211). */
export interface WhatsAppCloudConfig {
  apiBase: string;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  language: string;
  /** The registered template per kind of message; reminders use their own (decision 153). */
  templates: { code: string; notice: string; offer: string };
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
  notifications: {
    smtpUrl: string | undefined;
    mailFrom: string;
    devMailbox: DevMailboxMode;
    smsDriver: 'log' | 'exotel';
    whatsappDriver: 'log' | 'cloud';
    /** How long a call to the SMS or WhatsApp provider may take. */
    providerTimeoutMs: number;
    /** Set when smsDriver is exotel (decision 210). */
    exotel?: ExotelConfig;
    /** Set when whatsappDriver is cloud (decision 211). */
    whatsapp?: WhatsAppCloudConfig;
    /** Web Push (decision 212): off, or on with the keys given (unset keys are made in development). */
    push: { driver: 'webpush' | 'off'; vapid: { publicKey: string; privateKey: string; subject: string } | null; subject: string };
  };
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
  /** Minutes before a reservation's start that a reminder goes out (decision 150). */
  reminderOffsetsMinutes: number[];
  /** The channel reminders text a verified phone on. */
  reminderTextChannel: 'sms' | 'whatsapp';
  availabilityCache: { maxAgeSeconds: number; maxRestaurants: number; textMegabytes: number };
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
  if (e.SMS_DRIVER === 'exotel') {
    const missing = (
      [
        'EXOTEL_ACCOUNT_SID',
        'EXOTEL_API_KEY',
        'EXOTEL_API_TOKEN',
        'EXOTEL_SENDER_ID',
        'EXOTEL_DLT_ENTITY_ID',
        'EXOTEL_DLT_TEMPLATE_CODE',
        'EXOTEL_DLT_TEMPLATE_NOTICE',
        'EXOTEL_DLT_TEMPLATE_REMINDER',
        'EXOTEL_DLT_TEMPLATE_OFFER',
        'EXOTEL_CALLBACK_TOKEN',
      ] as const
    ).filter((name) => !e[name]);
    if (missing.length) throw new Error(`Invalid configuration: SMS_DRIVER=exotel needs ${missing.join(', ')}`);
  }
  if (e.WHATSAPP_DRIVER === 'cloud') {
    const missing = (['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN'] as const).filter((name) => !e[name]);
    if (missing.length) throw new Error(`Invalid configuration: WHATSAPP_DRIVER=cloud needs ${missing.join(', ')}`);
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
      providerTimeoutMs: e.MESSAGE_PROVIDER_TIMEOUT_MS,
      exotel:
        e.SMS_DRIVER === 'exotel'
          ? {
              apiBase: e.EXOTEL_API_BASE.replace(/\/+$/, ''),
              accountSid: e.EXOTEL_ACCOUNT_SID!,
              apiKey: e.EXOTEL_API_KEY!,
              apiToken: e.EXOTEL_API_TOKEN!,
              senderId: e.EXOTEL_SENDER_ID!,
              dltEntityId: e.EXOTEL_DLT_ENTITY_ID!,
              dltTemplateIds: {
                code: e.EXOTEL_DLT_TEMPLATE_CODE!,
                notice: e.EXOTEL_DLT_TEMPLATE_NOTICE!,
                reminder: e.EXOTEL_DLT_TEMPLATE_REMINDER!,
                offer: e.EXOTEL_DLT_TEMPLATE_OFFER!,
              },
              callbackToken: e.EXOTEL_CALLBACK_TOKEN!,
            }
          : undefined,
      whatsapp:
        e.WHATSAPP_DRIVER === 'cloud'
          ? {
              apiBase: e.WHATSAPP_API_BASE.replace(/\/+$/, ''),
              phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID!,
              accessToken: e.WHATSAPP_ACCESS_TOKEN!,
              appSecret: e.WHATSAPP_APP_SECRET!,
              verifyToken: e.WHATSAPP_VERIFY_TOKEN!,
              language: e.WHATSAPP_TEMPLATE_LANGUAGE,
              templates: { code: e.WHATSAPP_TEMPLATE_CODE, notice: e.WHATSAPP_TEMPLATE_NOTICE, offer: e.WHATSAPP_TEMPLATE_OFFER },
            }
          : undefined,
      push: {
        driver: e.PUSH_DRIVER ?? (e.NODE_ENV === 'production' && !e.VAPID_PUBLIC_KEY && !e.VAPID_PRIVATE_KEY ? 'off' : 'webpush'),
        vapid:
          e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
            ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT ?? 'mailto:push@localhost' }
            : null,
        subject: e.VAPID_SUBJECT ?? 'mailto:push@localhost',
      },
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
    availabilityCache: {
      maxAgeSeconds: e.AVAILABILITY_CACHE_SECONDS,
      maxRestaurants: e.AVAILABILITY_CACHE_RESTAURANTS,
      textMegabytes: e.AVAILABILITY_TEXT_MEGABYTES,
    },
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
