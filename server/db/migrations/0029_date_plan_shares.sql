-- A date plan's share links (decision 208): each link signs one of these rows' ids, so a member
-- can stop sharing (every link of theirs for the plan ends) before the plan itself ends.
CREATE TABLE dating_plan_shares (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  plan_id uuid NOT NULL REFERENCES dating_plans (id) ON DELETE CASCADE,
  member_id uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX dating_plan_shares_plan_member_idx ON dating_plan_shares (plan_id, member_id);
