-- Knowing your guests (decisions 260-269): what a diner tells a restaurant when booking, what the
-- restaurant's staff keep about a guest, and a diner's account deleted on request.

-- ---- The diner's request on a booking (owned by reservations; decision 260) ----
-- The enumerations are common/domain/guests.ts's.
ALTER TABLE reservations
  ADD COLUMN occasion text CHECK (occasion IN ('birthday', 'anniversary', 'date', 'business', 'other')),
  ADD COLUMN request_picks text[] NOT NULL DEFAULT '{}'
    CHECK (request_picks <@ ARRAY['allergies', 'jain', 'vegan', 'no-onion-garlic', 'high-chair', 'wheelchair-access']::text[]),
  ADD COLUMN special_request text CHECK (length(special_request) <= 200);

-- ---- A restaurant's own tags and note about a guest (owned by guests; decision 261) ----
-- One row per restaurant and diner; no other restaurant ever reads it.
CREATE TABLE guest_notes (
  restaurant_id uuid NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  tags text[] NOT NULL DEFAULT '{}' CHECK (tags <@ ARRAY['vip', 'regular', 'allergy', 'celebrating']::text[]),
  note text NOT NULL DEFAULT '' CHECK (length(note) <= 500),
  updated_by uuid REFERENCES staff_accounts (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (restaurant_id, user_id)
);
CREATE INDEX guest_notes_user_idx ON guest_notes (user_id);
-- The guest list and card count a diner's bookings at one restaurant.
CREATE INDEX reservations_restaurant_user_idx ON reservations (restaurant_id, user_id, starts_at);

-- ---- A deleted account (owned by accounts; decision 266) ----
-- The row stays, emptied of everything personal, so the bookings and the payment ledger that the
-- law makes us keep still point at one account.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;
