-- Deposits, phase 1 (decisions 120, 122): each restaurant's deposit policy, a drop's own deposit, and
-- no-show strikes with their disputes (decisions 120, 122). Amounts are integer paise.

-- One policy per restaurant (the restaurants module's); no row means no deposit is asked.
CREATE TABLE deposit_policies (
  restaurant_id uuid PRIMARY KEY REFERENCES restaurants (id) ON DELETE CASCADE,
  default_kind text NOT NULL DEFAULT 'none' CHECK (default_kind IN ('none', 'deposit', 'prepayment')),
  default_per_cover_paise integer NOT NULL DEFAULT 0 CHECK (default_per_cover_paise BETWEEN 0 AND 5000000),
  free_cancel_minutes integer NOT NULL DEFAULT 120 CHECK (free_cancel_minutes BETWEEN 0 AND 10080),
  late_cancel_keep_percent smallint NOT NULL DEFAULT 100 CHECK (late_cancel_keep_percent BETWEEN 0 AND 100),
  no_show_keep_percent smallint NOT NULL DEFAULT 100 CHECK (no_show_keep_percent BETWEEN 0 AND 100),
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES staff_accounts (id) ON DELETE SET NULL
);

-- The policy's rules, tried in `position` order; the first whose weekday and time range match wins.
CREATE TABLE deposit_policy_rules (
  restaurant_id uuid NOT NULL REFERENCES deposit_policies (restaurant_id) ON DELETE CASCADE,
  position smallint NOT NULL CHECK (position >= 0),
  days integer[] NOT NULL CHECK (cardinality(days) BETWEEN 1 AND 7 AND days <@ ARRAY[0, 1, 2, 3, 4, 5, 6]),
  from_time text NOT NULL CHECK (from_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  until_time text NOT NULL CHECK (until_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' AND until_time >= from_time),
  kind text NOT NULL CHECK (kind IN ('none', 'deposit', 'prepayment')),
  per_cover_paise integer NOT NULL CHECK (per_cover_paise BETWEEN 0 AND 5000000),
  PRIMARY KEY (restaurant_id, position)
);

-- A policy change changes what the restaurant page shows, so it tells the availability cache
-- like every other write that changes availability (migration 0006).
CREATE TRIGGER deposit_policies_availability_changed AFTER INSERT OR UPDATE OR DELETE ON deposit_policies
  FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
CREATE TRIGGER deposit_policy_rules_availability_changed AFTER INSERT OR UPDATE OR DELETE ON deposit_policy_rules
  FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();

-- A drop may ask for a deposit per guest on every table it gives out (the drops module's).
ALTER TABLE drops ADD COLUMN deposit_per_cover_paise integer CHECK (deposit_per_cover_paise IS NULL OR deposit_per_cover_paise BETWEEN 1 AND 5000000);

-- One strike per no-show (the strikes module's), written in the same transaction as the status.
-- An upheld dispute sets removed_at; a removed strike no longer counts.
CREATE TABLE no_show_strikes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reservation_id uuid NOT NULL UNIQUE REFERENCES reservations (id) ON DELETE CASCADE,
  restaurant_id uuid NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  removed_at timestamptz
);
CREATE INDEX no_show_strikes_counting_idx ON no_show_strikes (user_id, created_at) WHERE removed_at IS NULL;

-- A diner's dispute of one strike, resolved once by the restaurant's staff.
CREATE TABLE strike_disputes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  strike_id uuid NOT NULL UNIQUE REFERENCES no_show_strikes (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 1000),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'upheld', 'rejected')),
  created_at timestamptz NOT NULL,
  resolved_at timestamptz,
  resolved_by uuid REFERENCES staff_accounts (id) ON DELETE SET NULL,
  CHECK ((status = 'open') = (resolved_at IS NULL))
);
CREATE INDEX strike_disputes_open_idx ON strike_disputes (created_at) WHERE status = 'open';
