-- Re-packing the night (decision 217): a hold that finds no free table may move bookings not yet
-- seated to other tables, but never one staff placed by hand. An assignment staff chose (moved to
-- other tables from the portal or the host view) is pinned. Rows written before this migration
-- cannot tell a staff move from a hold's choice and stay unpinned.
ALTER TABLE table_assignments
  ADD COLUMN pinned boolean NOT NULL DEFAULT false;
