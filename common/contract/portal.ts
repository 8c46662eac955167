import { z } from 'zod';
import { clockTime, isoDate, oneLineName, slotRef, uuid } from './common.ts';
import { reservationStatus } from './reservations.ts';
import { reminderReplies } from './reminders.ts';
import { restaurantPhoto } from './restaurants.ts';
import { COST_FOR_TWO_MAX, COST_FOR_TWO_MIN, childrenPolicies, dietTypes, smokingPolicies } from '../domain/restaurant-profile.ts';

/** The restaurant portal's shapes (spec sections 3 and 7, Admin). */

export const SLOT_INTERVAL_MIN = 5;
export const SLOT_INTERVAL_MAX = 240;
export const SLOT_CAPACITY_MIN = 1;
export const SLOT_CAPACITY_MAX = 500;
/** The hero photo may be at most this large (bytes). */
export const HERO_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** The restaurant as its staff edit it (spec: id, name, neighborhood, instagramUrl, website, heroImageUrl). */
export const adminRestaurant = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  emoji: z.string(),
  neighborhood: z.string(),
  instagramUrl: z.string().nullable(),
  website: z.string().nullable(),
  /** What staff set, or null for the app's own hero image. */
  heroImageUrl: z.string().nullable(),
  /** What diners see: the set URL, else the app's hero-image endpoint (uploaded photo or generated). */
  heroImageSrc: z.string(),
  hasUploadedHero: z.boolean(),
  /** What diners choose by (decision 233). */
  cuisineTags: z.array(z.string()),
  address: z.string().nullable(),
  directionsUrl: z.string().nullable(),
  costForTwo: z.number().int().nullable(),
  diet: z.enum(dietTypes).nullable(),
  menuUrl: z.string().nullable(),
  dressCode: z.string().nullable(),
  childrenPolicy: z.enum(childrenPolicies).nullable(),
  smokingPolicy: z.enum(smokingPolicies).nullable(),
  photos: z.array(restaurantPhoto.extend({ purpose: z.enum(['gallery', 'menu']) })),
});
export type AdminRestaurant = z.infer<typeof adminRestaurant>;

