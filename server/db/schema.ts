import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, date, doublePrecision, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Drizzle's view of every table, for typed queries (db.select().from(users) …) and the
 * Db type. The DDL itself lives in server/db/migrations/*.sql (decision 003); this file
 * declares what those migrations produce: every table, column, type, nullability, default
 * and primary key. schema.db.test.ts compares it with the migrated database, so a migration
 * that adds a column without a line here fails the tests. CHECK constraints, indexes and
 * foreign keys live only in the SQL.
 */
export const users = pgTable('users', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  username: text('username').notNull(),
  passwordHash: text('password_hash').notNull(),
  name: text('name').notNull().default(''),
  email: text('email'),
  phone: text('phone'),
  preferredHood: text('preferred_hood'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Migration 0004: the phone this account proved it holds (one account per verified phone). */
  verifiedPhone: text('verified_phone'),
  phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
  /** Migration 0021: when the diner opened the link sent to `email` (a reset may then use it; decision 230). */
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  /** Migration 0025: when the diner deleted the account (the row stays, emptied; decision 266). */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});

export const restaurants = pgTable('restaurants', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  emoji: text('emoji').notNull().default('🍴'),
  neighborhood: text('neighborhood').notNull().default('Bengaluru'),
  hot: boolean('hot').notNull().default(false),
  cuisineTags: text('cuisine_tags')
    .array()
    .notNull()
    .default(sql`'{}'`),
  category: text('category').notNull().default('dinner'),
  description: text('description'),
  website: text('website'),
  instagramUrl: text('instagram_url'),
  heroImageUrl: text('hero_image_url'),
  /** The uploaded hero photo's storage key (migration 0002). */
  heroImageKey: text('hero_image_key'),
  lat: doublePrecision('lat'),
  lng: doublePrecision('lng'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Migration 0021: what diners choose by (decision 233). */
  address: text('address'),
  directionsUrl: text('directions_url'),
  costForTwo: integer('cost_for_two'),
  diet: text('diet'),
  menuUrl: text('menu_url'),
  dressCode: text('dress_code'),
  childrenPolicy: text('children_policy'),
  smokingPolicy: text('smoking_policy'),
});

