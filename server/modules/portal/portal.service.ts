import {
  HERO_IMAGE_MAX_BYTES,
  type AdminBooking,
  type AdminBookingsResponse,
  type AdminRestaurant,
  type AdminSlot,
  type BulkSlotsInput,
  type BulkSlotsResponse,
  type PortalStreamEvent,
  type StaffSlotStatus,
  type UpdateAdminRestaurantInput,
  type UploadResponse,
} from '#common/contract/portal.ts';
import { effectiveStatus, summaryBuckets, type ReservationStatus } from '#common/domain/reservation-status.ts';
import { DEFAULT_NEIGHBORHOOD, AVAILABILITY_HORIZON_DAYS } from '#common/domain/restaurants.ts';
import { clockTimeOf, isPastBookingCutoff, kolkataInstant, minutesOfDay, todayInKolkata } from '#common/domain/time.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, forbidden, notFound, sessionExpired } from '#server/errors.ts';
import { requireStaff, type Principal, type StaffPrincipal } from '#server/modules/accounts/principal.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import { heroImagePath } from '#server/modules/restaurants/restaurants.service.ts';
import type { StorageService } from '#server/modules/storage/storage.service.ts';
import {
  countBookingsOfDate,
  findAdminRestaurant,
  findBookingOfRestaurant,
  findHeroImageKey,
  findSlotOfRestaurant,
  insertSlots,
  listBookingsFrom,
  listSlotsOfDate,
  setHeroImage,
  updateRestaurantProfile,
  updateSlotStatus,
  type AdminBookingRow,
  type AdminRestaurantRow,
  type AdminSlotRow,
} from './portal.repository.ts';

export const BOOKING_NOT_FOUND = 'Booking not found';
export const SLOT_NOT_FOUND = 'Slot not found';
/** How far ahead the Upcoming Bookings list reaches (the diner's booking horizon). */
const BOOKINGS_HORIZON_DAYS = AVAILABILITY_HORIZON_DAYS;
const BOOKINGS_LIMIT = 500;

function toAdminRestaurant(row: AdminRestaurantRow): AdminRestaurant {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    emoji: row.emoji,
    neighborhood: row.neighborhood || DEFAULT_NEIGHBORHOOD,
    instagramUrl: row.instagram_url,
    website: row.website,
    heroImageUrl: row.hero_image_url,
    heroImageSrc: row.hero_image_url || heroImagePath(row.id),
    hasUploadedHero: row.hero_image_key !== null,
  };
}

function toAdminBooking(row: AdminBookingRow, now: Date): AdminBooking {
  return {
    id: row.id,
    status: effectiveStatus(row.status, row.hold_expires_at, now),
    partySize: row.party_size,
    createdAt: asDate(row.created_at).toISOString(),
    startsAt: asDate(row.starts_at).toISOString(),
    // Reservations are in the diner's name; an account without one shows its username.
    user: { name: row.user_name || row.username, email: row.user_email, phone: row.user_phone },
    slot: { date: row.slot_date, time: row.slot_time },
  };
}

