-- Core schema: diners, staff, sessions, restaurants, slots, reservations and their history.
-- Names are unqualified so the same file migrates any schema (tests use one schema per file).

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username text NOT NULL CHECK (username ~ '^[A-Za-z0-9_.]{3,32}$'),
  password_hash text NOT NULL,
  name text NOT NULL DEFAULT '',
  email text,
  phone text,
  preferred_hood text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username));

CREATE TABLE restaurants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text NOT NULL,
  emoji text NOT NULL DEFAULT '🍴',
  neighborhood text NOT NULL DEFAULT 'Bengaluru',
  hot boolean NOT NULL DEFAULT false,
  cuisine_tags text[] NOT NULL DEFAULT '{}',
  category text NOT NULL DEFAULT 'dinner',
  description text,
  website text,
  instagram_url text,
  hero_image_url text,
  lat double precision,
  lng double precision,
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX restaurants_name_idx ON restaurants (name);

CREATE TABLE staff_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  restaurant_id uuid NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
  username text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX staff_accounts_username_lower_key ON staff_accounts (lower(username));
CREATE INDEX staff_accounts_restaurant_idx ON staff_accounts (restaurant_id);

-- Opaque bearer/cookie sessions: only the SHA-256 of the token is stored.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('diner', 'staff', 'dating')),
  subject_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_subject_idx ON sessions (kind, subject_id);

-- A bookable time: (date, HH:MM) is Kolkata wall-clock; starts_at is the same instant.
CREATE TABLE slots (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  restaurant_id uuid NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
  slot_date date NOT NULL,
  slot_time text NOT NULL CHECK (slot_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  starts_at timestamptz NOT NULL,
  capacity integer NOT NULL CHECK (capacity BETWEEN 1 AND 500),
  status text NOT NULL DEFAULT 'available' CHECK (status IN ('available', 'full')),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (restaurant_id, slot_date, slot_time)
);
-- The "next 24 hours" reads range over starts_at, whatever the number of days stored.
CREATE INDEX slots_starts_at_idx ON slots (starts_at);

CREATE TABLE reservations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  restaurant_id uuid NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
  slot_id uuid NOT NULL REFERENCES slots (id) ON DELETE CASCADE,
  party_size integer NOT NULL CHECK (party_size BETWEEN 1 AND 20),
  status text NOT NULL CHECK (status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED', 'COMPLETED', 'CANCELLED', 'NO_SHOW')),
  hold_expires_at timestamptz,
  cancel_reason text,
  starts_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (status <> 'HELD' OR hold_expires_at IS NOT NULL)
);
-- Covers taken per slot: only reservations that may hold covers are indexed.
CREATE INDEX reservations_slot_active_idx ON reservations (slot_id) INCLUDE (party_size, status, hold_expires_at)
  WHERE status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED');
CREATE INDEX reservations_user_idx ON reservations (user_id, starts_at);
CREATE INDEX reservations_restaurant_idx ON reservations (restaurant_id, starts_at);
CREATE INDEX reservations_held_expiry_idx ON reservations (hold_expires_at) WHERE status = 'HELD';

-- Append-only history of every transition, with who made it.
CREATE TABLE reservation_events (
  id bigserial PRIMARY KEY,
  reservation_id uuid NOT NULL REFERENCES reservations (id) ON DELETE CASCADE,
  from_status text,
  to_status text NOT NULL,
  actor_kind text NOT NULL CHECK (actor_kind IN ('diner', 'staff', 'system')),
  actor_id uuid,
  reason text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reservation_events_reservation_idx ON reservation_events (reservation_id, id);

-- Settings the app keeps about itself (for example the generated signing secret).
CREATE TABLE app_settings (
  key text PRIMARY KEY,
  value text NOT NULL
);
