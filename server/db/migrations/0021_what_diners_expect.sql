-- What every diner expects (decisions 230-239): a password anyone can reset through an address the
-- account proved it holds, a restaurant page with photos and the facts diners choose by, and staff
-- who can find any booking.

-- ---- Password resets (owned by accounts; decisions 230, 231) ----

-- A diner's email counts for a reset only once its owner opened the link sent to it.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;
-- A verified email names one account, so a reset asked by email has one account to go to.
CREATE UNIQUE INDEX users_verified_email_key ON users (lower(email)) WHERE email_verified_at IS NOT NULL;
-- Staff accounts are made by the platform, which checks the address it is given (decision 231).
ALTER TABLE staff_accounts ADD COLUMN email text CHECK (length(email) <= 254);

-- One row per "Forgot password" request, whether or not an account matched (subject_id is null
-- when none did): the answer and its timing are the same either way. The code is kept only as an
-- HMAC under the row's own salt. lookup_hash is an HMAC of what was typed, for the per-address
-- budget. A platform moderator's new password for staff is a row too (channel 'platform').
CREATE TABLE password_resets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_kind text NOT NULL CHECK (account_kind IN ('diner', 'staff', 'dating')),
  subject_id uuid,
  lookup_hash text NOT NULL,
  channel text CHECK (channel IN ('email', 'sms', 'platform')),
  code_salt text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  requested_ip text,
  moderator_id uuid REFERENCES platform_moderators (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX password_resets_subject_idx ON password_resets (account_kind, subject_id, created_at DESC) WHERE subject_id IS NOT NULL;
CREATE INDEX password_resets_lookup_idx ON password_resets (lookup_hash, created_at DESC);

-- ---- The restaurant page (owned by restaurants; decisions 233-235) ----

ALTER TABLE restaurants
  ADD COLUMN address text CHECK (length(address) <= 200),
  ADD COLUMN directions_url text CHECK (length(directions_url) <= 500),
  ADD COLUMN cost_for_two integer CHECK (cost_for_two BETWEEN 100 AND 50000),
  ADD COLUMN diet text CHECK (diet IN ('pure-veg', 'veg-and-non-veg', 'non-veg')),
  ADD COLUMN menu_url text CHECK (length(menu_url) <= 500),
  ADD COLUMN dress_code text CHECK (length(dress_code) <= 80),
  ADD COLUMN children_policy text CHECK (children_policy IN ('welcome', 'until-8pm', 'adults-only')),
  ADD COLUMN smoking_policy text CHECK (smoking_policy IN ('no-smoking', 'smoking-area'));
-- The list and the map filter by these two.
CREATE INDEX restaurants_diet_cost_idx ON restaurants (diet, cost_for_two);

-- Photos of the room and the food ('gallery', at most 8) and of the menu ('menu', at most 4 pages),
-- each stored as phone-sized WebP variants under variant_base ('{variant_base}-{width}.webp').
-- A demo photo has an illustration (what the seed draws) and its variants are drawn on first read.
CREATE TABLE restaurant_photos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  restaurant_id uuid NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('gallery', 'menu')),
  sort_order integer NOT NULL CHECK (sort_order >= 0),
  alt text NOT NULL DEFAULT '' CHECK (length(alt) <= 140),
  variant_base text NOT NULL UNIQUE,
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  illustration text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX restaurant_photos_restaurant_idx ON restaurant_photos (restaurant_id, purpose, sort_order);
-- The public page is served from memory (decision 073): a photo added, moved or removed is a
-- change to the restaurant, announced like one.
CREATE TRIGGER restaurant_photos_availability_changed AFTER INSERT OR UPDATE OR DELETE ON restaurant_photos
  FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