/** Migration 0021: photos of the room, the food and the menu, as phone-sized WebP variants (decision 234). */
export const restaurantPhotos = pgTable('restaurant_photos', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  restaurantId: uuid('restaurant_id').notNull(),
  purpose: text('purpose').notNull(),
  sortOrder: integer('sort_order').notNull(),
  alt: text('alt').notNull().default(''),
  variantBase: text('variant_base').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  illustration: text('illustration'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const staffAccounts = pgTable('staff_accounts', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  restaurantId: uuid('restaurant_id').notNull(),
  username: text('username').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Migration 0021: the address the platform checked when it made the account; resets go there (decision 231). */
  email: text('email'),
});

export const sessions = pgTable('sessions', {
  tokenHash: text('token_hash').primaryKey(),
  kind: text('kind').notNull().$type<'diner' | 'staff' | 'dating' | 'moderator'>(),
  subjectId: uuid('subject_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

export const slots = pgTable('slots', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  restaurantId: uuid('restaurant_id').notNull(),
  slotDate: date('slot_date', { mode: 'string' }).notNull(),
  slotTime: text('slot_time').notNull(),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  capacity: integer('capacity').notNull(),
  status: text('status').notNull().default('available').$type<'available' | 'full'>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Migration 0004: set for a drop's hidden slots. */
  dropId: uuid('drop_id'),
});

export const reservations = pgTable('reservations', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  userId: uuid('user_id').notNull(),
  restaurantId: uuid('restaurant_id').notNull(),
  slotId: uuid('slot_id').notNull(),
  partySize: integer('party_size').notNull(),
  status: text('status').notNull(),
  holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
  cancelReason: text('cancel_reason'),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** Migration 0025: what the diner told the restaurant (decision 260). */
  occasion: text('occasion'),
  requestPicks: text('request_picks')
    .array()
    .notNull()
    .default(sql`'{}'`),
  specialRequest: text('special_request'),
});

/** Migration 0025: a restaurant's own tags and note about a guest (decision 261). */
export const guestNotes = pgTable(
  'guest_notes',
  {
    restaurantId: uuid('restaurant_id').notNull(),
    userId: uuid('user_id').notNull(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'`),
    note: text('note').notNull().default(''),
    updatedBy: uuid('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.restaurantId, table.userId] })],
);

export const reservationEvents = pgTable('reservation_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  reservationId: uuid('reservation_id').notNull(),
  fromStatus: text('from_status'),
  toStatus: text('to_status').notNull(),
  actorKind: text('actor_kind').notNull(),
  actorId: uuid('actor_id'),
  reason: text('reason'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** Dating accounts (migration 0003): phone + password, the profile answers. */
export const datingUsers = pgTable('dating_users', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  phone: text('phone').notNull(),
  passwordHash: text('password_hash').notNull(),
  name: text('name').notNull(),
  dob: date('dob', { mode: 'string' }).notNull(),
  profession: text('profession'),
  dreams: text('dreams').notNull().default(''),
  fiveYearGoal: text('five_year_goal').notNull().default(''),
  whatIWantInPartner: text('what_i_want_in_partner').notNull().default(''),
  whyPartnerWouldLikeMe: text('why_partner_would_like_me').notNull().default(''),
  physicalActivity: text('physical_activity').notNull().default('SOMETIMES'),
  dateBudget: text('date_budget').notNull(),
  instagramHandle: text('instagram_handle'),
  diet: text('diet'),
  drinking: text('drinking'),
  smoking: text('smoking'),
  cuisines: text('cuisines').array().notNull(),
  interests: text('interests')
    .array()
    .notNull()
    .default(sql`'{}'`),
  firstDateTypes: text('first_date_types').array().notNull(),
  languages: text('languages')
    .array()
    .notNull()
    .default(sql`'{}'`),
  wantAgeMin: smallint('want_age_min').notNull().default(18),
  wantAgeMax: smallint('want_age_max').notNull().default(99),
  neighbourhoods: text('neighbourhoods')
    .array()
    .notNull()
    .default(sql`'{}'`),
  freeEvenings: text('free_evenings')
    .array()
    .notNull()
    .default(sql`'{}'`),
  intent: text('intent').notNull().default('LONG_TERM'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  // Set by a moderator (migration 0016): never suggested or shown again, cannot sign in.
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  suspensionNote: text('suspension_note'),
  // Migration 0024 (decision 250): who the member is and who they want to meet; a gender hidden
  // from the profile still decides the matching. A same-evening date needs both members' consent.
  gender: text('gender'),
  genderSelfDescribed: text('gender_self_described'),
  wantsToMeet: text('wants_to_meet').notNull().default('EVERYONE'),
  showGender: boolean('show_gender').notNull().default(true),
  tonightIsFine: boolean('tonight_is_fine').notNull().default(false),
});

/** A dating account's three photos (object keys in storage), sort orders 0-2. */
export const datingPhotos = pgTable(
  'dating_photos',
  {
    datingUserId: uuid('dating_user_id').notNull(),
    sortOrder: smallint('sort_order').notNull(),
    objectKey: text('object_key').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.datingUserId, table.sortOrder] })],
);

/** A dating signup waiting for its phone's code (decision 101). */
export const datingSignups = pgTable('dating_signups', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  phone: text('phone').notNull(),
  passwordHash: text('password_hash').notNull(),
  profile: jsonb('profile').notNull(),
  browserNonceHash: text('browser_nonce_hash').notNull(),
  codeSalt: text('code_salt').notNull(),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  messageId: uuid('message_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
});

/** Bytes of dating photos uploaded per address per Kolkata day (migration 0008). */
export const uploadByteCounts = pgTable(
  'upload_byte_counts',
  {
    ip: text('ip').notNull(),
    day: date('day').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.ip, table.day] })],
);

/** Presigned dating photo uploads, bound to the browser that asked for them. */
export const datingUploads = pgTable('dating_uploads', {
  objectKey: text('object_key').primaryKey(),
  browserNonceHash: text('browser_nonce_hash').notNull(),
  contentType: text('content_type').notNull(),
  sizeBytes: integer('size_bytes'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }),
  claimedBy: uuid('claimed_by'),
  claimedAt: timestamp('claimed_at', { withTimezone: true }),
});

