import { offerTemplateValues } from '#server/modules/notifications/offer-message.ts';
import { createHash, randomBytes } from 'node:crypto';
import { DRAW_SEED_BYTES, drawOrder, entryListHash } from '#common/domain/draw.ts';
import { formatDateShort, formatTime12h, isPastBookingCutoff, toKolkata } from '#common/domain/time.ts';
import { asDate, type Db } from '#server/db/client.ts';
import { createCoalescingRunner } from '#server/coalescing-runner.ts';
import type { AppDeps } from '#server/deps.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { ReservationsService } from '#server/modules/reservations/reservations.service.ts';
import type { SlotsService } from '#server/modules/slots/slots.service.ts';
import { isDropOver } from './drop-view.ts';
import {
  findNextInLine,
  hasWaitingEntries,
  listDropSlots,
  listDropsToClose,
  listDropsWithWorkDue,
  listEntryIdsForDraw,
  lockDrop,
  markEntryOffered,
  markOpenedToAll,
  recordDraw,
  recordEntriesClosed,
  type DropRow,
  type LockedDrop,
} from './drops.repository.ts';

/**
 * A new drop's draw seed, sealed (decision 100): 32 random bytes kept secret until the draw, and
 * the commitment published at once, SHA-256 of those bytes (hex), so the seed cannot be chosen later.
 */
export function newSealedSeed(): { sealedSeed: string; seedCommitment: string } {
  const seed = randomBytes(DRAW_SEED_BYTES);
  return { sealedSeed: seed.toString('hex'), seedCommitment: createHash('sha256').update(seed).digest('hex') };
}

/** A guard against a runaway offer loop: far more than any drop has tables. */
const MAX_OFFERS_PER_RUN = 5_000;

/**
 * The draw and the offer loop (decisions 081-082): at release a seeded draw orders the entries,
 * then the tables go down that line as HELD reservations, each freed table to the next in line.
 * Both the diner's and the staff's services call ensureDrawn before they read a released drop.
 */
