import { z } from 'zod';
import { clockTime, isoDate, slotRef, uuid } from './common.ts';
import { partySize, restaurantRef } from './restaurants.ts';

/**
 * The waitlist (decisions 085, 099): when covers free up, the longest-waiting matching entry gets an
 * exclusive hold for WAITLIST_OFFER_MINUTES; if it is not taken, the next one does (decision 085).
 * Also the diner's live notifications and the dev mailbox, which carry these offers.
 */

/** How many entries one diner may have waiting at once. */
export const WAITLIST_MAX_WAITING = 5;

export const joinWaitlistBody = z.object({
  restaurantSlug: z.string({ message: 'restaurantSlug is required' }).min(1, { message: 'restaurantSlug is required' }).max(120),
  date: isoDate,
  partySize,
  /** The earliest and latest start time the diner would take (inclusive). */
  windowStart: clockTime,
  windowEnd: clockTime,
});
export type JoinWaitlistBody = z.infer<typeof joinWaitlistBody>;

export const waitlistIdParams = z.object({ id: uuid });

/**
 * waiting — in line (placeInLine among matching entries for that date);
 * offered — a table is held for the diner until offer.holdExpiresAt: complete the booking;
 * booked — the diner completed it; lapsed — the offer expired; declined — the diner let it go;
 * ended — the date's window passed without a table; removed — the diner left the waitlist.
 */
export const waitlistStates = ['waiting', 'offered', 'booked', 'lapsed', 'declined', 'ended', 'removed'] as const;
export const waitlistState = z.enum(waitlistStates);
export type WaitlistState = z.infer<typeof waitlistState>;

export const waitlistOffer = z.object({
  reservationId: z.string(),
  /** Set while the hold is live (state offered). */
  holdExpiresAt: z.string().nullable(),
  slot: slotRef,
  partySize: z.number(),
});
export type WaitlistOffer = z.infer<typeof waitlistOffer>;

export const waitlistEntry = z.object({
  id: z.string(),
  restaurant: restaurantRef,
  date: z.string(),
  partySize: z.number(),
  windowStart: z.string(),
  windowEnd: z.string(),
  joinedAt: z.string(),
  state: waitlistState,
  /** 1 = next to be offered a matching table; null unless waiting. */
  placeInLine: z.number().nullable(),
  offer: waitlistOffer.nullable(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntry>;

/** GET /api/waitlist: every entry (newest first) and, apart, the live offers to act on. */
export const waitlistResponse = z.object({
  entries: z.array(waitlistEntry),
  offers: z.array(waitlistEntry),
  serverTime: z.string(),
});
export type WaitlistResponse = z.infer<typeof waitlistResponse>;

// ---- Live notifications: GET /api/me/events (server-sent events, read with fetch + bearer) ----

/**
 * `offer`: a table is held for the diner (from a drop or the waitlist) until holdExpiresAt;
 * `drop`: a drop the diner entered has drawn (refetch /api/drops/{dropId});
 * `ready`: the stream is open.
 */
export const dinerStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('offer'),
    source: z.enum(['drop', 'waitlist']),
    reservationId: z.string(),
    restaurantName: z.string(),
    date: z.string(),
    time: z.string(),
    partySize: z.number(),
    holdExpiresAt: z.string(),
    dropId: z.string().nullable(),
    waitlistEntryId: z.string().nullable(),
  }),
  z.object({ type: z.literal('drop'), dropId: z.string() }),
]);
export type DinerStreamEvent = z.infer<typeof dinerStreamEvent>;

// ---- The dev mailbox: GET /api/dev/mailbox (not in production unless DEV_MAILBOX=1) ----

export const devMailboxQuery = z.object({
  /** Only messages to this address or phone number. */
  recipient: z.string().max(254).optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be between 1 and 200' })
    .max(200, { message: 'limit must be between 1 and 200' })
    .default(50),
});

export const outboxMessage = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms', 'whatsapp', 'push']),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxMessage = z.infer<typeof outboxMessage>;

export const devMailboxResponse = z.object({ messages: z.array(outboxMessage) });
export type DevMailboxResponse = z.infer<typeof devMailboxResponse>;