/** Fair access (migration 0004): one-time phone codes (users gain verified_phone and phone_verified_at; slots gain drop_id). */
export const phoneVerifications = pgTable('phone_verifications', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  userId: uuid('user_id').notNull(),
  phone: text('phone').notNull(),
  codeSalt: text('code_salt').notNull(),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
});

/** A drop: hidden slots released at release_at in the order of a recorded draw (seed). */
export const drops = pgTable('drops', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  restaurantId: uuid('restaurant_id').notNull(),
  title: text('title').notNull(),
  description: text('description'),
  entryOpensAt: timestamp('entry_opens_at', { withTimezone: true }).notNull(),
  entryClosesAt: timestamp('entry_closes_at', { withTimezone: true }).notNull(),
  releaseAt: timestamp('release_at', { withTimezone: true }).notNull(),
  capacity: integer('capacity').notNull(),
  lastSlotAt: timestamp('last_slot_at', { withTimezone: true }).notNull(),
  seed: text('seed'),
  drawnAt: timestamp('drawn_at', { withTimezone: true }),
  openedToAllAt: timestamp('opened_to_all_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** The seed chosen at creation, secret until the draw copies it to `seed` (decision 100). */
  sealedSeed: text('sealed_seed'),
  /** SHA-256 (hex) of the sealed seed's bytes, public from committed_at. */
  seedCommitment: text('seed_commitment'),
  committedAt: timestamp('committed_at', { withTimezone: true }),
  /** The entry list fixed at the close: when, how many, and the SHA-256 of the sorted ids. */
  entriesClosedAt: timestamp('entries_closed_at', { withTimezone: true }),
  closedEntryCount: integer('closed_entry_count'),
  closedEntriesHash: text('closed_entries_hash'),
  /** Migration 0009: a per-guest deposit this drop asks of every table it gives out (decision 120). */
  depositPerCoverPaise: integer('deposit_per_cover_paise'),
});

export const dropEntries = pgTable('drop_entries', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  dropId: uuid('drop_id').notNull(),
  userId: uuid('user_id').notNull(),
  phone: text('phone').notNull(),
  partySize: integer('party_size').notNull(),
  status: text('status').notNull().default('waiting').$type<'waiting' | 'offered' | 'withdrawn'>(),
  position: integer('position'),
  reservationId: uuid('reservation_id'),
  offeredAt: timestamp('offered_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const waitlistEntries = pgTable('waitlist_entries', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  userId: uuid('user_id').notNull(),
  restaurantId: uuid('restaurant_id').notNull(),
  waitDate: date('wait_date', { mode: 'string' }).notNull(),
  partySize: integer('party_size').notNull(),
  windowStart: text('window_start').notNull(),
  windowEnd: text('window_end').notNull(),
  status: text('status').notNull().default('waiting').$type<'waiting' | 'offered' | 'removed'>(),
  reservationId: uuid('reservation_id'),
  offeredAt: timestamp('offered_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export const outboxMessages = pgTable('outbox_messages', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  channel: text('channel').notNull().$type<'email' | 'sms' | 'whatsapp' | 'push'>(),
  recipient: text('recipient').notNull(),
  userId: uuid('user_id'),
  subject: text('subject').notNull().default(''),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  lastError: text('last_error'),
  /** A WhatsApp template and its values (migration 0013); null for email and SMS. */
  template: jsonb('template'),
  /** What the message is for, in the delivery policy's words (migration 0019); null for plain email. */
  kind: text('kind'),
  deliveryStatus: text('delivery_status').notNull().default('queued').$type<'queued' | 'sent' | 'delivered' | 'failed'>(),
  statusAt: timestamp('status_at', { withTimezone: true }),
  /** The provider's id for the message, which its delivery receipts name. */
  providerMessageId: text('provider_message_id'),
  idempotencyKey: text('idempotency_key'),
  /** The channels still to try, in order, when this one fails for good. */
  fallbacks: jsonb('fallbacks')
    .notNull()
    .default(sql`'[]'::jsonb`),
  /** The screen a push notification opens (migration 0028, decision 212); null for other channels. */
  link: text('link'),
});

/** A browser's Web Push subscription, one row an endpoint, owned by one account (migration 0028, decision 212). */
export const pushSubscriptions = pgTable('push_subscriptions', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  /** Exactly one owner: a diner or a dating member (migration 0030, decision 219). */
  userId: uuid('user_id'),
  datingUserId: uuid('dating_user_id'),
  endpoint: text('endpoint').notNull(),
  p256dh: text('p256dh').notNull(),
  auth: text('auth').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
  lastFailure: text('last_failure'),
});

