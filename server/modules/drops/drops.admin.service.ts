import type { AdminDropDetail, AdminDropEntry, AdminDropSummary, CreateDropBody } from '#common/contract/drops.ts';
import { DROP_DAYS_MAX } from '#common/contract/drops.ts';
import { addDays, bookingCutoffInstant, daysBetween, formatDateShort, formatTime12h, kolkataInstant, todayInKolkata } from '#common/domain/time.ts';
import { iso } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, conflict, isUniqueViolation, notFound } from '#server/errors.ts';
import { requireStaff, type Principal, type StaffPrincipal } from '#server/modules/accounts/principal.ts';
import type { SlotsService } from '#server/modules/slots/slots.service.ts';
import { newSealedSeed, type DropOffers } from './drop-offers.ts';
import { drawCommitmentsOf, entryResultOf, formatInstant, toAdminDropSummary } from './drop-view.ts';
import { findDrop, insertDrop, listDrops, listDropSlots, listEntries, type DropRow } from './drops.repository.ts';
import { DROP_NOT_FOUND, DROPS_LIST_LIMIT } from './drops.service.ts';

/** Drops for the restaurant's staff (/api/admin/drops): their own drops, creating one, and its entries and seed. */
export function createDropsAdminService(deps: AppDeps, offers: DropOffers, slots: SlotsService) {
  const { db, clock, config, log } = deps;
  const cutoffMinutes = config.bookingCutoffMinutes;

  async function loadOwnDrop(principal: StaffPrincipal, id: string): Promise<DropRow> {
    const row = await findDrop(db, id);
    // Another restaurant's drop is not found, like every other portal resource.
    if (!row || row.restaurant_id !== principal.restaurantId) throw notFound(DROP_NOT_FOUND);
    return row;
  }

  const service = {
    /** GET /api/admin/drops: the staff's own restaurant's drops, newest release first. */
    async listOwnDrops(principal: Principal): Promise<AdminDropSummary[]> {
      requireStaff(principal);
      const now = clock.now();
      const rows = await listDrops(db, { since: new Date(0), restaurantId: principal.restaurantId, limit: DROPS_LIST_LIMIT });
      return rows.map((row) => toAdminDropSummary(row, now, cutoffMinutes));
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
      if (first < bookingCutoffInstant(releaseAt, cutoffMinutes)) {
        throw badInput(`releaseAt must be at least ${cutoffMinutes} minutes before the drop's first slot (${formatInstant(first)})`);
      }
      const id = await db
        .transaction(async (tx) => {
          const taken = input.takeExistingTimes ? [] : await slots.findTakenTimes(tx, principal.restaurantId, dates, times);
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
            // 0 and null both mean no deposit.
            depositPerCoverPaise: input.depositPerCoverPaise || null,
            ...newSealedSeed(),
          });
          const dropSlots = {
            dates: pairs.map((pair) => pair.date),
            times: pairs.map((pair) => pair.time),
            startsAt: pairs.map((pair) => pair.startsAt.toISOString()),
            capacity: input.capacity,
          };
          // Times the restaurant already offers go into the drop only when asked, and only unbooked (decision 226).
          if (input.takeExistingTimes) await slots.takeDropSlots(tx, principal.restaurantId, dropId, dropSlots, now);
          else await slots.addDropSlots(tx, principal.restaurantId, dropId, dropSlots);
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
      await offers.ensureDrawn(await loadOwnDrop(principal, id));
      const drop = await loadOwnDrop(principal, id);
      const now = clock.now();
      const [dropSlots, entries] = await Promise.all([listDropSlots(db, id, now), listEntries(db, id)]);
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
          result: entryResultOf(entry, drop, now, cutoffMinutes, () => place),
        };
      });
      return {
        ...toAdminDropSummary(drop, now, cutoffMinutes),
        ...drawCommitmentsOf(drop),
        slots: dropSlots.map((slot) => ({ id: slot.id, date: slot.date, time: slot.time, capacity: slot.capacity, coversBooked: slot.covers_taken })),
        seed: drop.seed,
        entries: adminEntries,
        serverTime: now.toISOString(),
      };
    },
  };
  return service;
}

export type DropsAdminService = ReturnType<typeof createDropsAdminService>;