/** The restaurant portal: profile, slots, bookings and the live stream, each scoped to the staff's own restaurant. */
export function createPortalService(deps: AppDeps, reservations: ReservationsService, storage: StorageService) {
  const { db, clock, config, events } = deps;

  function toAdminSlot(row: AdminSlotRow, now: Date): AdminSlot {
    return {
      id: row.id,
      date: row.date,
      time: row.time,
      capacity: row.capacity,
      status: isPastBookingCutoff(row.starts_at, now, config.bookingCutoffMinutes) ? 'cutoff' : row.status,
      staffStatus: row.status,
      coversBooked: row.covers_booked,
    };
  }

  async function loadOwnRestaurant(principal: StaffPrincipal): Promise<AdminRestaurantRow> {
    const row = await findAdminRestaurant(db, principal.restaurantId);
    // The restaurant was removed under a live session: the session no longer means anything.
    if (!row) throw sessionExpired();
    return row;
  }

  return {
    /** GET /api/admin/restaurant: the signed-in staff's own restaurant (the server decides which). */
    async getRestaurant(principal: Principal): Promise<AdminRestaurant> {
      requireStaff(principal);
      return toAdminRestaurant(await loadOwnRestaurant(principal));
    },

    /** PUT /api/admin/restaurant: the public profile; the change shows on the public page at once. */
    async updateRestaurant(principal: Principal, input: UpdateAdminRestaurantInput): Promise<AdminRestaurant> {
      requireStaff(principal);
      const row = await updateRestaurantProfile(db, principal.restaurantId, {
        name: input.name,
        neighborhood: input.neighborhood ?? DEFAULT_NEIGHBORHOOD,
        instagramUrl: input.instagramUrl,
        website: input.website,
        heroImageUrl: input.heroImageUrl,
        now: clock.now(),
      });
      if (!row) throw sessionExpired();
      return toAdminRestaurant(row);
    },

    /** GET /api/admin/slots?date: the date's slots with covers booked and display status. */
    async listSlots(principal: Principal, date: string): Promise<AdminSlot[]> {
      requireStaff(principal);
      const now = clock.now();
      return (await listSlotsOfDate(db, principal.restaurantId, date, now)).map((row) => toAdminSlot(row, now));
    },

    /**
     * POST /api/admin/slots/bulk: a time every `interval` minutes from start up to and including end.
     * Times already on that date are skipped (never duplicated or changed); times of today that
     * have already started are not created.
     */
    async addSlots(principal: Principal, input: BulkSlotsInput): Promise<BulkSlotsResponse> {
      requireStaff(principal);
      const now = clock.now();
      if (input.date < todayInKolkata(now)) throw badInput('date must not be in the past');
      const times: string[] = [];
      for (let minute = minutesOfDay(input.start); minute <= minutesOfDay(input.end); minute += input.interval) {
        times.push(clockTimeOf(minute));
      }
      const future = times.filter((time) => kolkataInstant(input.date, time) > now);
      const created = await insertSlots(db, principal.restaurantId, {
        date: input.date,
        times: future,
        startsAt: future.map((time) => kolkataInstant(input.date, time).toISOString()),
        capacity: input.capacity,
      });
      if (created.length > 0) {
        // New capacity: waitlists and open dashboards hear of it.
        for (const slotId of created) events.publish('slot.freed', { slotId, restaurantId: principal.restaurantId });
      }
      return { created: created.length, skipped: future.length - created.length, past: times.length - future.length };
    },

    /** PATCH /api/admin/slots/{id}: available or full. Another restaurant's slot is not found. */
    async setSlotStatus(principal: Principal, slotId: string, status: StaffSlotStatus): Promise<AdminSlot> {
      requireStaff(principal);
      const updated = await updateSlotStatus(db, principal.restaurantId, slotId, status);
      if (!updated) throw notFound(SLOT_NOT_FOUND);
      if (status === 'available') events.publish('slot.freed', { slotId, restaurantId: principal.restaurantId });
      const now = clock.now();
      return toAdminSlot((await findSlotOfRestaurant(db, principal.restaurantId, slotId, now))!, now);
    },

    /** GET /api/admin/bookings: upcoming bookings (today onwards) and today's live counts. */
    async listBookings(principal: Principal): Promise<AdminBookingsResponse> {
      requireStaff(principal);
      const now = clock.now();
      const today = todayInKolkata(now);
      const [rows, counts] = await Promise.all([
        listBookingsFrom(db, principal.restaurantId, today, BOOKINGS_HORIZON_DAYS, now, BOOKINGS_LIMIT),
        countBookingsOfDate(db, principal.restaurantId, today, now),
      ]);
      const total = (statuses: readonly string[]) => statuses.reduce((sum, status) => sum + (counts.get(status) ?? 0), 0);
      return {
        bookings: rows.map((row) => toAdminBooking(row, now)),
        liveStatus: { pending: total(summaryBuckets.pending), confirmed: total(summaryBuckets.ongoing), completed: total(summaryBuckets.completed) },
        today,
      };
    },

    /** PATCH /api/admin/bookings/{id}: one staff move of the state machine (enforced by the reservations service). */
    async moveBooking(principal: Principal, id: string, to: ReservationStatus): Promise<AdminBooking> {
      requireStaff(principal);
      await reservations.moveReservationAsStaff(principal, id, to);
      const row = await findBookingOfRestaurant(db, principal.restaurantId, id);
      if (!row) throw notFound(BOOKING_NOT_FOUND);
      return toAdminBooking(row, clock.now());
    },

    /** Checked before an upload's body is read: only restaurant staff may send a file. */
    assertMayUpload(principal: Principal): void {
      requireStaff(principal);
    },

    /** POST /api/upload: a new hero photo for the staff's own restaurant, checked by its bytes. */
    async uploadHeroImage(principal: Principal, upload: { restaurantId?: string; bytes?: Uint8Array }): Promise<UploadResponse> {
      requireStaff(principal);
      if (upload.restaurantId && upload.restaurantId !== principal.restaurantId) {
        throw forbidden('You can change only your own restaurant');
      }
      if (!upload.bytes) throw badInput('image: choose an image file to upload');
      const stored = await storage.saveImage('hero', upload.bytes, HERO_IMAGE_MAX_BYTES);
      // A new address per photo, so no browser keeps showing the old one.
      const version = stored.key.slice('hero/'.length, 'hero/'.length + 8);
      const url = `${heroImagePath(principal.restaurantId)}?v=${version}`;
      await setHeroImage(db, principal.restaurantId, { key: stored.key, url, now: clock.now() });
      return { url, heroImageUrl: url };
    },

    /** The uploaded hero photo of a restaurant, if any (public: it is on the public page). */
    async readHeroImage(_principal: Principal, restaurantId: string): Promise<{ body: Buffer; contentType: string } | undefined> {
      const key = await findHeroImageKey(db, restaurantId);
      if (!key) return undefined;
      return storage.readImage(key);
    },

    /**
     * Live changes for the staff's own restaurant: bookings created or moved, slots freed.
     * Returns the function that stops listening.
     */
    subscribeToChanges(principal: Principal, listener: (event: PortalStreamEvent) => void): () => void {
      requireStaff(principal);
      const { restaurantId } = principal;
      const stopBookings = events.subscribe('reservation.changed', (change) => {
        if (change.restaurantId === restaurantId) listener({ type: 'booking', reservationId: change.reservationId, status: change.status });
      });
      const stopSlots = events.subscribe('slot.freed', (change) => {
        if (change.restaurantId === restaurantId) listener({ type: 'slots', date: null });
      });
      return () => {
        stopBookings();
        stopSlots();
      };
    },
  };
}

export type PortalService = ReturnType<typeof createPortalService>;
