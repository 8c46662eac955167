-- The diner's answer to a reminder's one-tap links (decision 152): "I'm coming" or "Release my table".
-- One row per reservation, holding the latest answer, so staff see who confirmed, who released and
-- (a reminder sent, no row) who has not answered. Written in the transaction of the answer itself.
CREATE TABLE reminder_replies (
  reservation_id uuid PRIMARY KEY REFERENCES reservations (id) ON DELETE CASCADE,
  reply text NOT NULL CHECK (reply IN ('coming', 'released')),
  replied_at timestamptz NOT NULL
);

-- WhatsApp is a channel of its own beside SMS (same caps, its own driver). A WhatsApp business
-- account sends a registered template with values, not free text, so the message keeps both.
ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_channel_check;
ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_channel_check CHECK (channel IN ('email', 'sms', 'whatsapp'));
ALTER TABLE outbox_messages ADD COLUMN template jsonb;
