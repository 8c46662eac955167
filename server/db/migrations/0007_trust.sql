-- Trust (docs/security.md): a draw committed to before entries open (decision 100).

-- The draw's seed is chosen when the drop is created and kept sealed; only its SHA-256 is
-- published (seed_commitment, at committed_at). At the release the sealed seed becomes `seed`.
-- When entries close, the entry list is fixed: its count and the SHA-256 of its sorted ids.
ALTER TABLE drops ADD COLUMN sealed_seed text CHECK (sealed_seed IS NULL OR sealed_seed ~ '^[0-9a-f]{64}$');
ALTER TABLE drops ADD COLUMN seed_commitment text CHECK (seed_commitment IS NULL OR seed_commitment ~ '^[0-9a-f]{64}$');
ALTER TABLE drops ADD COLUMN committed_at timestamptz;
ALTER TABLE drops ADD COLUMN entries_closed_at timestamptz;
ALTER TABLE drops ADD COLUMN closed_entry_count integer;
ALTER TABLE drops ADD COLUMN closed_entries_hash text CHECK (closed_entries_hash IS NULL OR closed_entries_hash ~ '^[0-9a-f]{64}$');
ALTER TABLE drops ADD CONSTRAINT drops_commitment_whole CHECK ((sealed_seed IS NULL) = (seed_commitment IS NULL) AND (seed_commitment IS NULL) = (committed_at IS NULL));

-- Drops not yet drawn commit now (their commitment says when); drawn ones keep their revealed seed.
UPDATE drops SET sealed_seed = encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text || clock_timestamp()::text, 'UTF8')), 'hex')
  WHERE drawn_at IS NULL;
UPDATE drops SET seed_commitment = encode(sha256(decode(sealed_seed, 'hex')), 'hex'), committed_at = now() WHERE sealed_seed IS NOT NULL;
CREATE INDEX drops_entries_close_idx ON drops (entry_closes_at) WHERE entries_closed_at IS NULL;

-- A dating signup waits here until the phone's code comes back (decision 101): the profile as
-- sent, the password's hash, the browser that uploaded its photos, and an HMAC of the code.
-- A signup for a phone that already has an account gets a row too (its code was never sent),
-- so both answer alike.
CREATE TABLE dating_signups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  phone text NOT NULL,
  password_hash text NOT NULL,
  profile jsonb NOT NULL,
  browser_nonce_hash text NOT NULL,
  code_salt text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  message_id uuid,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX dating_signups_expires_idx ON dating_signups (expires_at);

-- Bytes of dating photos uploaded per address per Kolkata day (docs/operations.md §6), counted here so
-- N instances share one quota. Rows older than two days are deleted by the upload sweep.
CREATE TABLE upload_byte_counts (
  ip text NOT NULL,
  day date NOT NULL,
  bytes bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (ip, day)
);
CREATE INDEX dating_uploads_unclaimed_idx ON dating_uploads (expires_at) WHERE claimed_by IS NULL;
