import { randomBytes } from 'node:crypto';
import { DRAW_SEED_BYTES, drawOrder } from '#common/domain/draw.ts';
import { formatDateShort, formatTime12h, isPastBookingCutoff, toKolkata } from '#common/domain/time.ts';
import { asDate } from '#server/db/client.ts';
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
  listDropsWithWorkDue,
  listEntryIdsForDraw,
  lockDrop,
  markEntryOffered,
  markOpenedToAll,
  recordDraw,
  type DropRow,
} from './drops.repository.ts';

/** A guard against a runaway offer loop: far more than any drop has tables. */
const MAX_OFFERS_PER_RUN = 5_000;

/**
 * The draw and the offer loop (decisions 081-082): at release a seeded draw orders the entries,
 * then the tables go down that line as HELD reservations, each freed table to the next in line.
 * Both the diner's and the staff's services call ensureDrawn before they read a released drop.
 */
export function createDropOffers(deps: AppDeps, reservations: ReservationsService, notifications: NotificationsService, slots: SlotsService) {
  const { db, clock, config, events, log } = deps;

  /** The draw, exactly once: under the drop's row lock, only if released and not yet drawn. */
  async function drawIfDue(dropId: string): Promise<boolean> {
    const drawn = await db.transaction(async (tx) => {
      const drop = await lockDrop(tx, dropId);
      const now = clock.now();
      if (!drop || drop.drawn_at || asDate(drop.release_at) > now) return undefined;
      const entries = await listEntryIdsForDraw(tx, dropId);
      const seed = randomBytes(DRAW_SEED_BYTES);
      const order = await drawOrder(
        seed,
        entries.map((entry) => entry.id),
      );
      await recordDraw(tx, dropId, { seed: seed.toString('hex'), order, now });
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
    slots
      .findDropIdOfSlot(slotId)
      .then((dropId) => (dropId ? scheduleAdvance(dropId) : undefined))
      .catch((error) => log.warn({ err: error, slotId }, 'drop offer after a freed slot failed; the sweep retries'));
  });

  return {
    advanceDrop,
    scheduleAdvance,

    /** The first read after a release draws it, even before the timer does. */
    async ensureDrawn(drop: Pick<DropRow, 'id' | 'drawn_at' | 'release_at'>): Promise<void> {
      if (!drop.drawn_at && asDate(drop.release_at) <= clock.now()) await scheduleAdvance(drop.id);
    },

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
  };
}

export type DropOffers = ReturnType<typeof createDropOffers>;
