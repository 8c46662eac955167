import type { AdminBooking } from '#common/contract/portal.ts';
import type { FloorLive, FloorParty, MoveFloorPartyBody, SeatBookingBody, SeatWalkInBody } from '#common/contract/floor-live.ts';
import { turnMinutes, type Floor } from '#common/domain/floor.ts';
import { toKolkata, todayInKolkata, MINUTE_MS } from '#common/domain/time.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { ReservationsAdminService } from '#server/modules/reservations/reservations.admin.service.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import { BOOKING_NOT_FOUND } from '#server/modules/reservations/reservation-view.ts';
import { findReservationOfRestaurant, lockFloor, releaseAssignment } from './floor.repository.ts';
import type { FloorService } from './floor.service.ts';
import { readFloorLive, toFloorParty } from './floor-live-reads.ts';
import {
  findParty,
  finishParty,
  insertSeatedParty,
  listSeatedOn,
  listSlotIdsBetween,
  listTakenTables,
  moveParty,
  type PartyRow,
} from './floor-live.repository.ts';

export const PARTY_NOT_FOUND = 'That party is not on the floor';
export const NO_FLOOR = 'Add your tables on the Floor tab first';

/**
 * The floor, live (decision 245): the host's view of every table now and the day's parties, and
 * the host's actions. Bookings move only through the reservation state machine (Seat, Complete,
 * No-show as staff, with the no-show's strike and deposit rules of the bookings list); every seat
 * and move takes tables inside the floor's lock, free for the party's turn and with nobody seated
 * there, so no table is ever seated twice.
 */
