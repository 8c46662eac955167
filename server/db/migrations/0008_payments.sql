-- Payments (docs/payments.md): payment intents, a double-entry ledger, the webhook inbox
-- and every call made to the provider. Amounts are integer paise. The intent's statuses come from
-- common/domain/payment-intent.ts (decision 110); the ledger's accounts are decision 111.

CREATE TABLE payment_intents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Whose money: a diner's users.id, or a dating account's id for purpose dating_deposit.
  account_id uuid NOT NULL,
  restaurant_id uuid NOT NULL REFERENCES restaurants (id),
  purpose text NOT NULL CHECK (purpose IN ('reservation_deposit', 'reservation_prepayment', 'dating_deposit')),
  -- What the money is for; payments never reads those tables, so no foreign keys (the owner reacts through onStatusChange).
  reservation_id uuid,
  dating_plan_id uuid,
  amount_paise integer NOT NULL CHECK (amount_paise > 0 AND amount_paise <= 10000000),
  currency text NOT NULL DEFAULT 'INR' CHECK (currency = 'INR'),
  provider text NOT NULL CHECK (provider IN ('sandbox', 'razorpay')),
  provider_ref text,
  provider_payment_ref text,
  status text NOT NULL CHECK (status IN ('CREATED', 'AUTHORISED', 'CAPTURE_PENDING', 'RELEASE_PENDING', 'REFUND_PENDING',
                                         'CAPTURED', 'RELEASED', 'REFUNDED', 'FAILED', 'EXPIRED')),
  authorised_paise integer NOT NULL DEFAULT 0,
  captured_paise integer NOT NULL DEFAULT 0,
  refunded_paise integer NOT NULL DEFAULT 0,
  capture_requested_paise integer,
  capture_purpose text CHECK (capture_purpose IN ('keep', 'credit_at_table')),
  refund_requested_paise integer,
  idempotency_key text NOT NULL UNIQUE,
  -- When the owner stops waiting for the diner's approval; later authorisations are released at once.
  approve_by timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT payment_intents_purpose_ref CHECK (
    (purpose = 'dating_deposit') = (dating_plan_id IS NOT NULL AND reservation_id IS NULL)
    AND (purpose <> 'dating_deposit') = (reservation_id IS NOT NULL AND dating_plan_id IS NULL)),
  -- Nothing is captured beyond what was authorised, nor refunded beyond what was captured.
  CONSTRAINT payment_intents_amounts CHECK (
    authorised_paise BETWEEN 0 AND amount_paise
    AND captured_paise BETWEEN 0 AND authorised_paise
    AND refunded_paise BETWEEN 0 AND captured_paise
    AND (capture_requested_paise IS NULL OR capture_requested_paise BETWEEN 1 AND amount_paise)
    AND (refund_requested_paise IS NULL OR refund_requested_paise BETWEEN 1 AND amount_paise))
);
CREATE UNIQUE INDEX payment_intents_provider_ref_idx ON payment_intents (provider, provider_ref) WHERE provider_ref IS NOT NULL;
CREATE INDEX payment_intents_account_idx ON payment_intents (account_id, created_at DESC);
CREATE INDEX payment_intents_restaurant_idx ON payment_intents (restaurant_id, created_at DESC);
CREATE INDEX payment_intents_reservation_idx ON payment_intents (reservation_id) WHERE reservation_id IS NOT NULL;
CREATE INDEX payment_intents_waiting_idx ON payment_intents (approve_by) WHERE status = 'CREATED';

-- One posting per money movement. An intent moves each kind of money at most once, so a replayed
-- webhook or a retried call can never post twice (the unique key below, decision 112).
CREATE TABLE ledger_postings (
  id bigserial PRIMARY KEY,
  intent_id uuid NOT NULL REFERENCES payment_intents (id),
  kind text NOT NULL CHECK (kind IN ('authorise', 'capture', 'release', 'refund')),
  -- What caused it: a webhook's event id or a provider call's idempotency key.
  source text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (intent_id, kind)
);

CREATE TABLE ledger_lines (
  posting_id bigint NOT NULL REFERENCES ledger_postings (id),
  account text NOT NULL CHECK (account IN ('diner_funds', 'diner_authorised', 'restaurant_receivable', 'restaurant_credit_at_table')),
  amount_paise integer NOT NULL CHECK (amount_paise <> 0),
  PRIMARY KEY (posting_id, account)
);

-- Every posting balances: checked at commit, so a transaction that writes unbalanced lines fails whole.
CREATE FUNCTION ledger_posting_balances() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
BEGIN
  SELECT coalesce(sum(amount_paise), 0) INTO total FROM ledger_lines WHERE posting_id = NEW.posting_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger posting % does not balance (sum %)', NEW.posting_id, total USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER ledger_lines_balance AFTER INSERT OR UPDATE ON ledger_lines
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_posting_balances();

-- The webhook inbox: each provider event once (a duplicate delivery finds its row and changes nothing).
CREATE TABLE payment_events (
  id bigserial PRIMARY KEY,
  provider text NOT NULL CHECK (provider IN ('sandbox', 'razorpay')),
  event_id text NOT NULL,
  event_type text NOT NULL,
  intent_id uuid REFERENCES payment_intents (id),
  -- applied: it moved the intent; ignored: it did not fit the intent's status; unmatched: no intent.
  outcome text NOT NULL CHECK (outcome IN ('applied', 'ignored', 'unmatched')),
  received_at timestamptz NOT NULL,
  UNIQUE (provider, event_id)
);
CREATE INDEX payment_events_intent_idx ON payment_events (intent_id);

-- Every call to the provider, under the caller's idempotency key: a retry finds its row and re-sends
-- the same request instead of making a second one.
CREATE TABLE provider_calls (
  id bigserial PRIMARY KEY,
  intent_id uuid NOT NULL REFERENCES payment_intents (id),
  kind text NOT NULL CHECK (kind IN ('authorise', 'capture', 'release', 'refund')),
  idempotency_key text NOT NULL UNIQUE,
  amount_paise integer,
  reason text NOT NULL DEFAULT '',
  outcome text NOT NULL CHECK (outcome IN ('pending', 'accepted', 'timed_out', 'refused')),
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX provider_calls_intent_idx ON provider_calls (intent_id);