/** The text channels a diner turned off; no row means every channel is on (migration 0028, decision 212). */
export const notificationPreferences = pgTable('notification_preferences', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  /** Exactly one owner: a diner or a dating member (migration 0030, decision 219). */
  userId: uuid('user_id'),
  datingUserId: uuid('dating_user_id'),
  push: boolean('push').notNull().default(true),
  whatsapp: boolean('whatsapp').notNull().default(true),
  sms: boolean('sms').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Fixed-window request counters shared by every instance, for RATE_LIMIT_STORE=postgres (migration 0005). */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] })],
);

// ---- Deposits (migration 0009): policies (restaurants module), strikes (strikes module) ----

/** A restaurant's deposit policy (decision 120); no row means no deposit is asked. */
export const depositPolicies = pgTable('deposit_policies', {
  restaurantId: uuid('restaurant_id').primaryKey(),
  defaultKind: text('default_kind').notNull().default('none').$type<'none' | 'deposit' | 'prepayment'>(),
  defaultPerCoverPaise: integer('default_per_cover_paise').notNull().default(0),
  freeCancelMinutes: integer('free_cancel_minutes').notNull().default(120),
  lateCancelKeepPercent: smallint('late_cancel_keep_percent').notNull().default(100),
  noShowKeepPercent: smallint('no_show_keep_percent').notNull().default(100),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  updatedBy: uuid('updated_by'),
});

/** The policy's rules in the order they are tried. */
export const depositPolicyRules = pgTable(
  'deposit_policy_rules',
  {
    restaurantId: uuid('restaurant_id').notNull(),
    position: smallint('position').notNull(),
    days: integer('days').array().notNull(),
    fromTime: text('from_time').notNull(),
    untilTime: text('until_time').notNull(),
    kind: text('kind').notNull().$type<'none' | 'deposit' | 'prepayment'>(),
    perCoverPaise: integer('per_cover_paise').notNull(),
  },
  (table) => [primaryKey({ columns: [table.restaurantId, table.position] })],
);

/** One strike per no-show (decision 122); an upheld dispute sets removed_at. */
export const noShowStrikes = pgTable('no_show_strikes', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  userId: uuid('user_id').notNull(),
  reservationId: uuid('reservation_id').notNull(),
  restaurantId: uuid('restaurant_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  removedAt: timestamp('removed_at', { withTimezone: true }),
});

/** A diner's dispute of a strike, resolved once by the restaurant's staff. */
export const strikeDisputes = pgTable('strike_disputes', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  strikeId: uuid('strike_id').notNull(),
  reason: text('reason').notNull(),
  status: text('status').notNull().default('open').$type<'open' | 'upheld' | 'rejected'>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  resolvedBy: uuid('resolved_by'),
});