export function createFloorLive(deps: AppDeps, floor: FloorService, reservations: ReservationsService, reservationsAdmin: ReservationsAdminService) {
  const { db, clock, events } = deps;

  async function requireFloor(database: Db, restaurantId: string): Promise<Floor> {
    const found = await floor.loadFloor(database, restaurantId);
    if (!found) throw conflict(NO_FLOOR);
    return found;
  }

  function assertTablesOf(found: Floor, tableIds: readonly string[]): void {
    if (!tableIds.every((id) => found.tables.some((table) => table.id === id))) throw notFound('Table not found');
  }

  const namesOf = (found: Floor) => new Map(found.tables.map((table) => [table.id, table.name]));
  const combinationOf = (found: Floor, tableIds: readonly string[]) =>
    found.combinations.find((entry) => entry.tableIds.length === tableIds.length && entry.tableIds.every((id) => tableIds.includes(id)))?.id ?? null;

  /**
   * Refuses (409) tables someone sits at now (when `checkSeated`), or that another party takes for
   * part of [fromMs, toMs): a booking's table within its turn, a walk-in's. Under the floor's lock.
   */
  async function assertTablesFree(
    tx: Db,
    found: Floor,
    restaurantId: string,
    tableIds: string[],
    window: { fromMs: number; toMs: number; checkSeated: boolean },
    exceptId: string | null,
    now: Date,
  ): Promise<void> {
    const names = namesOf(found);
    if (window.checkSeated) {
      const seated = await listSeatedOn(tx, restaurantId, tableIds, exceptId);
      const sittingAt = seated.flatMap((row) => row.table_ids).find((id) => tableIds.includes(id));
      if (sittingAt) throw conflict(`A party is seated at ${names.get(sittingAt)}. Finish or move it first.`);
    }
    const taken = (await listTakenTables(tx, restaurantId, new Date(window.fromMs), new Date(window.toMs), now, exceptId)).find((id) => tableIds.includes(id));
    if (taken) throw conflict(`${names.get(taken)} is taken within this party’s turn. Choose another table.`);
  }

  /** A party that has left, or a booking settled, is no longer moved or seated. */
  function assertStillOnTheFloor(party: PartyRow): void {
    if (party.finished_at || party.status === 'COMPLETED' || party.status === 'NO_SHOW') throw conflict('This party has left the floor');
  }

  async function partyView(restaurantId: string, by: { assignmentId: string } | { reservationId: string }): Promise<FloorParty> {
    const found = await requireFloor(db, restaurantId);
    const row = await findParty(db, restaurantId, by, clock.now());
    if (!row) throw notFound(PARTY_NOT_FOUND);
    return toFloorParty(row, namesOf(found));
  }

  /** Tells every staff screen of the restaurant (decision 245), and after a finish offers the rest of the turn to the waitlist first. */
  async function announce(restaurantId: string, startsAt: Date, freed?: { from: Date; to: Date }): Promise<void> {
    events.publish('floor.changed', { restaurantId, date: toKolkata(startsAt).date });
    if (!freed || freed.to <= freed.from) return;
    for (const slotId of await listSlotIdsBetween(db, restaurantId, freed.from, freed.to)) events.publish('slot.freed', { slotId, restaurantId });
  }

  return {
    /** GET /api/admin/floor/live?date: every table's state now and the day's parties (today by default). */
    async getFloorLive(principal: Principal, date?: string): Promise<FloorLive> {
      requireStaff(principal);
      const now = clock.now();
      return readFloorLive(db, principal.restaurantId, await floor.loadFloor(db, principal.restaurantId), date ?? todayInKolkata(now), now);
    },

    /**
     * POST /api/admin/floor/live/bookings/{reservationId}/seat: an accepted booking arrives and sits
     * at its own table or at others free for its turn from now (CONFIRMED → SEATED by staff).
     */
    async seatBooking(principal: Principal, reservationId: string, input: SeatBookingBody): Promise<FloorParty> {
      requireStaff(principal);
      const { restaurantId } = principal;
      if (!(await findReservationOfRestaurant(db, restaurantId, reservationId))) throw notFound(BOOKING_NOT_FOUND);
      const found = await requireFloor(db, restaurantId);
      if (input.tableIds) assertTablesOf(found, input.tableIds);
      await reservations.moveReservationAsStaff(principal, reservationId, 'SEATED', async (tx, moved) => {
        await lockFloor(tx, restaurantId);
        const now = clock.now();
        const current = await findParty(tx, restaurantId, { reservationId: moved.id }, now);
        const tableIds = input.tableIds ?? current?.table_ids;
        if (!tableIds) throw conflict('This booking has no table yet. Choose one.');
        if (current) await releaseAssignment(tx, restaurantId, moved.id, now);
        const partySize = current?.party_size ?? (await findReservationOfRestaurant(tx, restaurantId, moved.id))!.party_size;
        const endsAt = new Date(now.getTime() + turnMinutes(partySize, found.settings.turns) * MINUTE_MS);
        await assertTablesFree(tx, found, restaurantId, tableIds, { fromMs: now.getTime(), toMs: endsAt.getTime(), checkSeated: true }, null, now);
        await insertSeatedParty(tx, {
          restaurantId,
          reservationId: moved.id,
          tableIds,
          combinationId: combinationOf(found, tableIds),
          partySize,
          startsAt: now,
          endsAt,
          seatedAt: now,
          walkIn: null,
        });
      });
      const party = await partyView(restaurantId, { reservationId });
      await announce(restaurantId, new Date(party.startsAt));
      return party;
    },

    /** POST /api/admin/floor/live/walk-ins: a party without a booking sits now, at tables free for its whole turn. */
    async seatWalkIn(principal: Principal, input: SeatWalkInBody): Promise<FloorParty> {
      requireStaff(principal);
      const { restaurantId } = principal;
      const found = await requireFloor(db, restaurantId);
      assertTablesOf(found, input.tableIds);
      const assignmentId = await db.transaction(async (tx) => {
        await lockFloor(tx, restaurantId);
        const now = clock.now();
        const endsAt = new Date(now.getTime() + turnMinutes(input.partySize, found.settings.turns) * MINUTE_MS);
        await assertTablesFree(tx, found, restaurantId, input.tableIds, { fromMs: now.getTime(), toMs: endsAt.getTime(), checkSeated: true }, null, now);
        return insertSeatedParty(tx, {
          restaurantId,
          reservationId: null,
          tableIds: input.tableIds,
          combinationId: combinationOf(found, input.tableIds),
          partySize: input.partySize,
          startsAt: now,
          endsAt,
          seatedAt: now,
          walkIn: { name: input.name || null, phone: input.phone || null },
        });
      });
      const party = await partyView(restaurantId, { assignmentId });
      await announce(restaurantId, new Date(party.startsAt));
      return party;
    },

    /** POST /api/admin/floor/live/parties/{assignmentId}/move: a party, seated or expected, keeps its turn at other free tables. */
    async moveParty(principal: Principal, assignmentId: string, input: MoveFloorPartyBody): Promise<FloorParty> {
      requireStaff(principal);
      const { restaurantId } = principal;
      if (!(await findParty(db, restaurantId, { assignmentId }, clock.now()))) throw notFound(PARTY_NOT_FOUND);
      const found = await requireFloor(db, restaurantId);
      assertTablesOf(found, input.tableIds);
      let startsAt = new Date();
      await db.transaction(async (tx) => {
        await lockFloor(tx, restaurantId);
        const now = clock.now();
        const party = await findParty(tx, restaurantId, { assignmentId }, now);
        if (!party) throw notFound(PARTY_NOT_FOUND);
        assertStillOnTheFloor(party);
        const fromMs = Math.max(now.getTime(), new Date(party.starts_at).getTime());
        const toMs = Math.max(new Date(party.ends_at).getTime(), now.getTime() + MINUTE_MS);
        const checkSeated = party.seated_at !== null || party.status === 'SEATED';
        await assertTablesFree(tx, found, restaurantId, input.tableIds, { fromMs, toMs, checkSeated }, assignmentId, now);
        await moveParty(tx, restaurantId, assignmentId, input.tableIds, combinationOf(found, input.tableIds));
        startsAt = new Date(party.starts_at);
      });
      const party = await partyView(restaurantId, { assignmentId });
      await announce(restaurantId, startsAt);
      return party;
    },

    /**
     * POST /api/admin/floor/live/parties/{assignmentId}/finish: the party has left. A booking moves
     * SEATED → COMPLETED; either way the table is free from now, and the rest of its turn is offered
     * to the waitlist first ('slot.freed', heard by the waitlist in server/composition.ts).
     */
    async finishParty(principal: Principal, assignmentId: string): Promise<FloorParty> {
      requireStaff(principal);
      const { restaurantId } = principal;
      const party = await findParty(db, restaurantId, { assignmentId }, clock.now());
      if (!party) throw notFound(PARTY_NOT_FOUND);
      const finish = async (tx: Db) => {
        await lockFloor(tx, restaurantId);
        const locked = await findParty(tx, restaurantId, { assignmentId }, clock.now());
        if (!locked || locked.finished_at) throw conflict('This party has already finished');
        await finishParty(tx, restaurantId, assignmentId, clock.now());
      };
      if (party.reservation_id) {
        await reservations.moveReservationAsStaff(principal, party.reservation_id, 'COMPLETED', (tx) => finish(tx));
      } else {
        await db.transaction(finish);
      }
      const now = clock.now();
      const view = await partyView(restaurantId, { assignmentId });
      await announce(restaurantId, new Date(view.startsAt), { from: now, to: new Date(party.ends_at) });
      return view;
    },

    /** POST /api/admin/floor/live/bookings/{reservationId}/no-show: the staff's no-show of the bookings list (its strike and deposit rules). */
    async markNoShow(principal: Principal, reservationId: string): Promise<AdminBooking> {
      requireStaff(principal);
      return reservationsAdmin.moveBooking(principal, reservationId, 'NO_SHOW');
    },
  };
}

export type FloorLiveService = ReturnType<typeof createFloorLive>;
