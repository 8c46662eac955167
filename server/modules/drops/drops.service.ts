import { randomBytes } from 'node:crypto';
import type {
  AdminDropDetail,
  AdminDropEntry,
  AdminDropSummary,
  CreateDropBody,
  DropDetail,
  DropDrawAudit,
  DropEntryResult,
  DropList,
  DropPhase,
  DropSummary,
  EnterDropBody,
  MyDropEntry,
} from '#common/contract/drops.ts';
import { DROP_DAYS_MAX } from '#common/contract/drops.ts';
import { bytesToHex, DRAW_ALGORITHM, DRAW_SEED_BYTES, drawOrder } from '#common/domain/draw.ts';
import { isLiveHold } from '#common/domain/reservation-status.ts';
import { addDays, bookingCutoffInstant, daysBetween, isPastBookingCutoff, formatDateShort, formatInstantKolkata, formatTime12h, kolkataInstant, todayInKolkata, toKolkata } from '#common/domain/time.ts';
import { asDate, type Db } from '#server/db/client.ts';
import { createCoalescingRunner } from '#server/coalescing-runner.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, conflict, forbidden, isUniqueViolation, notFound, sessionExpired } from '#server/errors.ts';
import { rejectInvalidCredential, requireDiner, requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import {
  countWaitingAhead,
  deleteEntry,
  findDrop,
  findDropIdOfSlot,
  findEntryOfUser,
  findNextInLine,
  findTakenSlotTimes,
  hasWaitingEntries,
  insertDrop,
  insertDropSlots,
  insertEntry,
  listDrops,
  listDropSlots,
  listDropsWithWorkDue,
  listEntries,
  listEntryIdsForDraw,
  listUndrawnReleasedDrops,
  lockDrop,
  lockUserVerifiedPhone,
  findUserVerifiedPhone,
  markEntryOffered,
  markOpenedToAll,
  recordDraw,
  withdrawEntry,
  type DropRow,
  type EntryRow,
} from './drops.repository.ts';

export const DROP_NOT_FOUND = 'Drop not found';
export const VERIFY_PHONE_FIRST = 'Verify your phone number before entering a drop. It keeps drops fair: one entry per person.';
export const ALREADY_ENTERED = 'You have already entered this drop';
export const PHONE_ALREADY_ENTERED = 'This phone number has already entered this drop';
/** Past drops are listed for this long after their last slot. */
const PAST_DAYS = 30;
const LIST_LIMIT = 200;
/** A guard against a runaway offer loop: far more than any drop has tables. */
const MAX_OFFERS_PER_RUN = 5_000;

const iso = (value: Date | string) => asDate(value).toISOString();

/** "Mon, 30 Nov at 6:00 PM" in Kolkata. */
const formatInstant = (instant: Date | string) => formatInstantKolkata(instant, ' at ');


/**
 * Drops (decisions 080-083): staff create hidden slots with an entry window and a release
 * instant; verified diners enter once; at release a seeded draw orders the entries and the
 * tables go down that line as HELD reservations, each freed table to the next in line.
 */
export function createDropsService(deps: AppDeps, reservations: ReservationsService, notifications: NotificationsService) {
  const { db, clock, config, events, log } = deps;

  function phaseOf(drop: Pick<DropRow, 'entry_opens_at' | 'entry_closes_at' | 'release_at' | 'last_slot_at'>, now: Date): DropPhase {
    if (now < asDate(drop.entry_opens_at)) return 'upcoming';
    if (now < asDate(drop.entry_closes_at)) return 'open';
    if (now < asDate(drop.release_at)) return 'closed';
    return isOver(drop, now) ? 'ended' : 'released';
  }

  /** Every slot of the drop is past its booking cut-off: no table can be offered any more. */
  function isOver(drop: Pick<DropRow, 'last_slot_at'>, now: Date): boolean {
    return isPastBookingCutoff(drop.last_slot_at, now, config.bookingCutoffMinutes);
  }

  function toSummary(row: DropRow, now: Date): DropSummary {
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      restaurant: { id: row.restaurant_id, slug: row.restaurant_slug, name: row.restaurant_name, emoji: row.restaurant_emoji, neighborhood: row.restaurant_neighborhood },
      phase: phaseOf(row, now),
      entryOpensAt: iso(row.entry_opens_at),
      entryClosesAt: iso(row.entry_closes_at),
      releaseAt: iso(row.release_at),
      dateFrom: row.date_from,
      dateTo: row.date_to,
      times: row.times,
      capacity: row.capacity,
      slotCount: row.slot_count,
      entryCount: row.entry_count,
      drawnAt: row.drawn_at ? iso(row.drawn_at) : null,
    };
  }

  function resultOf(entry: EntryRow, drop: Pick<DropRow, 'drawn_at' | 'last_slot_at'>, now: Date, placeInLine: () => number): DropEntryResult {
    if (entry.status === 'withdrawn') return { state: 'withdrawn' };
    if (!drop.drawn_at || entry.position === null) return { state: 'entered' };
    if (entry.status === 'offered') {
      if (!entry.reservation_id || !entry.reservation_status) return { state: 'not_this_time' };
      const slot = { date: entry.slot_date ?? '', time: entry.slot_time ?? '' };
      if (isLiveHold(entry.reservation_status, entry.hold_expires_at, now)) return { state: 'won', reservationId: entry.reservation_id, holdExpiresAt: iso(entry.hold_expires_at!), slot };
      if (entry.reservation_status === 'HELD' || entry.reservation_status === 'CANCELLED') return { state: 'lapsed', reservationId: entry.reservation_id };
      return { state: 'booked', reservationId: entry.reservation_id, status: entry.reservation_status, slot };
    }
    if (isOver(drop, now)) return { state: 'not_this_time' };
    return { state: 'waiting', placeInLine: placeInLine() };
  }

  async function loadDrop(id: string): Promise<DropRow> {
    const row = await findDrop(db, id);
    if (!row) throw notFound(DROP_NOT_FOUND);
    return row;
  }

  async function myEntryOf(drop: DropRow, userId: string, now: Date): Promise<MyDropEntry | null> {
    const entry = await findEntryOfUser(db, drop.id, userId);
    if (!entry) return null;
    let ahead = 0;
    if (entry.status === 'waiting' && entry.position !== null) ahead = await countWaitingAhead(db, drop.id, entry.position);
    return {
      id: entry.id,
      partySize: entry.party_size,
      enteredAt: iso(entry.created_at),
      position: drop.drawn_at ? entry.position : null,
      result: resultOf(entry, drop, now, () => ahead + 1),
    };
  }

  async function detailFor(principal: Principal, id: string): Promise<DropDetail> {
    const drop = await loadDrop(id);
    const now = clock.now();
    const slots = await listDropSlots(db, id, now);
    let myEntry: MyDropEntry | null = null;
    let phoneVerified: boolean | null = null;
    if (principal.kind === 'diner') {
      myEntry = await myEntryOf(drop, principal.userId, now);
      phoneVerified = Boolean(await findUserVerifiedPhone(db, principal.userId));
    }
    return {
      ...toSummary(drop, now),
      slots: slots.map((slot) => ({ date: slot.date, time: slot.time })),
      myEntry,
      phoneVerified,
      serverTime: now.toISOString(),
    };
  }

  /** The draw, exactly once: under the drop's row lock, only if released and not yet drawn. */
  async function drawIfDue(dropId: string): Promise<boolean> {
    const drawn = await db.transaction(async (tx) => {
      const drop = await lockDrop(tx, dropId);
      const now = clock.now();
      if (!drop || drop.drawn_at || asDate(drop.release_at) > now) return undefined;
      const entries = await listEntryIdsForDraw(tx, dropId);
      const seed = randomBytes(DRAW_SEED_BYTES);
      const order = drawOrder(seed, entries.map((entry) => entry.id));
      await recordDraw(tx, dropId, { seed: bytesToHex(seed), order, now });
      return { userIds: entries.map((entry) => entry.user_id), count: order.length };
    });
    if (!drawn) return false;
    log.info({ dropId, entries: drawn.count }, 'drop drawn');
    for (const userId of drawn.userIds) notifications.publishToUser(userId, { type: 'drop', dropId });
    return true;
  }

  type HeldRow = Extract<Awaited<ReturnType<ReservationsService['createHoldForOffer']>>, { held: unknown }>['held'];
  type OfferStep =
    | { kind: 'offered'; held: HeldRow; entryId: string; userId: string; messageId: string | null }
    | { kind: 'skipped'; entryId: string }
    | { kind: 'opened'; slotIds: string[]; restaurantId: string }
    | { kind: 'done' };

  /** One offer, in its own transaction: the next in line whose party fits a free table gets a hold on it. */
  async function offerNext(dropId: string, skip: string[]): Promise<OfferStep> {
    return db.transaction(async (tx): Promise<OfferStep> => {
      const drop = await lockDrop(tx, dropId);
      const now = clock.now();
      if (!drop || !drop.drawn_at || drop.opened_to_all_at || isOver(drop, now)) return { kind: 'done' };
      const open = (await listDropSlots(tx, dropId, now))
        .filter((slot) => slot.status === 'available' && !isPastBookingCutoff(slot.starts_at, now, config.bookingCutoffMinutes))
        .map((slot) => ({ ...slot, free: slot.capacity - slot.covers_taken }))
        .filter((slot) => slot.free > 0);
      if (!(await hasWaitingEntries(tx, dropId))) {
        // Everyone in line has had a turn: leftover and later-freed tables join normal availability.
        await markOpenedToAll(tx, dropId, now);
        return { kind: 'opened', slotIds: open.map((slot) => slot.id), restaurantId: drop.restaurant_id };
      }
      if (open.length === 0) return { kind: 'done' };
      const candidate = await findNextInLine(tx, dropId, Math.max(...open.map((slot) => slot.free)), skip);
      if (!candidate) return { kind: 'done' };
      for (const slot of open.filter((s) => s.free >= candidate.party_size)) {
        const outcome = await reservations.createHoldForOffer(tx, {
          userId: candidate.user_id,
          slotId: slot.id,
          partySize: candidate.party_size,
          holdMinutes: config.holdMinutes,
          reason: 'DROP_OFFER',
          gate: 'drop',
        });
        if ('held' in outcome) {
          const held = outcome.held;
          await markEntryOffered(tx, candidate.id, held.id, now);
          const until = toKolkata(asDate(held.hold_expires_at!));
          const messageId = await notifications.queueEmailToUser(tx, candidate.user_id, {
            subject: `You got a table at ${held.restaurant_name}`,
            body:
              `Your entry in the drop "${drop.title}" came up: a table for ${held.party_size} at ${held.restaurant_name} on ` +
              `${formatDateShort(held.slot_date)} at ${formatTime12h(held.slot_time)} is held in your name until ${formatTime12h(until.time)}.\n\n` +
              `Complete your booking on Tablefair before then (Drops → ${drop.title}, or /hold/${held.id}); otherwise the table goes to the next person in line.`,
          });
          return { kind: 'offered', held, entryId: candidate.id, userId: candidate.user_id, messageId };
        }
        // The diner's own limits: no table of this drop can go to them right now.
        if (outcome.refused === 'hold_limit' || outcome.refused === 'upcoming_limit' || outcome.refused === 'no_account') break;
      }
      return { kind: 'skipped', entryId: candidate.id };
    });
  }

  /**
   * Draws the drop if due, then offers every free table down the line (each offer its own
   * transaction under the drop's row lock). Idempotent: run it as often as you like.
   */
  async function advanceDrop(dropId: string): Promise<{ drew: boolean; offers: number }> {
    const drew = await drawIfDue(dropId);
    const skip: string[] = [];
    let offers = 0;
    for (let step = 0; step < MAX_OFFERS_PER_RUN; step++) {
      const result = await offerNext(dropId, skip);
      if (result.kind === 'done') break;
      if (result.kind === 'skipped') {
        // Passed over for now (their own limits), keeping their place for the next freed table.
        skip.push(result.entryId);
        continue;
      }
      if (result.kind === 'opened') {
        for (const slotId of result.slotIds) events.publish('slot.freed', { slotId, restaurantId: result.restaurantId });
        break;
      }
      offers++;
      const { held } = result;
      reservations.announceOfferedHold(held);
      notifications.publishOffer(result.userId, held, { dropId });
      notifications.deliverSoon([result.messageId]);
    }
    return { drew, offers };
  }

  /** One advance per drop at a time in this process; a request arriving meanwhile runs once more after it. */
  const scheduleAdvance = createCoalescingRunner(advanceDrop, (error, dropId) => log.warn({ err: error, dropId }, 'drop advance failed; the sweep retries'));

  // A drop's freed table (a winner cancelled, or let the hold lapse) goes to the next in line.
  const stopListening = events.subscribe('slot.freed', ({ slotId }) => {
    findDropIdOfSlot(db, slotId)
      .then((dropId) => (dropId ? scheduleAdvance(dropId) : undefined))
      .catch((error) => log.warn({ err: error, slotId }, 'drop offer after a freed slot failed; the sweep retries'));
  });

  async function loadOwnDrop(principal: Extract<Principal, { kind: 'staff' }>, id: string): Promise<DropRow> {
    const row = await findDrop(db, id);
    // Another restaurant's drop is not found, like every other portal resource.
    if (!row || row.restaurant_id !== principal.restaurantId) throw notFound(DROP_NOT_FOUND);
    return row;
  }

  function toAdminSummary(row: DropRow, now: Date): AdminDropSummary {
    return { ...toSummary(row, now), offeredCount: row.offered_count, bookedCount: row.booked_count };
  }

  const service = {
    advanceDrop,

    /** For the timer (and after a restart): every drop with a draw or an offer due. */
    async runDueWork(): Promise<number> {
      const ids = await listDropsWithWorkDue(db, clock.now());
      for (const id of ids) await scheduleAdvance(id);
      return ids.length;
    },

    /** Stops reacting to events (the app is closing). */
    stop(): void {
      stopListening();
    },

    /** GET /api/drops: every drop citywide, grouped open / upcoming / past. */
    async listDrops(principal: Principal): Promise<DropList> {
      rejectInvalidCredential(principal);
      // The first read after a release draws it, even before the timer does.
      for (const id of await listUndrawnReleasedDrops(db, clock.now())) await scheduleAdvance(id);
      const now = clock.now();
      const rows = await listDrops(db, { since: new Date(now.getTime() - PAST_DAYS * 86_400_000), limit: LIST_LIMIT });
      const summaries = rows.map((row) => toSummary(row, now));
      const byInstant = (key: 'entryClosesAt' | 'entryOpensAt') => (a: DropSummary, b: DropSummary) => a[key].localeCompare(b[key]);
      return {
        open: summaries.filter((d) => d.phase === 'open').sort(byInstant('entryClosesAt')),
        upcoming: summaries.filter((d) => d.phase === 'upcoming').sort(byInstant('entryOpensAt')),
        past: summaries.filter((d) => d.phase !== 'open' && d.phase !== 'upcoming'),
        serverTime: now.toISOString(),
      };
    },

    /** GET /api/drops/{id}: the drop, and for a signed-in diner their entry and result. */
    async getDrop(principal: Principal, id: string): Promise<DropDetail> {
      rejectInvalidCredential(principal);
      const drop = await loadDrop(id);
      if (!drop.drawn_at && asDate(drop.release_at) <= clock.now()) await scheduleAdvance(id);
      return detailFor(principal, id);
    },

    /** POST /api/drops/{id}/entries: one entry per account and per verified phone, inside the window. */
    async enterDrop(principal: Principal, id: string, input: EnterDropBody): Promise<DropDetail> {
      requireDiner(principal);
      const { userId } = principal;
      const drop = await loadDrop(id);
      const now = clock.now();
      if (now < asDate(drop.entry_opens_at)) throw conflict(`Entries for this drop open on ${formatInstant(drop.entry_opens_at)}`);
      if (now >= asDate(drop.entry_closes_at)) throw conflict('Entries for this drop have closed');
      if (input.partySize > drop.capacity) throw badInput(`partySize: This drop's tables seat at most ${drop.capacity}`);
      await db
        .transaction(async (tx) => {
          // Lock order: drop (shared, so the draw waits for entries in flight), then the diner.
          const locked = await lockDrop(tx, id, 'share');
          const at = clock.now();
          if (!locked || at >= asDate(locked.entry_closes_at) || locked.drawn_at) throw conflict('Entries for this drop have closed');
          const user = await lockUserVerifiedPhone(tx, userId);
          if (!user) throw sessionExpired();
          if (!user.verified_phone) throw forbidden(VERIFY_PHONE_FIRST);
          await insertEntry(tx, { dropId: id, userId, phone: user.verified_phone, partySize: input.partySize, now: at });
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error, 'drop_entries_one_per_account')) throw conflict(ALREADY_ENTERED);
          if (isUniqueViolation(error, 'drop_entries_one_per_phone')) throw conflict(PHONE_ALREADY_ENTERED);
          throw error;
        });
      return detailFor(principal, id);
    },

    /** DELETE /api/drops/{id}/entries: leave the draw before it runs, or the line after it (not once offered a table). */
    async leaveDrop(principal: Principal, id: string): Promise<DropDetail> {
      requireDiner(principal);
      const { userId } = principal;
      await loadDrop(id);
      const afterDraw = await db.transaction(async (tx) => {
        const drop = await lockDrop(tx, id, 'share');
        const entry = await findEntryOfUser(tx, id, userId);
        if (!drop || !entry || entry.status === 'withdrawn') throw notFound('You have not entered this drop');
        if (entry.status === 'offered') throw conflict('A table from this drop is already yours: cancel the reservation instead');
        if (drop.drawn_at) await withdrawEntry(tx, entry.id);
        else await deleteEntry(tx, entry.id);
        return Boolean(drop.drawn_at);
      });
      // The line moved up (or emptied, opening the leftover tables to everyone).
      if (afterDraw) await scheduleAdvance(id);
      return detailFor(principal, id);
    },

    /** GET /api/drops/{id}/draw: the seed and the drawn order, so anyone can recompute it with drawOrder. */
    async getDrawAudit(principal: Principal, id: string): Promise<DropDrawAudit> {
      rejectInvalidCredential(principal);
      const drop = await loadDrop(id);
      if (!drop.drawn_at && asDate(drop.release_at) <= clock.now()) await scheduleAdvance(id);
      const current = await loadDrop(id);
      if (!current.drawn_at || !current.seed) throw conflict(`The draw runs at the release, ${formatInstant(current.release_at)}`);
      const entries = (await listEntries(db, id)).filter((entry) => entry.position !== null);
      return { dropId: id, seed: current.seed, drawnAt: iso(current.drawn_at), algorithm: DRAW_ALGORITHM, order: entries.map((entry) => entry.id) };
    },

    // ---- The portal ----

    /** GET /api/admin/drops: the staff's own restaurant's drops, newest release first. */
    async listOwnDrops(principal: Principal): Promise<AdminDropSummary[]> {
      requireStaff(principal);
      const now = clock.now();
      const rows = await listDrops(db, { since: new Date(0), restaurantId: principal.restaurantId, limit: LIST_LIMIT });
      return rows.map((row) => toAdminSummary(row, now));
    },

    /** POST /api/admin/drops: the drop's slots (every date × time, hidden until release) and its window. */
    async createDrop(principal: Principal, input: CreateDropBody): Promise<AdminDropDetail> {
      requireStaff(principal);
      const now = clock.now();
      const today = todayInKolkata(now);
      if (input.dateFrom < today) throw badInput('dateFrom must not be in the past');
      if (input.dateTo < input.dateFrom) throw badInput('dateTo must be on or after dateFrom');
      if (daysBetween(input.dateFrom, input.dateTo) + 1 > DROP_DAYS_MAX) throw badInput(`dateTo: a drop spans at most ${DROP_DAYS_MAX} days`);
      const times = [...input.times].sort();
      if (new Set(times).size !== times.length) throw badInput('times: list each time only once');
      const opensAt = new Date(input.entryOpensAt);
      const closesAt = new Date(input.entryClosesAt);
      const releaseAt = new Date(input.releaseAt);
      if (closesAt <= opensAt) throw badInput('entryClosesAt must be after entryOpensAt');
      if (releaseAt < closesAt) throw badInput('releaseAt must be at or after entryClosesAt');
      if (closesAt <= now) throw badInput('entryClosesAt must be in the future');
      const dates = Array.from({ length: daysBetween(input.dateFrom, input.dateTo) + 1 }, (_, i) => addDays(input.dateFrom, i));
      const pairs = dates.flatMap((date) => times.map((time) => ({ date, time, startsAt: kolkataInstant(date, time) })));
      const first = pairs[0].startsAt;
      const last = pairs[pairs.length - 1].startsAt;
      if (first < bookingCutoffInstant(releaseAt, config.bookingCutoffMinutes)) {
        throw badInput(`releaseAt must be at least ${config.bookingCutoffMinutes} minutes before the drop's first slot (${formatInstant(first)})`);
      }
      const id = await db
        .transaction(async (tx) => {
          const taken = await findTakenSlotTimes(tx, principal.restaurantId, dates, times);
          if (taken.length > 0) {
            throw conflict(`There is already a slot on ${formatDateShort(taken[0].date)} at ${formatTime12h(taken[0].time)}: choose other dates or times`);
          }
          const dropId = await insertDrop(tx, {
            restaurantId: principal.restaurantId,
            title: input.title,
            description: input.description,
            entryOpensAt: opensAt,
            entryClosesAt: closesAt,
            releaseAt,
            capacity: input.capacity,
            lastSlotAt: last,
            now,
          });
          await insertDropSlots(tx, principal.restaurantId, dropId, {
            dates: pairs.map((pair) => pair.date),
            times: pairs.map((pair) => pair.time),
            startsAt: pairs.map((pair) => pair.startsAt.toISOString()),
            capacity: input.capacity,
          });
          return dropId;
        })
        .catch((error: unknown) => {
          // A slot added at the same moment by another call: the unique index decides.
          if (isUniqueViolation(error)) {
            throw conflict('A slot at one of those dates and times was added meanwhile: choose other dates or times');
          }
          throw error;
        });
      log.info({ dropId: id, restaurantId: principal.restaurantId, slots: pairs.length }, 'drop created');
      return service.getOwnDrop(principal, id);
    },

    /** GET /api/admin/drops/{id}: slots, every entry in the diner's name with position and result, and the seed. */
    async getOwnDrop(principal: Principal, id: string): Promise<AdminDropDetail> {
      requireStaff(principal);
      const before = await loadOwnDrop(principal, id);
      if (!before.drawn_at && asDate(before.release_at) <= clock.now()) await scheduleAdvance(id);
      const drop = await loadOwnDrop(principal, id);
      const now = clock.now();
      const [slots, entries] = await Promise.all([listDropSlots(db, id, now), listEntries(db, id)]);
      let waitingAhead = 0;
      const adminEntries: AdminDropEntry[] = entries.map((entry) => {
        const place = waitingAhead + 1;
        if (entry.status === 'waiting' && entry.position !== null) waitingAhead++;
        return {
          id: entry.id,
          diner: { name: entry.diner_name || entry.diner_username, username: entry.diner_username, phone: entry.diner_phone },
          partySize: entry.party_size,
          enteredAt: iso(entry.created_at),
          position: drop.drawn_at ? entry.position : null,
          result: resultOf(entry, drop, now, () => place),
        };
      });
      return {
        ...toAdminSummary(drop, now),
        slots: slots.map((slot) => ({ id: slot.id, date: slot.date, time: slot.time, capacity: slot.capacity, coversBooked: slot.covers_taken })),
        seed: drop.seed,
        entries: adminEntries,
        serverTime: now.toISOString(),
      };
    },
  };
  return service;
}

export type DropsService = ReturnType<typeof createDropsService>;
