import { z } from 'zod';
import { clockTime, isoDate, oneLineName, slotRef, uuid } from './common.ts';
import { partySize, restaurantRef } from './restaurants.ts';
import { reservationStatus } from './reservations.ts';
import { formatRupees, MAX_PER_COVER_PAISE } from '../domain/deposit-policy.ts';

/**
 * Drops (decisions 080–083): a restaurant's slots held back until a release instant, entered during a
 * window and given out in the order of a recorded random draw (decisions 080-083).
 */

export const DROP_TITLE_MAX = 80;
export const DROP_DESCRIPTION_MAX = 500;
export const DROP_TIMES_MAX = 12;
/** Days a drop's dates may span (inclusive). */
export const DROP_DAYS_MAX = 31;
/** Covers at each of a drop's times; also the biggest party that can enter. */
export const DROP_CAPACITY_MIN = 1;
export const DROP_CAPACITY_MAX = 500;

/** An instant with its offset, e.g. 2026-11-30T18:00:00+05:30 or …Z; the message names the field. */
const instant = (field: string) =>
  z
    .string({ message: `${field}: Use a date and time like 2026-11-30T18:00:00+05:30` })
    .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)), {
      message: `${field}: Use a date and time like 2026-11-30T18:00:00+05:30`,
    });

/**
 * Where a drop is in its life: upcoming (entry not yet open), open (entries taken), closed
 * (entries closed, waiting for the release), released (drawn; tables go down the line),
 * ended (every slot has passed its cut-off).
 */
export const dropPhases = ['upcoming', 'open', 'closed', 'released', 'ended'] as const;
export const dropPhase = z.enum(dropPhases);
export type DropPhase = z.infer<typeof dropPhase>;

export const dropIdParams = z.object({ id: uuid });

/** A drop as anyone sees it on /drops. Instants are ISO-8601 UTC; serverTime lets a countdown correct the device's clock. */
export const dropSummary = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  restaurant: restaurantRef,
  phase: dropPhase,
  entryOpensAt: z.string(),
  entryClosesAt: z.string(),
  releaseAt: z.string(),
  /** The drop's dates and times (Kolkata wall clock). */
  dateFrom: z.string(),
  dateTo: z.string(),
  times: z.array(z.string()),
  /** Covers per slot: the biggest party that may enter. */
  capacity: z.number(),
  /** Slots in the drop. */
  slotCount: z.number(),
  entryCount: z.number(),
  drawnAt: z.string().nullable(),
  /** The deposit each guest pays to hold a table of this drop (decision 120), in paise; null when none. */
  depositPerCoverPaise: z.number().nullable(),
});
export type DropSummary = z.infer<typeof dropSummary>;

/** GET /api/drops: citywide, open ones first (closing soonest), then upcoming (opening soonest), then past (latest first). */
export const dropList = z.object({
  open: z.array(dropSummary),
  upcoming: z.array(dropSummary),
  past: z.array(dropSummary),
  serverTime: z.string(),
});
export type DropList = z.infer<typeof dropList>;

/**
 * The caller's result, by state:
 * entered — in the draw, which has not run yet;
 * won — got a table: a HELD reservation to complete before holdExpiresAt ("complete booking in 9:41");
 * booked — completed it (the reservation's status says how far it went);
 * waiting — in line at placeInLine ("You are number 37 in line"): freed tables go down the line;
 * lapsed — the hold expired or was cancelled, so the table went to the next in line;
 * not_this_time — the drop ended without a table for this entry;
 * withdrawn — left the line after the draw.
 */
export const dropEntryResult = z.discriminatedUnion('state', [
  z.object({ state: z.literal('entered') }),
  z.object({ state: z.literal('won'), reservationId: z.string(), holdExpiresAt: z.string(), slot: slotRef }),
  z.object({ state: z.literal('booked'), reservationId: z.string(), status: reservationStatus, slot: slotRef }),
  z.object({ state: z.literal('waiting'), placeInLine: z.number() }),
  z.object({ state: z.literal('lapsed'), reservationId: z.string() }),
  z.object({ state: z.literal('not_this_time') }),
  z.object({ state: z.literal('withdrawn') }),
]);
export type DropEntryResult = z.infer<typeof dropEntryResult>;

export const myDropEntry = z.object({
  id: z.string(),
  partySize: z.number(),
  enteredAt: z.string(),
  /** 1-based place in the drawn order; null before the draw. */
  position: z.number().nullable(),
  result: dropEntryResult,
});
export type MyDropEntry = z.infer<typeof myDropEntry>;

/**
 * The draw's public commitments (decision 100), null only for drops created before them:
 * seedCommitment — SHA-256 (hex) of the draw seed's 32 bytes, published at committedAt (the drop's creation), the seed itself secret until the draw;
 * entriesClosedAt, closedEntryCount, entriesHash — the entry list fixed when entries closed: SHA-256 (hex) of the ids sorted and joined with "\n".
 */
export const drawCommitments = z.object({
  seedCommitment: z.string().nullable(),
  committedAt: z.string().nullable(),
  entriesClosedAt: z.string().nullable(),
  closedEntryCount: z.number().nullable(),
  entriesHash: z.string().nullable(),
});
export type DrawCommitments = z.infer<typeof drawCommitments>;

