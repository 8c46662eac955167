-- Date plans (decision 184): a mutual yes becomes one concrete plan at a
-- partner table, held for two by the platform, paid for by each member's deposit, and settled at
-- the table: credit for those who came, the flake's deposit paid out to the one who came.

-- The platform account that holds a date's table (decision 184). Its password can never match
-- (no scrypt string), so nobody signs in as it; reservations of dates belong to it.
INSERT INTO users (id, username, password_hash, name)
VALUES ('00000000-0000-4000-8000-00000000da7e', 'tablefair.dates.system', '!', 'Tablefair dates');

CREATE TABLE dating_plans (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  member_a uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  member_b uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  restaurant_id uuid NOT NULL REFERENCES restaurants (id),
  -- The platform's hold for two on the slot; HELD until both have paid, then CONFIRMED.
  reservation_id uuid NOT NULL UNIQUE REFERENCES reservations (id),
  starts_at timestamptz NOT NULL,
  -- Statuses and their moves: common/domain/dating-plan.ts.
  status text NOT NULL CHECK (status IN ('PROPOSED', 'BOOKED', 'SEATED', 'FLAKED', 'NO_SHOW', 'DECLINED', 'EXPIRED', 'REPLACED', 'CANCELLED')),
  -- Both must have paid by then, or the plan lapses (at most 24 hours, never later than 2 hours before the start).
  deadline timestamptz NOT NULL,
  deposit_paise integer NOT NULL CHECK (deposit_paise > 0),
  -- The plan this one replaced when a member asked for another option (once per pair and match).
  replaces_plan_id uuid REFERENCES dating_plans (id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (member_a < member_b)
);
-- A pair has at most one plan in play.
CREATE UNIQUE INDEX dating_plans_open_pair_idx ON dating_plans (member_a, member_b) WHERE status IN ('PROPOSED', 'BOOKED');
CREATE INDEX dating_plans_member_b_idx ON dating_plans (member_b, created_at DESC);
CREATE INDEX dating_plans_member_a_idx ON dating_plans (member_a, created_at DESC);
CREATE INDEX dating_plans_due_idx ON dating_plans (deadline) WHERE status = 'PROPOSED';
CREATE INDEX dating_plans_booked_idx ON dating_plans (starts_at) WHERE status = 'BOOKED';

-- Each member's side of a plan: their answer, their deposit, their arrival, what their deposit
-- becomes (decided in the transaction that settles the plan, taken by payments after commit and
-- retried by the sweep until done), and their answers after the date.
CREATE TABLE dating_plan_members (
  plan_id uuid NOT NULL REFERENCES dating_plans (id) ON DELETE CASCADE,
  member_id uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  answer text CHECK (answer IN ('ACCEPTED', 'DECLINED')),
  answered_at timestamptz,
  intent_id uuid REFERENCES payment_intents (id),
  paid_at timestamptz,
  arrived_at timestamptz,
  flaked boolean NOT NULL DEFAULT false,
  deposit_move text CHECK (deposit_move IN ('release', 'credit_at_table', 'pay_member', 'keep')),
  deposit_move_paise integer,
  deposit_move_to uuid REFERENCES dating_users (id),
  deposit_move_key text UNIQUE,
  deposit_move_done_at timestamptz,
  showed_up boolean,
  meet_again boolean,
  PRIMARY KEY (plan_id, member_id)
);
CREATE INDEX dating_plan_members_member_idx ON dating_plan_members (member_id);
CREATE INDEX dating_plan_members_undone_idx ON dating_plan_members (plan_id) WHERE deposit_move IS NOT NULL AND deposit_move_done_at IS NULL;

-- A member who flaked on a date: one strike per plan.
CREATE TABLE dating_strikes (
  member_id uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  plan_id uuid NOT NULL REFERENCES dating_plans (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('NOT_ARRIVED', 'LATE_CANCEL')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (member_id, plan_id)
);

-- Payouts (decision 184): the flake's deposit, captured for the member who came, is paid out to
-- them. One payout per captured intent; the ledger moves it from member_payable to money outside us.
ALTER TABLE payment_intents DROP CONSTRAINT payment_intents_capture_purpose_check;
ALTER TABLE payment_intents ADD CONSTRAINT payment_intents_capture_purpose_check CHECK (capture_purpose IN ('keep', 'credit_at_table', 'pay_member'));
ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_kind_check;
ALTER TABLE ledger_postings ADD CONSTRAINT ledger_postings_kind_check CHECK (kind IN ('authorise', 'capture', 'release', 'refund', 'payout'));
ALTER TABLE ledger_lines DROP CONSTRAINT ledger_lines_account_check;
ALTER TABLE ledger_lines ADD CONSTRAINT ledger_lines_account_check
  CHECK (account IN ('diner_funds', 'diner_authorised', 'restaurant_receivable', 'restaurant_credit_at_table', 'member_payable'));

CREATE TABLE payouts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The captured intent whose money is paid out (its capture_purpose is pay_member).
  source_intent_id uuid NOT NULL UNIQUE REFERENCES payment_intents (id),
  -- Whose money it becomes: a dating account's id.
  to_account_id uuid NOT NULL,
  amount_paise integer NOT NULL CHECK (amount_paise > 0),
  provider text NOT NULL CHECK (provider IN ('sandbox', 'razorpay')),
  provider_ref text,
  status text NOT NULL CHECK (status IN ('PENDING', 'PAID', 'FAILED')),
  idempotency_key text NOT NULL UNIQUE,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX payouts_pending_idx ON payouts (updated_at) WHERE status = 'PENDING';
CREATE INDEX payouts_account_idx ON payouts (to_account_id, created_at DESC);
