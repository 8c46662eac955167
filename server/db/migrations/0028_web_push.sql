-- Web Push and the diner's own channels (docs/decisions/212-web-push-and-installable-app.md).
-- A browser's push subscription belongs to one account; its endpoint (the push service's URL for
-- that browser) is unique: subscribing again from the same browser moves it to whoever signed in.
-- A subscription the push service answers 404 or 410 for is gone and is deleted.
CREATE TABLE push_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  created_at timestamptz NOT NULL,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  last_failure text
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id);

-- The channels a diner turned off; email is the channel of record for transactional messages
-- and cannot be turned off (decision 212). No row means every channel is on.
CREATE TABLE notification_preferences (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  push boolean NOT NULL DEFAULT true,
  whatsapp boolean NOT NULL DEFAULT true,
  sms boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL
);

-- Push is a channel of the outbox; its row carries the screen the notification opens.
ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_channel_check;
ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_channel_check CHECK (channel IN ('email', 'sms', 'whatsapp', 'push'));
ALTER TABLE outbox_messages ADD COLUMN link text;
