-- Reminders before a reservation (decision 150). One row per reservation, reminder offset and start
-- instant: the row is the claim, so a reminder goes out once however many instances sweep and
-- however often they restart. A moved reservation has a new start, so it gets its own reminders
-- and the old start's are never sent.
CREATE TABLE reservation_reminders (
  reservation_id uuid NOT NULL REFERENCES reservations (id) ON DELETE CASCADE,
  offset_minutes integer NOT NULL CHECK (offset_minutes > 0),
  starts_at timestamptz NOT NULL,
  -- When the reminder was written to the outbox (the same transaction as its messages).
  queued_at timestamptz NOT NULL,
  PRIMARY KEY (reservation_id, offset_minutes, starts_at)
);

-- Restaurants that turned reminders off; every other restaurant sends them.
CREATE TABLE restaurant_reminder_opt_outs (
  restaurant_id uuid PRIMARY KEY REFERENCES restaurants (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL
);

-- Finding what is due looks for live reservations by start.
CREATE INDEX reservations_live_starts_idx ON reservations (starts_at) WHERE status IN ('PENDING', 'CONFIRMED');
