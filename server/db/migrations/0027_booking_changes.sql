-- A diner changes a booking's time or party size (decisions 280-284). Each change is a row:
-- what it was and what it became, what it cost or released, and who made it when. A change that
-- asks an extra deposit waits for that payment (awaiting_payment) and is applied, atomically, when
-- payments says it is authorised; until then the booking keeps its old time, party and terms.
CREATE TABLE reservation_changes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  reservation_id uuid NOT NULL REFERENCES reservations (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('awaiting_payment', 'applied', 'refused')),
  from_slot_id uuid NOT NULL REFERENCES slots (id),
  to_slot_id uuid NOT NULL REFERENCES slots (id),
  from_starts_at timestamptz NOT NULL,
  to_starts_at timestamptz NOT NULL,
  from_party_size integer NOT NULL CHECK (from_party_size > 0),
  to_party_size integer NOT NULL CHECK (to_party_size > 0),
  extra_paise integer NOT NULL DEFAULT 0 CHECK (extra_paise >= 0),
  released_paise integer NOT NULL DEFAULT 0 CHECK (released_paise >= 0),
  extra_intent_id uuid,
  actor_kind text NOT NULL CHECK (actor_kind IN ('diner', 'staff', 'system')),
  actor_id uuid,
  created_at timestamptz NOT NULL,
  applied_at timestamptz
);
CREATE INDEX reservation_changes_reservation_idx ON reservation_changes (reservation_id, created_at);
CREATE UNIQUE INDEX reservation_changes_intent_key ON reservation_changes (extra_intent_id) WHERE extra_intent_id IS NOT NULL;
-- One change at a time waits for its payment.
CREATE UNIQUE INDEX reservation_changes_waiting_key ON reservation_changes (reservation_id) WHERE status = 'awaiting_payment';
