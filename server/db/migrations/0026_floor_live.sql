-- The floor, live (decision 245): the host seats arriving bookings and walk-ins, moves and
-- finishes parties. An assignment records when its party sat down and when it left; a walk-in is
-- an assignment without a reservation, with the guest's name and phone when given. Finishing ends
-- the assignment at that instant (ends_at), so the rest of the turn is on sale again.
ALTER TABLE table_assignments
  ADD COLUMN seated_at timestamptz,
  ADD COLUMN finished_at timestamptz,
  ADD COLUMN is_walk_in boolean NOT NULL DEFAULT false,
  ADD COLUMN guest_name text CHECK (length(guest_name) <= 80),
  ADD COLUMN guest_phone text CHECK (length(guest_phone) <= 24),
  ADD CONSTRAINT table_assignments_walk_in_check CHECK (NOT is_walk_in OR (reservation_id IS NULL AND seated_at IS NOT NULL));
