-- The dating section: its own accounts (phone + password), their three photos, and the
-- photo uploads presigned for a browser, which a signup may claim only from that browser.

CREATE TABLE dating_users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Normalised (+<country><number>): one phone, one account.
  phone text NOT NULL UNIQUE CHECK (phone ~ '^\+\d{10,16}$'),
  password_hash text NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  dob date NOT NULL,
  profession text,
  dreams text NOT NULL DEFAULT '' CHECK (length(dreams) <= 200),
  five_year_goal text NOT NULL DEFAULT '' CHECK (length(five_year_goal) <= 200),
  what_i_want_in_partner text NOT NULL DEFAULT '' CHECK (length(what_i_want_in_partner) <= 200),
  why_partner_would_like_me text NOT NULL DEFAULT '' CHECK (length(why_partner_would_like_me) <= 200),
  physical_activity text NOT NULL DEFAULT 'SOMETIMES' CHECK (physical_activity IN ('RARELY', 'SOMETIMES', 'REGULAR', 'ATHLETE')),
  date_budget text NOT NULL CHECK (date_budget IN ('INR_500_1000', 'INR_1000_2500', 'INR_2500_5000', 'INR_5000_PLUS')),
  instagram_handle text,
  diet text CHECK (diet IN ('VEG', 'EGG', 'NON_VEG', 'VEGAN', 'JAIN')),
  drinking text CHECK (drinking IN ('NEVER', 'SOCIALLY', 'OFTEN')),
  smoking text CHECK (smoking IN ('NO', 'SOCIALLY', 'YES')),
  cuisines text[] NOT NULL CHECK (cardinality(cuisines) >= 1),
  interests text[] NOT NULL DEFAULT '{}',
  first_date_types text[] NOT NULL CHECK (cardinality(first_date_types) >= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Exactly three per person, sort orders 0-2 (the service writes all three in one transaction).
CREATE TABLE dating_photos (
  dating_user_id uuid NOT NULL REFERENCES dating_users (id) ON DELETE CASCADE,
  sort_order smallint NOT NULL CHECK (sort_order BETWEEN 0 AND 2),
  object_key text NOT NULL UNIQUE,
  content_type text NOT NULL,
  size_bytes integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (dating_user_id, sort_order)
);

-- A presigned photo upload: bound to the browser that asked (SHA-256 of its upload-nonce
-- cookie), marked uploaded once its bytes were checked, claimed by at most one signup.
CREATE TABLE dating_uploads (
  object_key text PRIMARY KEY,
  browser_nonce_hash text NOT NULL,
  content_type text NOT NULL,
  size_bytes integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  uploaded_at timestamptz,
  claimed_by uuid REFERENCES dating_users (id) ON DELETE SET NULL,
  claimed_at timestamptz
);
CREATE INDEX dating_uploads_nonce_idx ON dating_uploads (browser_nonce_hash);
