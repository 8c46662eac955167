-- Date-plan changes by push (docs/decisions/219-dating-members-own-push-subscriptions.md): a dating
-- member (dating_users, a separate account) owns browsers' push subscriptions and a push choice in
-- the same tables as a diner. Each row has exactly one owner, a diner or a dating member.
ALTER TABLE push_subscriptions ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE push_subscriptions ADD COLUMN dating_user_id uuid REFERENCES dating_users (id) ON DELETE CASCADE;
ALTER TABLE push_subscriptions ADD CONSTRAINT push_subscriptions_one_owner CHECK (num_nonnulls(user_id, dating_user_id) = 1);
-- One browser may carry both a diner's and a dating member's pushes (often the same person, two
-- accounts): an endpoint is unique per kind of owner, and subscribing again from the same browser
-- still moves it to whichever account of that kind signed in.
ALTER TABLE push_subscriptions DROP CONSTRAINT push_subscriptions_endpoint_key;
CREATE UNIQUE INDEX push_subscriptions_diner_endpoint ON push_subscriptions (endpoint) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX push_subscriptions_dating_endpoint ON push_subscriptions (endpoint) WHERE dating_user_id IS NOT NULL;
CREATE INDEX push_subscriptions_dating_user_idx ON push_subscriptions (dating_user_id) WHERE dating_user_id IS NOT NULL;

-- The channel choices: a row of its own id, owned by a diner or a dating member.
ALTER TABLE notification_preferences DROP CONSTRAINT notification_preferences_pkey;
ALTER TABLE notification_preferences ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY;
ALTER TABLE notification_preferences ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE notification_preferences ADD CONSTRAINT notification_preferences_user_key UNIQUE (user_id);
ALTER TABLE notification_preferences ADD COLUMN dating_user_id uuid UNIQUE REFERENCES dating_users (id) ON DELETE CASCADE;
ALTER TABLE notification_preferences ADD CONSTRAINT notification_preferences_one_owner CHECK (num_nonnulls(user_id, dating_user_id) = 1);
