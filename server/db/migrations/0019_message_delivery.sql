-- Messages that reach people (decisions 210–214): each outbox message knows what kind it is, the
-- provider's id for it, and where it stands: queued, sent (the provider took it), delivered (the
-- provider's receipt says it reached the phone or inbox) or failed (nothing more will be tried).
ALTER TABLE outbox_messages ADD COLUMN kind text;
ALTER TABLE outbox_messages ADD COLUMN delivery_status text NOT NULL DEFAULT 'queued'
  CHECK (delivery_status IN ('queued', 'sent', 'delivered', 'failed'));
ALTER TABLE outbox_messages ADD COLUMN status_at timestamptz;
ALTER TABLE outbox_messages ADD COLUMN provider_message_id text;
-- One message per person: the same key is written once, by whichever instance gets there first.
ALTER TABLE outbox_messages ADD COLUMN idempotency_key text;
-- The channels still to try, in the delivery policy's order, when this one fails for good.
ALTER TABLE outbox_messages ADD COLUMN fallbacks jsonb NOT NULL DEFAULT '[]'::jsonb;

UPDATE outbox_messages SET delivery_status = 'sent', status_at = sent_at WHERE sent_at IS NOT NULL;

CREATE UNIQUE INDEX outbox_messages_idempotency_key ON outbox_messages (idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE UNIQUE INDEX outbox_messages_provider_message ON outbox_messages (channel, provider_message_id) WHERE provider_message_id IS NOT NULL;
