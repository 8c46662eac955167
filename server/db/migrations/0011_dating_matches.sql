-- Dating preferences and curated matches (decision 140): what a member wants (age range,
-- neighbourhoods, free evenings, intent), the languages signup asks for, the daily suggestions
-- with each side's answer, and blocks. The scoring is decision 140.

ALTER TABLE dating_users
  ADD COLUMN languages text[] NOT NULL DEFAULT '{}',
  ADD COLUMN want_age_min smallint NOT NULL DEFAULT 18 CHECK (want_age_min >= 18),
  ADD COLUMN want_age_max smallint NOT NULL DEFAULT 99 CHECK (want_age_max <= 99),
  -- The first one is home: candidates are drawn from members whose home is one of mine.
  ADD COLUMN neighbourhoods text[] NOT NULL DEFAULT '{}',
  -- <DAY>_<WINDOW> codes (common/domain/dating-match.ts), e.g. FRI_LATE.
  ADD COLUMN free_evenings text[] NOT NULL DEFAULT '{}',
  ADD COLUMN intent text NOT NULL DEFAULT 'LONG_TERM' CHECK (intent IN ('LIFE_PARTNER', 'LONG_TERM', 'OPEN_TO_SEE')),
  ADD CONSTRAINT dating_users_age_range CHECK (want_age_min <= want_age_max);

-- The candidate pool of a member is read from here, nearest birth dates first (decision 140).
CREATE INDEX dating_users_home_dob_idx ON dating_users ((neighbourhoods[1]), dob);

-- One suggestion of a pair on one Kolkata day: both members see each other (member_a < member_b).
CREATE TABLE dating_suggestions (
  day date NOT NULL,
  member_a uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  member_b uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  score integer NOT NULL,
  answer_a text CHECK (answer_a IN ('YES', 'NO')),
  answer_b text CHECK (answer_b IN ('YES', 'NO')),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (member_a < member_b),
  -- A pair is suggested once, ever: after that it has been answered, passed or matched.
  PRIMARY KEY (member_a, member_b)
);
CREATE INDEX dating_suggestions_b_idx ON dating_suggestions (member_b, day);
CREATE INDEX dating_suggestions_day_a_idx ON dating_suggestions (day, member_a);

-- Blocks, either way: the two never see each other again.
CREATE TABLE dating_blocks (
  blocker_id uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  blocked_id uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (blocker_id, blocked_id)
);
CREATE INDEX dating_blocks_blocked_idx ON dating_blocks (blocked_id);

-- Reports, with a reason: one per reporter and member. A member with 3 open reports is hidden
-- from suggestions until the reports are reviewed (decision 140).
CREATE TABLE dating_reports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  reporter_id uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  reported_id uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('FAKE_PROFILE', 'INAPPROPRIATE', 'HARASSMENT', 'UNDERAGE', 'OTHER')),
  note text NOT NULL DEFAULT '' CHECK (length(note) <= 500),
  status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'REVIEWED')),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (reporter_id, reported_id)
);
CREATE INDEX dating_reports_open_idx ON dating_reports (reported_id) WHERE status = 'OPEN';
