import {
  GUEST_LIST_LIMIT,
  type GuestCard,
  type GuestList,
  type GuestListQuery,
  type GuestNotesBody,
  type GuestSummary,
  type TonightsBrief,
} from '#common/contract/guests.ts';
import { isEmptyRequest, mentionsAllergy } from '#common/domain/guests.ts';
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { isoOrNull, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { notFound } from '#server/errors.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import { guestListCsv } from './guest-csv.ts';
import {
  deleteNotesAbout,
  findGuestOfBooking,
  listArrivals,
  listGuestRequests,
  listGuests,
  upsertGuestNotes,
  type GuestFilter,
  type GuestRow,
} from './guests.repository.ts';

/** Every guest route's refusal for a guest or booking of another restaurant, or none at all (decision 265). */
export const GUEST_NOT_FOUND = 'Guest not found';
const GUEST_CARD_REQUESTS = 10;
/** The CSV's ceiling: a restaurant's whole guest book. */
const GUEST_EXPORT_LIMIT = 50_000;

function toSummary(row: GuestRow): GuestSummary {
  return {
    guestId: row.guest_id,
    name: row.name || row.username,
    email: row.email,
    phone: row.phone,
    visits: row.visits,
    lastVisit: row.last_visit,
    noShows: row.no_shows,
    lateCancels: row.late_cancels,
    tags: row.tags,
    note: row.note,
    allergy: row.requested_allergy || mentionsAllergy(null, row.tags, row.note),
  };
}

/**
 * Knowing your guests, the staff's side (decisions 261–265): a guest card on every booking, the
 * restaurant's own tags and note, the guest list with its CSV, and tonight's brief. Every function
 * checks for staff first and reads its own restaurant only: another restaurant's guest or booking
 * is not found (404), never forbidden, so staff learn nothing of who dines elsewhere.
 */
export function createGuestsService({ db, clock }: AppDeps, restaurants: RestaurantsService) {
  async function summaryOf(restaurantId: string, userId: string): Promise<GuestRow | undefined> {
    const [row] = await listGuests(db, restaurantId, { userId }, clock.now(), 1);
    return row;
  }

  async function cardOf(restaurantId: string, userId: string): Promise<GuestCard> {
    const row = await summaryOf(restaurantId, userId);
    if (!row) throw notFound(GUEST_NOT_FOUND);
    const requests = await listGuestRequests(db, restaurantId, userId, clock.now(), GUEST_CARD_REQUESTS);
    return {
      ...toSummary(row),
      notesUpdatedAt: isoOrNull(row.notes_updated_at),
      requests: requests.map((request) => ({
        reservationId: request.id,
        slot: { date: request.slot_date, time: request.slot_time },
        status: request.status,
        request: { occasion: request.occasion, picks: request.request_picks, note: request.special_request ?? '' },
      })),
    };
  }

  function filterOf(query: GuestListQuery, now: Date): GuestFilter {
    const text = query.q?.trim() || undefined;
    const digits = text?.replace(/\D/g, '') ?? '';
    return {
      text,
      digits: digits.length >= 4 ? digits : null,
      tag: query.tag,
      lastVisitSince: query.lastVisitWithin ? addDays(todayInKolkata(now), -Number(query.lastVisitWithin)) : undefined,
      minVisits: query.minVisits,
    };
  }

  return {
    /** GET /api/admin/guest-cards/{reservationId}: the guest card of one of this restaurant's bookings. */
    async getGuestCard(principal: Principal, reservationId: string): Promise<GuestCard> {
      requireStaff(principal);
      const userId = await findGuestOfBooking(db, principal.restaurantId, reservationId, clock.now());
      if (!userId) throw notFound(GUEST_NOT_FOUND);
      return cardOf(principal.restaurantId, userId);
    },

    /** GET /api/admin/guests/{guestId}: a guest of this restaurant, found in the list. */
    async getGuest(principal: Principal, guestId: string): Promise<GuestCard> {
      requireStaff(principal);
      return cardOf(principal.restaurantId, guestId);
    },

    /** PUT /api/admin/guests/{guestId}/notes: the restaurant's tags and note about one of its guests. */
    async saveGuestNotes(principal: Principal, guestId: string, body: GuestNotesBody): Promise<GuestCard> {
      requireStaff(principal);
      if (!(await summaryOf(principal.restaurantId, guestId))) throw notFound(GUEST_NOT_FOUND);
      await upsertGuestNotes(db, {
        restaurantId: principal.restaurantId,
        userId: guestId,
        tags: body.tags,
        note: body.note,
        staffId: principal.staffId,
        now: clock.now(),
      });
      return cardOf(principal.restaurantId, guestId);
    },

    /** GET /api/admin/guests: search and filters, most recent visit first, at most GUEST_LIST_LIMIT. */
    async listGuests(principal: Principal, query: GuestListQuery): Promise<GuestList> {
      requireStaff(principal);
      const now = clock.now();
      const rows = await listGuests(db, principal.restaurantId, filterOf(query, now), now, GUEST_LIST_LIMIT + 1);
      return { guests: rows.slice(0, GUEST_LIST_LIMIT).map(toSummary), truncated: rows.length > GUEST_LIST_LIMIT };
    },

    /** GET /api/admin/guests.csv: the same search and filters, every guest, as a spreadsheet-safe CSV. */
    async exportGuestsCsv(principal: Principal, query: GuestListQuery): Promise<string> {
      requireStaff(principal);
      const now = clock.now();
      return guestListCsv((await listGuests(db, principal.restaurantId, filterOf(query, now), now, GUEST_EXPORT_LIMIT)).map(toSummary));
    },

    /** GET /api/admin/guests/brief?date=: a date's arrivals (today in Kolkata by default) for the shift. */
    async getTonightsBrief(principal: Principal, date?: string): Promise<TonightsBrief> {
      requireStaff(principal);
      const day = date ?? todayInKolkata(clock.now());
      const [restaurant, rows] = await Promise.all([restaurants.getOwnRestaurant(principal), listArrivals(db, principal.restaurantId, day)]);
      return {
        date: day,
        restaurantName: restaurant.name,
        arrivals: rows.map((row) => {
          const request = { occasion: row.occasion, picks: row.request_picks, note: row.special_request ?? '' };
          const told = isEmptyRequest(request) ? null : request;
          return {
            reservationId: row.id,
            time: row.slot_time,
            partySize: row.party_size,
            status: row.status,
            guestId: row.user_id,
            name: row.name || row.username,
            table: row.table_name,
            tags: row.tags,
            note: row.note,
            request: told,
            allergy: mentionsAllergy(told, row.tags, row.note),
            visits: row.visits,
          };
        }),
      };
    },

    /** Removes every restaurant's notes about a diner, in the account deletion's transaction (decision 266). */
    async eraseNotesAbout(tx: Db, userId: string): Promise<void> {
      await deleteNotesAbout(tx, userId);
    },
  };
}

export type GuestsService = ReturnType<typeof createGuestsService>;