/** The migration runner's own record (server/db/client.ts creates it): one row per applied file. */
export const schemaMigrations = pgTable('schema_migrations', {
  name: text('name').primaryKey(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});

// --- Payments (migration 0008, server/modules/payments) --------------------------------------

/** A payment intent: money asked of an account for a purpose, and where its state machine stands. */
export const paymentIntents = pgTable('payment_intents', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  accountId: uuid('account_id').notNull(),
  restaurantId: uuid('restaurant_id').notNull(),
  purpose: text('purpose').notNull(),
  reservationId: uuid('reservation_id'),
  datingPlanId: uuid('dating_plan_id'),
  amountPaise: integer('amount_paise').notNull(),
  currency: text('currency').notNull().default('INR'),
  provider: text('provider').notNull(),
  providerRef: text('provider_ref'),
  providerPaymentRef: text('provider_payment_ref'),
  status: text('status').notNull(),
  authorisedPaise: integer('authorised_paise').notNull().default(0),
  capturedPaise: integer('captured_paise').notNull().default(0),
  refundedPaise: integer('refunded_paise').notNull().default(0),
  captureRequestedPaise: integer('capture_requested_paise'),
  capturePurpose: text('capture_purpose'),
  refundRequestedPaise: integer('refund_requested_paise'),
  idempotencyKey: text('idempotency_key').notNull(),
  approveBy: timestamp('approve_by', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export const ledgerPostings = pgTable('ledger_postings', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  intentId: uuid('intent_id').notNull(),
  kind: text('kind').notNull(),
  source: text('source').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const ledgerLines = pgTable(
  'ledger_lines',
  {
    postingId: bigint('posting_id', { mode: 'number' }).notNull(),
    account: text('account').notNull(),
    amountPaise: integer('amount_paise').notNull(),
  },
  (table) => [primaryKey({ columns: [table.postingId, table.account] })],
);

export const paymentEvents = pgTable('payment_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  provider: text('provider').notNull(),
  eventId: text('event_id').notNull(),
  eventType: text('event_type').notNull(),
  intentId: uuid('intent_id'),
  outcome: text('outcome').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
});

export const providerCalls = pgTable('provider_calls', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  intentId: uuid('intent_id').notNull(),
  kind: text('kind').notNull(),
  idempotencyKey: text('idempotency_key').notNull(),
  amountPaise: integer('amount_paise'),
  reason: text('reason').notNull().default(''),
  outcome: text('outcome').notNull(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

// Deposits paid (migration 0010): the deposit each paid reservation carries and its money move.

export const reservationDeposits = pgTable('reservation_deposits', {
  reservationId: uuid('reservation_id').primaryKey(),
  intentId: uuid('intent_id').notNull(),
  kind: text('kind').notNull(),
  amountPaise: integer('amount_paise').notNull(),
  perCoverPaise: integer('per_cover_paise').notNull(),
  freeCancelUntil: timestamp('free_cancel_until', { withTimezone: true }).notNull(),
  lateCancelKeepPaise: integer('late_cancel_keep_paise').notNull(),
  noShowKeepPaise: integer('no_show_keep_paise').notNull(),
  plainWords: text('plain_words').notNull(),
  authorisedAt: timestamp('authorised_at', { withTimezone: true }),
  lateCancel: boolean('late_cancel').notNull().default(false),
  move: text('move'),
  movePaise: integer('move_paise').notNull().default(0),
  moveKey: text('move_key'),
  moveDoneAt: timestamp('move_done_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** A diner's change of a booking's time or party size (migration 0027, decisions 280-284). */
export const reservationChanges = pgTable('reservation_changes', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  reservationId: uuid('reservation_id').notNull(),
  status: text('status').notNull(),
  fromSlotId: uuid('from_slot_id').notNull(),
  toSlotId: uuid('to_slot_id').notNull(),
  fromStartsAt: timestamp('from_starts_at', { withTimezone: true }).notNull(),
  toStartsAt: timestamp('to_starts_at', { withTimezone: true }).notNull(),
  fromPartySize: integer('from_party_size').notNull(),
  toPartySize: integer('to_party_size').notNull(),
  extraPaise: integer('extra_paise').notNull().default(0),
  releasedPaise: integer('released_paise').notNull().default(0),
  extraIntentId: uuid('extra_intent_id'),
  actorKind: text('actor_kind').notNull(),
  actorId: uuid('actor_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  appliedAt: timestamp('applied_at', { withTimezone: true }),
});

/** A pair suggested to each other on one Kolkata day, with each side's answer (migration 0011, decision 140). */
export const datingSuggestions = pgTable(
  'dating_suggestions',
  {
    day: date('day', { mode: 'string' }).notNull(),
    memberA: uuid('member_a').notNull(),
    memberB: uuid('member_b').notNull(),
    score: integer('score').notNull(),
    answerA: text('answer_a'),
    answerB: text('answer_b'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.memberA, table.memberB] })],
);

/** Dating blocks: the two never see each other again (migration 0011). */
export const datingBlocks = pgTable(
  'dating_blocks',
  {
    blockerId: uuid('blocker_id').notNull(),
    blockedId: uuid('blocked_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.blockerId, table.blockedId] })],
);

/** Reports of dating members, one per reporter and member; 3 open ones hide a profile (migration 0011). */
export const datingReports = pgTable('dating_reports', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  reporterId: uuid('reporter_id').notNull(),
  reportedId: uuid('reported_id').notNull(),
  reason: text('reason').notNull(),
  note: text('note').notNull().default(''),
  status: text('status').notNull().default('OPEN'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  // The review (migration 0016): which moderator, when, and their note.
  reviewedBy: uuid('reviewed_by'),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  reviewNote: text('review_note'),
});

// Reminders (migration 0012): one row per reservation, offset and start, written as the claim.

export const reservationReminders = pgTable(
  'reservation_reminders',
  {
    reservationId: uuid('reservation_id').notNull(),
    offsetMinutes: integer('offset_minutes').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.reservationId, table.offsetMinutes, table.startsAt] })],
);

export const restaurantReminderOptOuts = pgTable('restaurant_reminder_opt_outs', {
  restaurantId: uuid('restaurant_id').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** The diner's latest answer to a reminder's links (migration 0013). */
export const reminderReplies = pgTable('reminder_replies', {
  reservationId: uuid('reservation_id').primaryKey(),
  reply: text('reply').notNull().$type<'coming' | 'released'>(),
  repliedAt: timestamp('replied_at', { withTimezone: true }).notNull(),
});

/** Restaurants that host Tablefair dates (migration 0014). */
export const datingPartners = pgTable('dating_partners', {
  restaurantId: uuid('restaurant_id').primaryKey(),
  budget: text('budget').notNull(),
  neighbourhood: text('neighbourhood').notNull(),
  cuisines: text('cuisines').array().notNull(),
  dateTypes: text('date_types').array().notNull(),
  optedInAt: timestamp('opted_in_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Date plans at partner tables (migration 0015, decision 184). */
export const datingPlans = pgTable('dating_plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  memberA: uuid('member_a').notNull(),
  memberB: uuid('member_b').notNull(),
  restaurantId: uuid('restaurant_id').notNull(),
  reservationId: uuid('reservation_id').notNull(),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  status: text('status').notNull(),
  deadline: timestamp('deadline', { withTimezone: true }).notNull(),
  depositPaise: integer('deposit_paise').notNull(),
  replacesPlanId: uuid('replaces_plan_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Each member's side of a date plan (migration 0015). */
export const datingPlanMembers = pgTable(
  'dating_plan_members',
  {
    planId: uuid('plan_id').notNull(),
    memberId: uuid('member_id').notNull(),
    answer: text('answer'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    intentId: uuid('intent_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    flaked: boolean('flaked').notNull().default(false),
    depositMove: text('deposit_move'),
    depositMovePaise: integer('deposit_move_paise'),
    depositMoveTo: uuid('deposit_move_to'),
    depositMoveKey: text('deposit_move_key'),
    depositMoveDoneAt: timestamp('deposit_move_done_at', { withTimezone: true }),
    showedUp: boolean('showed_up'),
    meetAgain: boolean('meet_again'),
  },
  (table) => [primaryKey({ columns: [table.planId, table.memberId] })],
);

/** A date plan's share links, one row a link, each revocable by the member who made it (migration 0029, decision 208). */
export const datingPlanShares = pgTable('dating_plan_shares', {
  id: uuid('id').primaryKey().defaultRandom(),
  planId: uuid('plan_id').notNull(),
  memberId: uuid('member_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

/** Strikes for flaked dates (migration 0015). */
export const datingStrikes = pgTable(
  'dating_strikes',
  {
    memberId: uuid('member_id').notNull(),
    planId: uuid('plan_id').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.memberId, table.planId] })],
);

/** Payouts of a flake's deposit to the member who came (migration 0015). */
export const payouts = pgTable('payouts', {
  id: uuid('id').primaryKey().defaultRandom(),
  sourceIntentId: uuid('source_intent_id').notNull(),
  toAccountId: uuid('to_account_id').notNull(),
  amountPaise: integer('amount_paise').notNull(),
  provider: text('provider').notNull(),
  providerRef: text('provider_ref'),
  status: text('status').notNull(),
  idempotencyKey: text('idempotency_key').notNull(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Tablefair's own moderators, who review dating reports (migration 0016, decision 185). */
export const platformModerators = pgTable('platform_moderators', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  username: text('username').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Migration 0021: "Forgot password" requests and the platform's new passwords for staff (decisions 230, 231). */
export const passwordResets = pgTable('password_resets', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  accountKind: text('account_kind').notNull().$type<'diner' | 'staff' | 'dating'>(),
  subjectId: uuid('subject_id'),
  lookupHash: text('lookup_hash').notNull(),
  channel: text('channel'),
  codeSalt: text('code_salt').notNull(),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  requestedIp: text('requested_ip'),
  moderatorId: uuid('moderator_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
});

/** Migration 0022: a restaurant's tables (decision 240). */
export const floorTables = pgTable('floor_tables', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  restaurantId: uuid('restaurant_id').notNull(),
  name: text('name').notNull(),
  section: text('section').notNull().$type<'indoor' | 'terrace' | 'bar' | 'private'>(),
  minCovers: integer('min_covers').notNull(),
  maxCovers: integer('max_covers').notNull(),
  onlineBookable: boolean('online_bookable').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Migration 0022: tables staff allow to be joined, and the party sizes they seat together. */
export const tableCombinations = pgTable('table_combinations', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  restaurantId: uuid('restaurant_id').notNull(),
  tableIds: uuid('table_ids').array().notNull(),
  minCovers: integer('min_covers').notNull(),
  maxCovers: integer('max_covers').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Migration 0022: shifts, booking interval, turn times and pacing; its row is the floor's lock. */
export const floorSettings = pgTable('floor_settings', {
  restaurantId: uuid('restaurant_id').primaryKey(),
  shifts: jsonb('shifts').notNull(),
  intervalMinutes: integer('interval_minutes').notNull().default(15),
  turns: jsonb('turns').notNull(),
  pacingMaxCovers: integer('pacing_max_covers'),
  pacingMaxParties: integer('pacing_max_parties'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Migration 0022: the table(s) a reservation (or staff) takes for [starts_at, ends_at). */
export const tableAssignments = pgTable('table_assignments', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  restaurantId: uuid('restaurant_id').notNull(),
  reservationId: uuid('reservation_id'),
  tableIds: uuid('table_ids').array().notNull(),
  combinationId: uuid('combination_id'),
  partySize: integer('party_size').notNull(),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  releasedAt: timestamp('released_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  // The floor, live (migration 0026, decision 245).
  seatedAt: timestamp('seated_at', { withTimezone: true }),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  isWalkIn: boolean('is_walk_in').notNull().default(false),
  guestName: text('guest_name'),
  guestPhone: text('guest_phone'),
  // Placed by staff: a re-pack never moves it (migration 0032, decision 217).
  pinned: boolean('pinned').notNull().default(false),
});