export function isSafeLink(value: string): boolean {
  if (value.startsWith('/') && !value.startsWith('//') && !value.includes('\\')) return true;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** '' means "none": null; left out stays undefined (kept as it is). */
function blankToNull<T>(value: T | '' | null | undefined): T | null | undefined {
  return value === '' ? null : value;
}

/** Optional free text: left out keeps it, blank clears it. */
const optionalText = (field: string, max: number) =>
  z
    .union([
      z.null(),
      z
        .string()
        .trim()
        .max(max, { message: `${field} must be at most ${max} characters` }),
    ])
    .optional()
    .transform((value) => (value === undefined ? undefined : value ? value : null));

/**
 * A link that, left out, stays as it is (undefined); blank clears it. Only http(s) addresses, or a
 * path on this app ('/api/restaurant/…/hero-image'), so no javascript: or data: URL can be stored.
 */
const keptLink = (field: string) =>
  optionalText(field, 500).refine((value) => value === undefined || value === null || isSafeLink(value), {
    message: `${field} must be a web address starting with http:// or https://`,
  });

/** An optional link: blank or left out means none. */
const optionalLink = (field: string) => keptLink(field).transform((value) => value ?? null);

/** The photo upload's form field naming what the photo is of. */
export const photoPurposes = ['gallery', 'menu'] as const;
export const photoIdParams = z.object({ photoId: uuid });

export const updateAdminRestaurantBody = z.object({
  name: z
    .string({ message: 'name is required' })
    .trim()
    .min(1, { message: 'name is required' })
    .max(100, { message: 'name must be at most 100 characters' })
    .refine(...oneLineName('name')),
  neighborhood: z
    .union([
      z.null(),
      z
        .string()
        .trim()
        .max(60, { message: 'neighborhood must be at most 60 characters' })
        .refine(...oneLineName('neighborhood')),
    ])
    .optional()
    .transform((value) => (value ? value : null)),
  instagramUrl: optionalLink('instagramUrl'),
  website: optionalLink('website'),
  heroImageUrl: optionalLink('heroImageUrl'),
  // The page's facts (decision 233): each may be left out (kept as it is); '' or null clears it.
  cuisineTags: z
    .array(z.string().trim().min(1, { message: 'cuisineTags: A cuisine cannot be empty' }).max(30, { message: 'cuisineTags: At most 30 characters each' }), {
      message: 'cuisineTags must be a list',
    })
    .max(6, { message: 'cuisineTags: At most 6 cuisines' })
    .optional(),
  address: optionalText('address', 200),
  directionsUrl: keptLink('directionsUrl'),
  // '' means none; kept as a preprocess so the published schema stays one nullable number.
  costForTwo: z
    .preprocess((value) => (value === '' ? null : value), z.coerce.number({ message: 'costForTwo must be a number' }).nullable().optional())
    .refine((value) => value === undefined || value === null || (Number.isInteger(value) && value >= COST_FOR_TWO_MIN && value <= COST_FOR_TWO_MAX), {
      message: `costForTwo must be whole rupees between ${COST_FOR_TWO_MIN} and ${COST_FOR_TWO_MAX.toLocaleString('en-IN')}`,
    }),
  diet: z
    .enum(['', ...dietTypes], { message: 'diet must be pure-veg, veg-and-non-veg or non-veg' })
    .nullable()
    .optional()
    .transform(blankToNull),
  menuUrl: keptLink('menuUrl'),
  dressCode: optionalText('dressCode', 80),
  childrenPolicy: z
    .enum(['', ...childrenPolicies], { message: `childrenPolicy must be one of ${childrenPolicies.join(', ')}` })
    .nullable()
    .optional()
    .transform(blankToNull),
  smokingPolicy: z
    .enum(['', ...smokingPolicies], { message: `smokingPolicy must be one of ${smokingPolicies.join(', ')}` })
    .nullable()
    .optional()
    .transform(blankToNull),
});
export type UpdateAdminRestaurantBody = z.input<typeof updateAdminRestaurantBody>;
export type UpdateAdminRestaurantInput = z.output<typeof updateAdminRestaurantBody>;

/** A slot as shown in Slot Management. */
export const adminSlotStatus = z.enum(['available', 'full', 'cutoff']);
export type AdminSlotStatus = z.infer<typeof adminSlotStatus>;
export const staffSlotStatus = z.enum(['available', 'full'], { message: 'status must be available or full' });
export type StaffSlotStatus = z.infer<typeof staffSlotStatus>;

export const adminSlot = z.object({
  id: z.string(),
  date: z.string(),
  time: z.string(),
  capacity: z.number(),
  /** What to show: 'cutoff' once the slot starts within the booking cut-off, else what staff set. */
  status: adminSlotStatus,
  /** What staff set (the selector's value). */
  staffStatus: staffSlotStatus,
  /** Covers held by live reservations. */
  coversBooked: z.number(),
});
export type AdminSlot = z.infer<typeof adminSlot>;
export const adminSlotList = z.array(adminSlot);

export const adminSlotsQuery = z.object({ date: isoDate });

const wholeNumber = (field: string, min: number, max: number, unit = '') =>
  z.coerce
    .number({ message: `${field} must be a number` })
    .int({ message: `${field} must be a whole number` })
    .min(min, { message: `${field} must be between ${min} and ${max}${unit}` })
    .max(max, { message: `${field} must be between ${min} and ${max}${unit}` });

/** Bulk slot request (spec section 3): every `interval` minutes from start up to and including end. */
export const bulkSlotsBody = z
  .object({
    date: isoDate,
    start: clockTime,
    end: clockTime,
    interval: wholeNumber('interval', SLOT_INTERVAL_MIN, SLOT_INTERVAL_MAX, ' minutes'),
    capacity: wholeNumber('capacity', SLOT_CAPACITY_MIN, SLOT_CAPACITY_MAX),
  })
  .refine((body) => body.start < body.end, { message: 'start must be before end', path: ['start'] });
export type BulkSlotsBody = z.input<typeof bulkSlotsBody>;
export type BulkSlotsInput = z.output<typeof bulkSlotsBody>;

export const bulkSlotsResponse = z.object({
  created: z.number(),
  /** Times that already existed on that date (left as they were). */
  skipped: z.number(),
  /** Times of today that have already started (not created). */
  past: z.number(),
});
export type BulkSlotsResponse = z.infer<typeof bulkSlotsResponse>;

export const slotIdParams = z.object({ id: uuid });
/** A slot's change: available or full, and/or its capacity (never below the covers booked, decision 225). */
export const updateSlotBody = z
  .object({ status: staffSlotStatus.optional(), capacity: wholeNumber('capacity', SLOT_CAPACITY_MIN, SLOT_CAPACITY_MAX).optional() })
  .refine((body) => body.status !== undefined || body.capacity !== undefined, { message: 'Send a status or a capacity' });
export type UpdateSlotBody = z.infer<typeof updateSlotBody>;

/** A booking as staff see it (spec section 3: Booking (admin)). */
export const adminBooking = z.object({
  id: z.string(),
  status: reservationStatus,
  partySize: z.number(),
  createdAt: z.string(),
  startsAt: z.string(),
  user: z.object({ name: z.string(), email: z.string().nullable(), phone: z.string().nullable().optional() }),
  slot: slotRef,
  /** The diner's answer to a reminder (decision 152): null while no reminder has gone out and no answer came. */
  reminderReply: z.enum(reminderReplies).nullable(),
  /** The diner's latest change of time or party, as staff read it: "Changed from 7:00 PM to 8:30 PM (party 2 → 4)" (decision 284). */
  changedFrom: z.string().nullable(),
});
export type AdminBooking = z.infer<typeof adminBooking>;

/** Today's counts: pending = HELD + PENDING, confirmed = CONFIRMED + SEATED, completed = COMPLETED. */
export const liveStatus = z.object({ pending: z.number(), confirmed: z.number(), completed: z.number() });
export type LiveStatus = z.infer<typeof liveStatus>;

export const adminBookingsResponse = z.object({
  bookings: z.array(adminBooking),
  liveStatus,
  /** The Kolkata date the counts are for. */
  today: z.string(),
});
export type AdminBookingsResponse = z.infer<typeof adminBookingsResponse>;

export const bookingIdParams = z.object({ id: uuid });
export const updateBookingBody = z.object({
  status: z.enum(reservationStatus.options, { message: `status must be one of ${reservationStatus.options.join(', ')}` }),
});

export const uploadResponse = z.object({ url: z.string(), heroImageUrl: z.string() });
export type UploadResponse = z.infer<typeof uploadResponse>;

/** What the live stream (GET /api/admin/events) sends, as `event: <type>` with JSON data. */
export type PortalStreamEvent =
  | { type: 'ready' }
  | { type: 'booking'; reservationId: string; status: string }
  | { type: 'slots'; date: string | null }
  /** The host changed a day's floor: a walk-in seated, a party moved or finished (decision 245). */
  | { type: 'floor'; date: string };
