import { z } from 'zod';

/** Web Push and the diner's channels (docs/decisions/212-web-push-and-installable-app.md). */

/** The key a browser subscribes with; `enabled` false (and an empty key) when this server sends no push. */
export const vapidPublicKeyResponse = z.object({
  enabled: z.boolean(),
  publicKey: z.string().max(200).describe('URL-safe base64 of the VAPID public key: `applicationServerKey` of pushManager.subscribe'),
});
export type VapidPublicKeyResponse = z.infer<typeof vapidPublicKeyResponse>;

const base64Url = (label: string, min: number, max: number) =>
  z
    .string()
    .min(min, `${label} is too short`)
    .max(max, `${label} is too long`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${label} must be URL-safe base64`);

/** A browser's push endpoint: the push service's URL for it. */
export const pushEndpoint = z.string().url('Enter the subscription endpoint URL').max(2000);

/** What PushSubscription.toJSON() gives, as the browser sends it. */
export const pushSubscriptionBody = z.object({
  endpoint: pushEndpoint,
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: base64Url('keys.p256dh', 80, 120).describe("The browser's P-256 public key (65 bytes)"),
    auth: base64Url('keys.auth', 16, 44).describe('The 16-byte authentication secret'),
  }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

export const pushUnsubscribeBody = z.object({ endpoint: pushEndpoint });

export const pushSubscriptionAnswer = z.object({ subscribed: z.boolean(), devices: z.number().int().min(0) });
export type PushSubscriptionAnswer = z.infer<typeof pushSubscriptionAnswer>;

/** The channels a diner chooses in /me. Email is not among them: it cannot be turned off for transactional messages. */
export const channelChoices = z.object({
  push: z.boolean().describe('Notifications on the browsers this account subscribed'),
  whatsapp: z.boolean().describe('WhatsApp to the verified phone'),
  sms: z.boolean().describe('Text messages to the verified phone'),
  email: z
    .literal(true, { error: 'Email cannot be turned off: offers and bookings always reach your email' })
    .optional()
    .describe('Always on (decision 212); only `true` is accepted'),
});
export type ChannelChoices = z.infer<typeof channelChoices>;

export const notificationPreferences = channelChoices.extend({
  email: z.literal(true).describe('Always on: email is the channel of record for offers and bookings (decision 212)'),
  pushEnabled: z.boolean().describe('Whether this server sends push at all'),
  pushDevices: z.number().int().min(0).describe('Browsers of this account subscribed to push'),
  verifiedPhone: z.boolean().describe('WhatsApp and SMS reach only a verified phone'),
  hasEmail: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

/**
 * A dating member's push choice (decision 219): date-plan changes go by push alone (decision 227),
 * so push is the one channel a member turns on or off.
 */
export const datingPushChoice = channelChoices.pick({ push: true });
export type DatingPushChoice = z.infer<typeof datingPushChoice>;

/** `endpoint`: this browser's push endpoint, to learn whether it is one of the member's devices. */
export const datingNotificationPreferencesQuery = z.object({ endpoint: pushEndpoint.optional() });

export const datingNotificationPreferences = z.object({
  push: z.boolean().describe('Date-plan changes by push on the browsers this member subscribed'),
  pushEnabled: z.boolean().describe('Whether this server sends push at all'),
  pushDevices: z.number().int().min(0).describe('Browsers of this member subscribed to push'),
  thisDevice: z.boolean().describe('Whether the `endpoint` asked about is one of them (false when none was given)'),
});
export type DatingNotificationPreferences = z.infer<typeof datingNotificationPreferences>;
