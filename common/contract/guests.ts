import { z } from 'zod';
import { isoDate, slotRef, uuid } from './common.ts';
import { bookingRequestView, reservationStatus } from './reservations.ts';
import { GUEST_NOTE_MAX, guestTags } from '../domain/guests.ts';

/** Knowing your guests (decisions 261–264): the staff's side, inside one restaurant only. */

export const guestTag = z.enum(guestTags, { message: `tags: Choose from ${guestTags.join(', ')}` });

/** A guest's history at this restaurant: visits, no-shows and late cancels here only. */
export const guestHistory = z.object({
  visits: z.number().int(),
  /** The last visit's Kolkata date (YYYY-MM-DD), or null. */
  lastVisit: z.string().nullable(),
  noShows: z.number().int(),
  lateCancels: z.number().int(),
});

/** A guest as one restaurant's staff see them: contact, history here, their tags and note. */
export const guestSummary = guestHistory.extend({
  /** The diner's account id: the guest routes' `guestId`. */
  guestId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  tags: z.array(guestTag),
  note: z.string(),
  allergy: z.boolean(),
});
export type GuestSummary = z.infer<typeof guestSummary>;

/** GET /api/admin/guest-cards/{reservationId}: the guest card of a booking. */
export const guestCard = guestSummary.extend({
  /** What the diner told this restaurant, booking by booking (latest first, at most 10). */
  requests: z.array(z.object({ reservationId: z.string(), slot: slotRef, status: reservationStatus, request: bookingRequestView })),
  notesUpdatedAt: z.string().nullable(),
});
export type GuestCard = z.infer<typeof guestCard>;

export const guestCardParams = z.object({ reservationId: uuid });
export const guestParams = z.object({ guestId: uuid });

/** PUT /api/admin/guests/{guestId}/notes: the restaurant's own tags and note (at most 500 characters). */
export const guestNotesBody = z.object({
  tags: z
    .array(guestTag)
    .max(guestTags.length)
    .transform((tags) => [...new Set(tags)]),
  note: z
    .string()
    .trim()
    .max(GUEST_NOTE_MAX, { message: `note: At most ${GUEST_NOTE_MAX} characters` }),
});
export type GuestNotesBody = z.infer<typeof guestNotesBody>;

/** "Last visit" filter choices, in days. */
export const lastVisitWindows = ['30', '90', '365'] as const;

/** GET /api/admin/guests: search by name, phone or email; filter by tag, last visit and visits. */
export const guestListQuery = z.object({
  q: z.string().trim().max(100, { message: 'q: At most 100 characters' }).optional(),
  tag: guestTag.optional(),
  lastVisitWithin: z.enum(lastVisitWindows, { message: 'lastVisitWithin: Choose 30, 90 or 365 (days)' }).optional(),
  minVisits: z.coerce.number({ message: 'minVisits: A whole number' }).int().min(0).max(1000).optional(),
});
export type GuestListQuery = z.infer<typeof guestListQuery>;

/** The most guests one list answers (the CSV has them all). */
export const GUEST_LIST_LIMIT = 200;
export const guestList = z.object({ guests: z.array(guestSummary), truncated: z.boolean() });
export type GuestList = z.infer<typeof guestList>;

/** GET /api/admin/guests/brief?date=: tonight's arrivals for the shift's printout (decision 264). */
export const briefQuery = z.object({ date: isoDate.optional() });
export const briefArrival = z.object({
  reservationId: z.string(),
  time: z.string(),
  partySize: z.number().int(),
  status: reservationStatus,
  guestId: z.string(),
  name: z.string(),
  /** The table's name when the booking has a table assignment, else null (decision 264). */
  table: z.string().nullable(),
  tags: z.array(guestTag),
  note: z.string(),
  request: bookingRequestView.nullable(),
  allergy: z.boolean(),
  visits: z.number().int(),
});
export type BriefArrival = z.infer<typeof briefArrival>;
export const tonightsBrief = z.object({ date: z.string(), restaurantName: z.string(), arrivals: z.array(briefArrival) });
export type TonightsBrief = z.infer<typeof tonightsBrief>;
