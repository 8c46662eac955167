import type { AdminStrikeDispute, DisputeStrikeBody, MyStrikesResponse, ResolveDisputeBody } from '#common/contract/strikes.ts';
import { blockLiftsAt, isDisputeWindowOpen, STRIKE_DISPUTE_DAYS, strikeBlockMessage } from '#common/domain/strikes.ts';
import { DAY_MS, formatDateShort, toKolkata } from '#common/domain/time.ts';
import { asDate, iso, isoOrNull, type Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, forbidden, isUniqueViolation, notFound } from '#server/errors.ts';
import { requireDiner, requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import { toRestaurantRef } from '#server/modules/restaurants/restaurant-sql.ts';
import {
  findStrike,
  insertDispute,
  insertStrike,
  listCountingStrikeTimes,
  listDisputesOfRestaurant,
  listStrikesOfUser,
  lockDisputeOfRestaurant,
  resolveDispute,
  type AdminDisputeRow,
} from './strikes.repository.ts';

const DISPUTES_LIMIT = 100;
export const STRIKE_NOT_FOUND = 'Strike not found';
export const DISPUTE_NOT_FOUND = 'Dispute not found';

/** What the deposits service hears when staff uphold a dispute: the no-show fee is then refunded (depositMoves' `disputeUpheld`). */
export interface DisputeUpheld {
  disputeId: string;
  strikeId: string;
  reservationId: string;
  userId: string;
}

function toAdminDispute(row: AdminDisputeRow): AdminStrikeDispute {
  return {
    id: row.id,
    strikeId: row.strike_id,
    reservationId: row.reservation_id,
    diner: { name: row.diner_name },
    slot: { date: row.slot_date, time: row.slot_time },
    partySize: row.party_size,
    reason: row.reason,
    status: row.status,
    createdAt: iso(row.created_at),
    resolvedAt: isoOrNull(row.resolved_at),
  };
}

/**
 * No-show strikes (decision 122): recorded with the NO_SHOW in one transaction, counted to block
 * new holds and drop entries, disputed by the diner within 14 days, resolved by the restaurant.
 */
export function createStrikesService({ db, clock, config, log }: AppDeps) {
  const { limit, windowDays } = config.strikes;
  const upheldListeners = new Set<(event: DisputeUpheld) => void>();

  async function blockOf(tx: Db, userId: string, now: Date): Promise<{ liftsAt: Date; count: number } | null> {
    const times = await listCountingStrikeTimes(tx, userId, new Date(now.getTime() - windowDays * DAY_MS));
    const liftsAt = blockLiftsAt(times, now, limit, windowDays);
    return liftsAt ? { liftsAt, count: times.length } : null;
  }

  return {
    /** Records a no-show's strike; called by the reservations admin service inside the NO_SHOW's transaction. */
    async recordNoShow(tx: Db, noShow: { userId: string; reservationId: string; restaurantId: string }): Promise<void> {
      await insertStrike(tx, { ...noShow, now: clock.now() });
    },

    /**
     * Refuses (403) a diner with STRIKE_LIMIT strikes in STRIKE_WINDOW_DAYS, naming the day the
     * block lifts. Called under the diner's row lock by the hold and the drop entry, and by the
     * waitlist's join (decision 202).
     */
    async assertMayBook(tx: Db, userId: string): Promise<void> {
      const block = await blockOf(tx, userId, clock.now());
      if (block) throw forbidden(strikeBlockMessage(block.count, windowDays, block.liftsAt));
    },

    /**
     * Whether the diner is blocked now, without refusing: the waitlist passes a blocked diner over
     * for an offer (keeping their place) instead of failing the offer for the whole line.
     */
    async isBlocked(tx: Db, userId: string): Promise<boolean> {
      return (await blockOf(tx, userId, clock.now())) !== null;
    },

    /** GET /api/me/strikes: the diner's strikes, their disputes, and any block. */
    async listMyStrikes(principal: Principal): Promise<MyStrikesResponse> {
      requireDiner(principal);
      const now = clock.now();
      const [rows, block] = await Promise.all([listStrikesOfUser(db, principal.userId), blockOf(db, principal.userId, now)]);
      return {
        strikes: rows.map((row) => {
          const recordedAt = asDate(row.created_at);
          return {
            id: row.id,
            restaurant: toRestaurantRef(row),
            slot: { date: row.slot_date, time: row.slot_time },
            recordedAt: recordedAt.toISOString(),
            disputeUntil: new Date(recordedAt.getTime() + STRIKE_DISPUTE_DAYS * DAY_MS).toISOString(),
            canDispute: row.dispute_status === null && row.removed_at === null && isDisputeWindowOpen(recordedAt, now),
            dispute: row.dispute_status
              ? {
                  status: row.dispute_status,
                  reason: row.dispute_reason ?? '',
                  createdAt: iso(row.dispute_created_at!),
                  resolvedAt: isoOrNull(row.dispute_resolved_at),
                }
              : null,
            counts: row.removed_at === null && recordedAt.getTime() > now.getTime() - windowDays * DAY_MS,
          };
        }),
        limit,
        windowDays,
        blockedUntil: block ? block.liftsAt.toISOString() : null,
        blockMessage: block ? strikeBlockMessage(block.count, windowDays, block.liftsAt) : null,
      };
    },

    /** POST /api/me/strikes/{id}/dispute: once per strike, within 14 days of it. */
    async disputeStrike(principal: Principal, strikeId: string, input: DisputeStrikeBody): Promise<MyStrikesResponse> {
      requireDiner(principal);
      const strike = await findStrike(db, strikeId);
      // Another diner's strike is not found, like every other resource that is not yours.
      if (!strike || strike.user_id !== principal.userId) throw notFound(STRIKE_NOT_FOUND);
      const now = clock.now();
      const recordedAt = asDate(strike.created_at);
      if (!isDisputeWindowOpen(recordedAt, now)) {
        const closedOn = formatDateShort(toKolkata(new Date(recordedAt.getTime() + STRIKE_DISPUTE_DAYS * DAY_MS)).date);
        throw conflict(`A strike can be disputed for ${STRIKE_DISPUTE_DAYS} days; this one closed on ${closedOn}`);
      }
      try {
        await insertDispute(db, { strikeId, reason: input.reason, now });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('This strike has already been disputed');
        throw error;
      }
      return this.listMyStrikes(principal);
    },

    /** GET /api/admin/strike-disputes: the staff's own restaurant's disputes, open first. */
    async listOwnDisputes(principal: Principal): Promise<AdminStrikeDispute[]> {
      requireStaff(principal);
      return (await listDisputesOfRestaurant(db, principal.restaurantId, DISPUTES_LIMIT)).map(toAdminDispute);
    },

    /** PATCH /api/admin/strike-disputes/{id}: uphold (the strike no longer counts) or reject, once. */
    async resolveOwnDispute(principal: Principal, id: string, input: ResolveDisputeBody): Promise<AdminStrikeDispute> {
      requireStaff(principal);
      const upheld = input.outcome === 'uphold';
      const row = await db.transaction(async (tx) => {
        const locked = await lockDisputeOfRestaurant(tx, principal.restaurantId, id);
        if (!locked) throw notFound(DISPUTE_NOT_FOUND);
        if (locked.status !== 'open') throw conflict(`This dispute was already ${locked.status}`, { status: locked.status });
        await resolveDispute(tx, { id, strikeId: locked.strike_id, upheld, staffId: principal.staffId, now: clock.now() });
        return (await lockDisputeOfRestaurant(tx, principal.restaurantId, id))!;
      });
      if (upheld) {
        const event: DisputeUpheld = { disputeId: row.id, strikeId: row.strike_id, reservationId: row.reservation_id, userId: row.user_id };
        for (const listener of upheldListeners) {
          try {
            listener(event);
          } catch (error) {
            log.error({ err: error, disputeId: row.id }, 'a dispute-upheld listener failed');
          }
        }
      }
      return toAdminDispute(row);
    },

    /**
     * Hears every upheld dispute after it commits; server/composition.ts connects the deposits'
     * handler, which refunds the no-show fee
     * (`depositMoveFor({ from: 'NO_SHOW', to: 'NO_SHOW', actor: 'staff', event: 'disputeUpheld' })`).
     */
    onDisputeUpheld(listener: (event: DisputeUpheld) => void): () => void {
      upheldListeners.add(listener);
      return () => upheldListeners.delete(listener);
    },
  };
}

export type StrikesService = ReturnType<typeof createStrikesService>;
