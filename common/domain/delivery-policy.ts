/**
 * The one delivery policy (decision 213): for each kind of message, the channels it may go out on,
 * in the order they are tried. A message goes to a person once (one outbox row per idempotency
 * key); when its channel fails for good, the next channel the person can be reached on is tried.
 * Every kind here is transactional: a code the person asked for, a reminder of their booking, an
 * offer of a table they queued for. Nothing is sent for marketing.
 */

export const MESSAGE_KINDS = ['code', 'notice', 'reminder', 'offer', 'result', 'datePlan'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
/** The kinds that may go out as a text (SMS, WhatsApp): a draw's result and a date plan's change go only by push. */
export type TextMessageKind = Exclude<MessageKind, 'result' | 'datePlan'>;

export const DELIVERY_CHANNELS = ['push', 'whatsapp', 'sms', 'email'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DELIVERY_POLICY: Readonly<Record<MessageKind, readonly DeliveryChannel[]>> = {
  /** A one-time code proves a phone: only the phone's own channels, SMS first (every phone has it). */
  code: ['sms', 'whatsapp'],
  /** The account notice answers a signup with a taken number: the same phone, the same way. */
  notice: ['sms', 'whatsapp'],
  /** A reminder's text (its email goes out beside it, as before): this device first, then WhatsApp, read first in Bengaluru. */
  reminder: ['push', 'whatsapp', 'sms'],
  /** A table held for ten minutes: the fastest channel the diner has, email last. */
  offer: ['push', 'whatsapp', 'sms', 'email'],
  /** A drop's draw is done (the winners also get their offer): only to a device that asked for it (decision 212). */
  result: ['push'],
  /**
   * A date plan changed (proposed, accepted, booked, declined, cancelled, closed, replaced): only to
   * a dating member's subscribed browsers (decision 227). The plans card shows every change
   * whenever the member opens it, as before; no text or email names a date on a phone's lock screen.
   */
  datePlan: ['push'],
};

/**
 * Channels a diner may turn off in /me (decision 212). Email is the channel of record for
 * transactional messages: it cannot be turned off, so an offer always has somewhere to land.
 */
export const OPTIONAL_CHANNELS = ['push', 'whatsapp', 'sms'] as const satisfies readonly DeliveryChannel[];
export type OptionalChannel = (typeof OPTIONAL_CHANNELS)[number];

/** Where a person can be reached, and which channels have a real driver behind them. */
export interface Reachability {
  phone: string | null;
  email: string | null;
  /** Channels the deployment can send on for real (a log driver reaches nobody). */
  liveChannels: readonly DeliveryChannel[];
  /** The text channel the deployment puts first for reminders (REMINDER_TEXT_CHANNEL), if any. */
  preferred?: 'sms' | 'whatsapp' | null;
  /** The diner's account, when one of their browsers subscribed to push and push is on (decision 212). */
  pushTo?: string | null;
  /** Channels the diner turned off in /me; email cannot be (decision 212). */
  declined?: readonly OptionalChannel[];
}

/**
 * The channels one message will try, in order, each with its recipient: the policy's list for the
 * kind, kept to what the person can be reached on and what the deployment can really send, the
 * preferred channel first. A code or notice must reach the phone it names even on a log driver
 * (the dev mailbox shows it), so when no live channel is left it falls back to the policy's first.
 */
export function deliveryRoute(kind: MessageKind, reach: Reachability): { channel: DeliveryChannel; recipient: string }[] {
  const address = (channel: DeliveryChannel) => (channel === 'email' ? reach.email : channel === 'push' ? (reach.pushTo ?? null) : reach.phone);
  let channels = DELIVERY_POLICY[kind].filter((channel) => !(reach.declined ?? []).some((declined) => declined === channel));
  // The deployment's text channel goes first among the texts; a subscribed device stays ahead of both.
  const preferred = reach.preferred;
  if (preferred && channels.includes(preferred)) {
    const at = channels.findIndex((channel) => channel === 'whatsapp' || channel === 'sms');
    channels = channels.filter((channel) => channel !== preferred);
    channels.splice(at, 0, preferred);
  }
  const isLive = (channel: DeliveryChannel) => channel === 'email' || channel === 'push' || reach.liveChannels.includes(channel);
  const live = channels.filter((channel) => address(channel) && isLive(channel));
  if (live.length > 0) return live.map((channel) => ({ channel, recipient: address(channel)! }));
  const first = channels.find((channel) => address(channel));
  return first ? [{ channel: first, recipient: address(first)! }] : [];
}

/** The wait before attempt `attempt + 1` after a failed attempt: 30 s, doubling, at most an hour; a provider's Retry-After wins when longer. */
export function retryDelayMs(attempt: number, retryAfterSeconds?: number | null): number {
  const backoff = Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
  return Math.max(backoff, (retryAfterSeconds ?? 0) * 1000);
}
