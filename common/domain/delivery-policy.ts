/**
 * The one delivery policy (decision 213): for each kind of message, the channels it may go out on,
 * in the order they are tried. A message goes to a person once (one outbox row per idempotency
 * key); when its channel fails for good, the next channel the person can be reached on is tried.
 * Every kind here is transactional: a code the person asked for, a reminder of their booking, an
 * offer of a table they queued for. Nothing is sent for marketing.
 */

export const MESSAGE_KINDS = ['code', 'notice', 'reminder', 'offer'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const DELIVERY_CHANNELS = ['whatsapp', 'sms', 'email'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DELIVERY_POLICY: Readonly<Record<MessageKind, readonly DeliveryChannel[]>> = {
  /** A one-time code proves a phone: only the phone's own channels, SMS first (every phone has it). */
  code: ['sms', 'whatsapp'],
  /** The account notice answers a signup with a taken number: the same phone, the same way. */
  notice: ['sms', 'whatsapp'],
  /** A reminder's text (its email goes out beside it, as before): WhatsApp is read first in Bengaluru. */
  reminder: ['whatsapp', 'sms'],
  /** A table held for ten minutes: the fastest channel the diner has, email last. */
  offer: ['whatsapp', 'sms', 'email'],
};

/** Where a person can be reached, and which channels have a real driver behind them. */
export interface Reachability {
  phone: string | null;
  email: string | null;
  /** Channels the deployment can send on for real (a log driver reaches nobody). */
  liveChannels: readonly DeliveryChannel[];
  /** The channel the person (or the deployment, for reminders) puts first, if any. */
  preferred?: DeliveryChannel | null;
}

/**
 * The channels one message will try, in order, each with its recipient: the policy's list for the
 * kind, kept to what the person can be reached on and what the deployment can really send, the
 * preferred channel first. A code or notice must reach the phone it names even on a log driver
 * (the dev mailbox shows it), so when no live channel is left it falls back to the policy's first.
 */
export function deliveryRoute(kind: MessageKind, reach: Reachability): { channel: DeliveryChannel; recipient: string }[] {
  const address = (channel: DeliveryChannel) => (channel === 'email' ? reach.email : reach.phone);
  let channels = [...DELIVERY_POLICY[kind]];
  if (reach.preferred && channels.includes(reach.preferred)) channels = [reach.preferred, ...channels.filter((channel) => channel !== reach.preferred)];
  const live = channels.filter((channel) => address(channel) && (channel === 'email' || reach.liveChannels.includes(channel)));
  if (live.length > 0) return live.map((channel) => ({ channel, recipient: address(channel)! }));
  const first = channels.find((channel) => address(channel));
  return first ? [{ channel: first, recipient: address(first)! }] : [];
}

/** The wait before attempt `attempt + 1` after a failed attempt: 30 s, doubling, at most an hour; a provider's Retry-After wins when longer. */
export function retryDelayMs(attempt: number, retryAfterSeconds?: number | null): number {
  const backoff = Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
  return Math.max(backoff, (retryAfterSeconds ?? 0) * 1000);
}
