-- Moderation of dating reports (decision 185): platform moderators, a separate
-- kind of account with its own sessions, who review the reports members make of each other.

-- Platform moderators (owned by accounts): staff of Tablefair itself, not of a restaurant.
CREATE TABLE platform_moderators (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username text NOT NULL CHECK (username ~ '^[A-Za-z0-9_.]{3,32}$'),
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX platform_moderators_username_lower_key ON platform_moderators (lower(username));

-- Their sessions are a fourth kind (0001 named the CHECK sessions_kind_check).
ALTER TABLE sessions DROP CONSTRAINT sessions_kind_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_kind_check CHECK (kind IN ('diner', 'staff', 'dating', 'moderator'));

-- A suspended member is never suggested or shown again and cannot sign in (owned by dating).
ALTER TABLE dating_users
  ADD COLUMN suspended_at timestamptz,
  ADD COLUMN suspension_note text CHECK (length(suspension_note) <= 500);

-- Who reviewed a report, when, and what they wrote (owned by dating). An open report has no review;
-- reports marked REVIEWED before this migration keep theirs empty.
ALTER TABLE dating_reports
  ADD COLUMN reviewed_by uuid REFERENCES platform_moderators (id) ON DELETE SET NULL,
  ADD COLUMN reviewed_at timestamptz,
  ADD COLUMN review_note text CHECK (length(review_note) <= 500),
  ADD CONSTRAINT dating_reports_open_unreviewed CHECK (status = 'REVIEWED' OR (reviewed_by IS NULL AND reviewed_at IS NULL AND review_note IS NULL));

-- The moderation list reads members by their newest reports of a status.
CREATE INDEX dating_reports_status_idx ON dating_reports (status, reported_id, created_at);
