-- Fair access: verified phones, drops with a recorded draw, a waitlist that offers the table,
-- and an outbox for email and SMS (decisions 080-089).

-- One verified phone per account, and a phone verified by one account only.
ALTER TABLE users ADD COLUMN verified_phone text;
ALTER TABLE users ADD COLUMN phone_verified_at timestamptz;
CREATE UNIQUE INDEX users_verified_phone_key ON users (verified_phone) WHERE verified_phone IS NOT NULL;

-- One-time codes: only an HMAC of the code is kept, with its own salt.
CREATE TABLE phone_verifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  phone text NOT NULL,
  code_salt text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX phone_verifications_user_idx ON phone_verifications (user_id, created_at DESC);

-- A drop: slots hidden from normal availability until release_at, given out in a drawn order.
CREATE TABLE drops (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  restaurant_id uuid NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
  title text NOT NULL,
  description text,
  entry_opens_at timestamptz NOT NULL,
  entry_closes_at timestamptz NOT NULL,
  release_at timestamptz NOT NULL,
  -- Covers per slot (the biggest party that can enter) and the last slot's start.
  capacity integer NOT NULL CHECK (capacity BETWEEN 1 AND 500),
  last_slot_at timestamptz NOT NULL,
  -- The draw: a 32-byte random seed (hex), written once, with the instant it ran.
  seed text CHECK (seed IS NULL OR seed ~ '^[0-9a-f]{64}$'),
  drawn_at timestamptz,
  -- Every entry has had its turn: the drop's leftover tables join normal availability.
  opened_to_all_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (entry_opens_at < entry_closes_at AND entry_closes_at <= release_at),
  CHECK ((seed IS NULL) = (drawn_at IS NULL))
);
CREATE INDEX drops_restaurant_idx ON drops (restaurant_id, release_at DESC);
CREATE INDEX drops_release_idx ON drops (release_at);

ALTER TABLE slots ADD COLUMN drop_id uuid REFERENCES drops (id) ON DELETE CASCADE;
CREATE INDEX slots_drop_idx ON slots (drop_id) WHERE drop_id IS NOT NULL;

-- One entry per account and one per verified phone in each drop. position is set by the draw;
-- status: waiting (in line, or not yet drawn), offered (got a hold: reservation_id), withdrawn.
CREATE TABLE drop_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  drop_id uuid NOT NULL REFERENCES drops (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  phone text NOT NULL,
  party_size integer NOT NULL CHECK (party_size BETWEEN 1 AND 20),
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'offered', 'withdrawn')),
  position integer,
  reservation_id uuid REFERENCES reservations (id) ON DELETE SET NULL,
  offered_at timestamptz,
  created_at timestamptz NOT NULL,
  CONSTRAINT drop_entries_one_per_account UNIQUE (drop_id, user_id),
  CONSTRAINT drop_entries_one_per_phone UNIQUE (drop_id, phone)
);
CREATE INDEX drop_entries_line_idx ON drop_entries (drop_id, position) WHERE status = 'waiting';
CREATE INDEX drop_entries_user_idx ON drop_entries (user_id);
CREATE INDEX drop_entries_reservation_idx ON drop_entries (reservation_id) WHERE reservation_id IS NOT NULL;

-- The waitlist: the longest-waiting matching entry gets an exclusive hold when covers free up.
-- status: waiting, offered (reservation_id holds the offer), removed. What became of an offer
-- (booked, lapsed, declined) is read from its reservation.
CREATE TABLE waitlist_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  restaurant_id uuid NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
  wait_date date NOT NULL,
  party_size integer NOT NULL CHECK (party_size BETWEEN 1 AND 20),
  window_start text NOT NULL CHECK (window_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  window_end text NOT NULL CHECK (window_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'offered', 'removed')),
  reservation_id uuid REFERENCES reservations (id) ON DELETE SET NULL,
  offered_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (window_start <= window_end)
);
CREATE INDEX waitlist_match_idx ON waitlist_entries (restaurant_id, wait_date, created_at) WHERE status = 'waiting';
CREATE INDEX waitlist_user_idx ON waitlist_entries (user_id, created_at DESC);
CREATE UNIQUE INDEX waitlist_one_waiting_key ON waitlist_entries (user_id, restaurant_id, wait_date) WHERE status = 'waiting';

-- Email and SMS leave through here: written in the transaction that caused them, sent after.
CREATE TABLE outbox_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  recipient text NOT NULL,
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  subject text NOT NULL DEFAULT '',
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  sent_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  -- A sender claims a message by moving this forward, so N instances never send it twice at once.
  next_attempt_at timestamptz,
  last_error text
);
CREATE INDEX outbox_unsent_idx ON outbox_messages (created_at) WHERE sent_at IS NULL;
CREATE INDEX outbox_created_idx ON outbox_messages (created_at DESC);
