import type { DropDetail, DropDrawAudit, DropList, DropSummary, EnterDropBody, MyDropEntry } from '#common/contract/drops.ts';
import { DRAW_ALGORITHM } from '#common/domain/draw.ts';
import { asDate, iso, isoOrNull, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, conflict, forbidden, isUniqueViolation, notFound, sessionExpired } from '#server/errors.ts';
import { rejectInvalidCredential, requireDiner, type Principal } from '#server/modules/accounts/principal.ts';
import type { PhoneVerificationService } from '#server/modules/accounts/phone-verification.service.ts';
import type { StrikesService } from '#server/modules/strikes/strikes.service.ts';
import type { DropOffers } from './drop-offers.ts';
import { drawCommitmentsOf, entryResultOf, formatInstant, toDropSummary } from './drop-view.ts';
import {
  countWaitingAhead,
  deleteEntry,
  findDrop,
  findEntryOfUser,
  insertEntry,
  listDrops,
  listDropSlots,
  listEntries,
  listUndrawnReleasedDrops,
  lockDrop,
  withdrawEntry,
  type DropRow,
  withdrawWaitingEntriesOf,
} from './drops.repository.ts';

export const DROP_NOT_FOUND = 'Drop not found';
export const VERIFY_PHONE_FIRST = 'Verify your phone number before entering a drop. It keeps drops fair: one entry per person.';
export const ALREADY_ENTERED = 'You have already entered this drop';
export const PHONE_ALREADY_ENTERED = 'This phone number has already entered this drop';
/** Past drops are listed for this long after their last slot. */
const PAST_DAYS = 30;
export const DROPS_LIST_LIMIT = 200;

/**
 * Drops for diners (decisions 080-083): every drop citywide, one entry per verified person inside
 * the window, the result after the draw, and the draw's audit. The draw and the offers are in
 * drop-offers.ts; the staff's side in drops.admin.service.ts.
 */
export function createDropsService(deps: AppDeps, offers: DropOffers, phoneVerification: PhoneVerificationService, strikes: StrikesService) {
  const { db, clock, config } = deps;
  const cutoffMinutes = config.bookingCutoffMinutes;

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
      result: entryResultOf(entry, drop, now, cutoffMinutes, () => ahead + 1),
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
      phoneVerified = Boolean(await phoneVerification.findVerifiedPhone(principal.userId));
    }
    return {
      ...toDropSummary(drop, now, cutoffMinutes),
      ...drawCommitmentsOf(drop),
      slots: slots.map((slot) => ({ date: slot.date, time: slot.time })),
      myEntry,
      phoneVerified,
      serverTime: now.toISOString(),
    };
  }

  return {
    /** A deleted diner's entries still in line are withdrawn, in the deletion's transaction (decision 266). */
    async withdrawAllEntries(tx: Db, userId: string): Promise<void> {
      await withdrawWaitingEntriesOf(tx, userId);
    },

    /** GET /api/drops: every drop citywide, grouped open / upcoming / past. */
    async listDrops(principal: Principal): Promise<DropList> {
      rejectInvalidCredential(principal);
      // The first read after a release draws it, even before the timer does.
      for (const id of await listUndrawnReleasedDrops(db, clock.now())) await offers.scheduleAdvance(id);
      const now = clock.now();
      const rows = await listDrops(db, { since: new Date(now.getTime() - PAST_DAYS * 86_400_000), limit: DROPS_LIST_LIMIT });
      const summaries = rows.map((row) => toDropSummary(row, now, cutoffMinutes));
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
      await offers.ensureDrawn(await loadDrop(id));
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
          const user = await phoneVerification.lockVerifiedPhone(tx, userId);
          if (!user) throw sessionExpired();
          if (!user.verified_phone) throw forbidden(VERIFY_PHONE_FIRST);
          await strikes.assertMayBook(tx, userId);
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
      await offers.ensureDrawn(await loadDrop(id));
      const afterDraw = await db.transaction(async (tx) => {
        const drop = await lockDrop(tx, id, 'share');
        const entry = await findEntryOfUser(tx, id, userId);
        if (!drop || !entry || entry.status === 'withdrawn') throw notFound('You have not entered this drop');
        if (entry.status === 'offered') throw conflict('A table from this drop is already yours: cancel the reservation instead');
        // Once the entry list is fixed (decision 100) an entry leaves by being marked, so the list stays checkable.
        if (drop.drawn_at || drop.entries_closed_at) await withdrawEntry(tx, entry.id);
        else await deleteEntry(tx, entry.id);
        return Boolean(drop.drawn_at);
      });
      // The line moved up (or emptied, opening the leftover tables to everyone).
      if (afterDraw) await offers.scheduleAdvance(id);
      return detailFor(principal, id);
    },

    /** GET /api/drops/{id}/draw: the seed and the drawn order, so anyone can recompute it with drawOrder. */
    async getDrawAudit(principal: Principal, id: string): Promise<DropDrawAudit> {
      rejectInvalidCredential(principal);
      await offers.ensureDrawn(await loadDrop(id));
      const current = await loadDrop(id);
      if (!current.drawn_at || !current.seed) throw conflict(`The draw runs at the release, ${formatInstant(current.release_at)}`);
      const order = (await listEntries(db, id)).filter((entry) => entry.position !== null).map((entry) => entry.id);
      return {
        dropId: id,
        seed: current.seed,
        seedCommitment: current.seed_commitment,
        committedAt: isoOrNull(current.committed_at),
        entriesClosedAt: isoOrNull(current.entries_closed_at),
        entriesHash: current.closed_entries_hash,
        entryIds: [...order].sort(),
        drawnAt: iso(current.drawn_at),
        algorithm: DRAW_ALGORITHM,
        order,
      };
    },
  };
}

export type DropsService = ReturnType<typeof createDropsService>;
