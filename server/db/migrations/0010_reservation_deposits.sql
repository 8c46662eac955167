-- Deposits, phase 2 (decisions 130-132): the deposit a reservation carries, kept as it
-- was asked when the diner paid (a later policy change does not change a booking's terms), and
-- the money move its latest reservation move decided. The move is written in the same
-- transaction as the reservation move and carried out against the payments module after commit;
-- `move_done_at` stays empty until payments took it, so the sweep retries what a crash or a busy
-- provider left undone.
CREATE TABLE reservation_deposits (
  reservation_id uuid PRIMARY KEY REFERENCES reservations (id) ON DELETE CASCADE,
  intent_id uuid NOT NULL UNIQUE REFERENCES payment_intents (id),
  kind text NOT NULL CHECK (kind IN ('deposit', 'prepayment')),
  amount_paise integer NOT NULL CHECK (amount_paise > 0),
  per_cover_paise integer NOT NULL CHECK (per_cover_paise >= 0),
  free_cancel_until timestamptz NOT NULL,
  late_cancel_keep_paise integer NOT NULL CHECK (late_cancel_keep_paise BETWEEN 0 AND amount_paise),
  no_show_keep_paise integer NOT NULL CHECK (no_show_keep_paise BETWEEN 0 AND amount_paise),
  plain_words text NOT NULL,
  -- Set when the authorisation made the hold PENDING.
  authorised_at timestamptz,
  late_cancel boolean NOT NULL DEFAULT false,
  move text CHECK (move IN ('release', 'capture_keep', 'credit_at_table', 'waive')),
  move_paise integer NOT NULL DEFAULT 0 CHECK (move_paise >= 0),
  move_key text,
  move_done_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The sweep's question: which decided moves has payments not taken yet?
CREATE INDEX reservation_deposits_move_undone ON reservation_deposits (updated_at) WHERE move IS NOT NULL AND move_done_at IS NULL;