/** GET /api/drops/{id}: the drop, its slots and (for a signed-in diner) their entry. */
export const dropDetail = dropSummary.extend({
  ...drawCommitments.shape,
  slots: z.array(slotRef),
  /** null when signed out or not entered. */
  myEntry: myDropEntry.nullable(),
  /** For a signed-in diner: whether their phone is verified (entering needs it); null when signed out. */
  phoneVerified: z.boolean().nullable(),
  serverTime: z.string(),
});
export type DropDetail = z.infer<typeof dropDetail>;

export const enterDropBody = z.object({ partySize });
export type EnterDropBody = z.infer<typeof enterDropBody>;

/**
 * GET /api/drops/{id}/draw: everything needed to check the draw: seedCommitment(seed) === seedCommitment,
 * entryListHash(entryIds) === entriesHash, and drawOrder(seed, entryIds) equals order.
 */
export const dropDrawAudit = z.object({
  dropId: z.string(),
  seed: z.string(),
  /** SHA-256 (hex) of the seed's bytes, published since committedAt; null for a drop older than decision 100. */
  seedCommitment: z.string().nullable(),
  committedAt: z.string().nullable(),
  /** When entries closed and the hash of the entry list fixed then. */
  entriesClosedAt: z.string().nullable(),
  entriesHash: z.string().nullable(),
  /** The ids of every entry in the draw, sorted ascending. */
  entryIds: z.array(z.string()),
  drawnAt: z.string(),
  algorithm: z.string(),
  /** Every entry in the draw, by id, in the drawn order (position 1 first). */
  order: z.array(z.string()),
});
export type DropDrawAudit = z.infer<typeof dropDrawAudit>;

// ---- The portal's drop calls (staff of the drop's restaurant) ----

export const createDropBody = z.object({
  title: z
    .string({ message: 'title is required' })
    .trim()
    .min(1, { message: 'title is required' })
    .max(DROP_TITLE_MAX, { message: `title must be at most ${DROP_TITLE_MAX} characters` })
    .refine(...oneLineName('title')),
  description: z
    .union([
      z.null(),
      z
        .string()
        .trim()
        .max(DROP_DESCRIPTION_MAX, { message: `description must be at most ${DROP_DESCRIPTION_MAX} characters` }),
    ])
    .optional()
    .transform((value) => (value ? value : null)),
  dateFrom: isoDate,
  dateTo: isoDate,
  times: z
    .array(clockTime, { message: 'times: list one or more times, e.g. ["19:00", "21:00"]' })
    .min(1, { message: 'times: list one or more times, e.g. ["19:00", "21:00"]' })
    .max(DROP_TIMES_MAX, { message: `times: at most ${DROP_TIMES_MAX} times` }),
  capacity: z
    .number({ message: 'capacity must be a number of covers' })
    .int({ message: 'capacity must be a whole number of covers' })
    .min(DROP_CAPACITY_MIN, { message: `capacity must be between ${DROP_CAPACITY_MIN} and ${DROP_CAPACITY_MAX} covers` })
    .max(DROP_CAPACITY_MAX, { message: `capacity must be between ${DROP_CAPACITY_MIN} and ${DROP_CAPACITY_MAX} covers` }),
  entryOpensAt: instant('entryOpensAt'),
  entryClosesAt: instant('entryClosesAt'),
  releaseAt: instant('releaseAt'),
  /** A deposit per guest on every table of the drop, in paise (the form takes rupees); 0, null or absent: none. */
  depositPerCoverPaise: z
    .number({ message: 'depositPerCoverPaise must be a number of paise' })
    .int({ message: 'depositPerCoverPaise must be a whole number of paise' })
    .min(0, { message: 'depositPerCoverPaise cannot be negative' })
    .max(MAX_PER_COVER_PAISE, { message: `depositPerCoverPaise must be at most ${formatRupees(MAX_PER_COVER_PAISE)} a guest` })
    .nullish(),
  /**
   * Take the times the restaurant already offers at these dates × times into the drop (decision
   * 226): they leave normal booking; refused, naming them, when any has a booking. Absent or
   * false: a time that already exists is refused.
   */
  takeExistingTimes: z.boolean({ message: 'takeExistingTimes must be true or false' }).optional(),
});
export type CreateDropBody = z.infer<typeof createDropBody>;

/** An entry as the restaurant's staff see it: in the diner's name (reservations are not transferable). */
export const adminDropEntry = z.object({
  id: z.string(),
  diner: z.object({ name: z.string(), username: z.string(), phone: z.string() }),
  partySize: z.number(),
  enteredAt: z.string(),
  position: z.number().nullable(),
  result: dropEntryResult,
});
export type AdminDropEntry = z.infer<typeof adminDropEntry>;

export const adminDropSummary = dropSummary.extend({
  /** Entries that got a table so far (a hold or more). */
  offeredCount: z.number(),
  bookedCount: z.number(),
});
export type AdminDropSummary = z.infer<typeof adminDropSummary>;
export const adminDropList = z.array(adminDropSummary);

export const adminDropDetail = adminDropSummary.extend({
  ...drawCommitments.shape,
  slots: z.array(z.object({ id: z.string(), date: z.string(), time: z.string(), capacity: z.number(), coversBooked: z.number() })),
  /** The draw's seed (hex) once it has run; with the entry ids it recomputes the order. */
  seed: z.string().nullable(),
  /** Every entry: in drawn order after the draw, in order of entry before it. */
  entries: z.array(adminDropEntry),
  serverTime: z.string(),
});
export type AdminDropDetail = z.infer<typeof adminDropDetail>;