export function createDropOffers(deps: AppDeps, reservations: ReservationsService, notifications: NotificationsService, slots: SlotsService) {
  const { db, clock, config, events, log } = deps;

  /** Fixes the entry list once entries have closed (under the drop's row lock): its count and hash. */
  async function closeEntriesLocked(tx: Db, drop: LockedDrop, now: Date): Promise<string | null> {
    if (drop.entries_closed_at) return drop.closed_entries_hash;
    if (asDate(drop.entry_closes_at) > now) return null;
    const ids = (await listEntryIdsForDraw(tx, drop.id)).map((entry) => entry.id);
    const hash = await entryListHash(ids);
    await recordEntriesClosed(tx, drop.id, { count: ids.length, hash, now });
    return hash;
  }

  /** When entries have closed: the entry list is fixed (recorded once), before anyone can know the seed. */
  async function closeEntriesIfDue(dropId: string): Promise<void> {
    await db.transaction(async (tx) => {
      const drop = await lockDrop(tx, dropId);
      if (drop) await closeEntriesLocked(tx, drop, clock.now());
    });
  }

  /** The draw, exactly once: under the drop's row lock, only if released and not yet drawn. */
  async function drawIfDue(dropId: string): Promise<boolean> {
    const startedAt = performance.now();
    const drawn = await db.transaction(async (tx) => {
      const drop = await lockDrop(tx, dropId);
      const now = clock.now();
      if (!drop || drop.drawn_at || asDate(drop.release_at) > now) return undefined;
      const closedHash = await closeEntriesLocked(tx, drop, now);
      // Every entry in the list fixed at the close (decision 100).
      const entries = await listEntryIdsForDraw(tx, dropId);
      const ids = entries.map((entry) => entry.id);
      if (closedHash && (await entryListHash(ids)) !== closedHash) log.error({ dropId }, 'drop entries changed after the close: the audit will show it');
      // The seed committed to at creation; a drop older than the commitment draws a fresh one.
      let seed = randomBytes(DRAW_SEED_BYTES);
      if (drop.sealed_seed) {
        seed = Buffer.from(drop.sealed_seed, 'hex');
        if (createHash('sha256').update(seed).digest('hex') !== drop.seed_commitment)
          throw new Error(`drop ${dropId}: the sealed seed does not match its commitment`);
      }
      const order = await drawOrder(seed, ids);
      await recordDraw(tx, dropId, { seed: seed.toString('hex'), order, now });
      const userIds = entries.filter((entry) => entry.status !== 'withdrawn').map((entry) => entry.user_id);
      // The result reaches the browsers that asked for it, once per entrant (decision 212); winners also get their offer.
      const messageIds: (string | null)[] = [];
      for (const userId of userIds)
        messageIds.push(
          await notifications.queuePush(
            tx,
            { userId },
            {
              kind: 'result',
              title: `The draw for ${drop.title} is done`,
              body: 'See your place in line. If a table is yours, it is held for you now.',
              link: `/drops/${dropId}`,
              idempotencyKey: `result:${dropId}:${userId}`,
            },
          ),
        );
      return { userIds, count: order.length, messageIds };
    });
    if (!drawn) return false;
    deps.metrics?.drawDuration.observe((performance.now() - startedAt) / 1000);
    log.info({ dropId, entries: drawn.count }, 'drop drawn');
    for (const userId of drawn.userIds) notifications.publishToUser(userId, { type: 'drop', dropId });
    notifications.deliverSoon(drawn.messageIds);
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
      if (!drop || !drop.drawn_at || drop.opened_to_all_at || isDropOver(drop, now, config.bookingCutoffMinutes)) return { kind: 'done' };
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
          const messageId = await notifications.queueOffer(tx, candidate.user_id, {
            subject: `You got a table at ${held.restaurant_name}`,
            body:
              `Your entry in the drop "${drop.title}" came up: a table for ${held.party_size} at ${held.restaurant_name} on ` +
              `${formatDateShort(held.slot_date)} at ${formatTime12h(held.slot_time)} is held in your name until ${formatTime12h(until.time)}.\n\n` +
              `Complete your booking on Tablefair before then (Drops → ${drop.title}, or /hold/${held.id}); otherwise the table goes to the next person in line.`,
            values: offerTemplateValues(held, until.time, `${config.publicUrl}/hold/${held.id}`),
            idempotencyKey: `offer:${held.id}`,
            link: `/hold/${held.id}`,
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

  return {
    advanceDrop,
    scheduleAdvance,

    /** Listener of freed covers (wired in server/composition.ts): a drop's freed table (a winner cancelled, or let the hold lapse) goes to the next in line. */
    onSlotFreed({ slotId }: { slotId: string }): void {
      slots
        .findDropIdOfSlot(slotId)
        .then((dropId) => (dropId ? scheduleAdvance(dropId) : undefined))
        .catch((error) => log.warn({ err: error, slotId }, 'drop offer after a freed slot failed; the sweep retries'));
    },

    /** The first read after a release draws it, even before the timer does; the first after the close fixes the entries. */
    async ensureDrawn(drop: Pick<DropRow, 'id' | 'drawn_at' | 'release_at' | 'entry_closes_at' | 'entries_closed_at'>): Promise<void> {
      if (!drop.entries_closed_at && asDate(drop.entry_closes_at) <= clock.now()) await closeEntriesIfDue(drop.id);
      if (!drop.drawn_at && asDate(drop.release_at) <= clock.now()) await scheduleAdvance(drop.id);
    },

    closeEntriesIfDue,

    /** For the timer (and after a restart): every drop whose entries just closed, or with a draw or an offer due. */
    async runDueWork(): Promise<number> {
      for (const id of await listDropsToClose(db, clock.now())) await closeEntriesIfDue(id);
      const ids = await listDropsWithWorkDue(db, clock.now());
      for (const id of ids) await scheduleAdvance(id);
      return ids.length;
    },
  };
}

export type DropOffers = ReturnType<typeof createDropOffers>;
