import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ScrapeTimeHistogram } from './scrape-time-histogram.ts';
import type { RefreshOutcome } from './modules/availability/availability-cache.ts';

/** What the outbox looks like at a scrape: how old the oldest unsent message is, and how many have failed. */
export interface OutboxStats {
  unsent: number;
  oldestUnsentSeconds: number;
  failing: number;
}

/** Connections of the database pool at a scrape (PostgreSQL only; PGlite has one connection). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Reservation moves counted by the service that makes them (this instance only, never relayed ones). */
export type ReservationMove = 'hold' | 'confirmation' | 'cancellation' | 'expiry';

const MOVE_OF_STATUS: Record<string, ReservationMove | undefined> = { HELD: 'hold', CONFIRMED: 'confirmation', CANCELLED: 'cancellation' };

/**
 * The app's Prometheus series (docs/operations.md lists them). One registry per app, so two apps in
 * one process (tests) never mix their counts. Services record through the few methods below; the
 * figures that live in the database are read at scrape time only.
 */
export class AppMetrics {
  readonly registry = new Registry();
  /** Observed on every request, so counted in numbers of our own and formatted at scrape time (decision 238). */
  readonly httpDuration = new ScrapeTimeHistogram({
    name: 'tablefair_http_request_duration_seconds',
    help: 'Time to answer a request, per route template, method and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly reservationMoves = new Counter({
    name: 'tablefair_reservation_moves_total',
    help: 'Holds made, confirmations, cancellations and hold expiries made by this instance',
    labelNames: ['move'] as const,
    registers: [this.registry],
  });
  readonly slotFullRefusals = new Counter({
    name: 'tablefair_slot_full_refusals_total',
    help: 'Holds refused because the slot had no covers left',
    registers: [this.registry],
  });
  readonly eventStreamsOpen = new Gauge({
    name: 'tablefair_event_streams_open',
    help: 'Live-event streams (SSE) open on this instance',
    registers: [this.registry],
  });
  /**
   * Lookups of the availability memory, one per availability read: counted in plain numbers and
   * handed to the counter at scrape time (decision 238), instead of prom-client hashing the label
   * object on every read. A result not seen yet has no series, as before.
   */
  private readonly lookups = { hit: 0, miss: 0 };
  readonly availabilityLookups = new Counter({
    name: 'tablefair_availability_cache_lookups_total',
    help: 'Lookups of the availability memory, by result (hit or miss); hit rate = hit / all',
    labelNames: ['result'] as const,
    registers: [this.registry],
    collect: () => {
      this.availabilityLookups.reset();
      for (const result of ['hit', 'miss'] as const) if (this.lookups[result] > 0) this.availabilityLookups.inc({ result }, this.lookups[result]);
    },
  });
  /** Reloads of aging entries ahead of the cache's maxAge (decision 239): restaurant reads that are no miss. */
  readonly availabilityRefreshes = new Counter({
    name: 'tablefair_availability_cache_refreshes_total',
    help: 'Background reloads of aging availability entries, by outcome: renewed (unchanged, answers kept), replaced, discarded (a change overtook it), failed',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly drawDuration = new Histogram({
    name: 'tablefair_drop_draw_duration_seconds',
    help: 'How long a drop draw took, lock to commit',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly messageOutcomes = new Counter({
    name: 'tablefair_messages_total',
    help: 'Messages by channel, kind and what became of them: sent (the provider took it), delivered (its receipt), retried, next_channel (this channel failed for good, the policy tries the next) and failed (no channel left)',
    labelNames: ['channel', 'kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly outboxFailures = new Counter({
    name: 'tablefair_outbox_send_failures_total',
    help: "Email and text sending attempts that failed (each is retried later, or handed to the delivery policy's next channel)",
    registers: [this.registry],
  });

  /** The stores of kept answers (decision 200), read at scrape time. */
  private readonly answerStores = new Map<string, { entries(): number; size(): number }>();
  readonly keptAnswers = new Gauge({
    name: 'tablefair_kept_answers',
    help: 'Answers kept in memory for every caller, per store (bounded; least recently used go first)',
    labelNames: ['store'] as const,
    registers: [this.registry],
    collect: () => {
      for (const [store, kept] of this.answerStores) this.keptAnswers.set({ store }, kept.entries());
    },
  });
  readonly keptAnswerBytes = new Gauge({
    name: 'tablefair_kept_answer_bytes',
    help: 'Size of the answers kept in memory, per store: characters of their text plus bytes of their compressed forms',
    labelNames: ['store'] as const,
    registers: [this.registry],
    collect: () => {
      for (const [store, kept] of this.answerStores) this.keptAnswerBytes.set({ store }, kept.size());
    },
  });

  constructor(sources: { outbox?: () => Promise<OutboxStats>; pool?: () => PoolStats | undefined } = {}) {
    collectDefaultMetrics({ register: this.registry, prefix: 'tablefair_process_' });
    const { outbox, pool } = sources;
    if (outbox) {
      // A database that does not answer leaves the outbox series out of this scrape rather than failing it.
      const read = shared(() => outbox().catch(() => undefined));
      new Gauge({
        name: 'tablefair_outbox_unsent_messages',
        help: 'Messages in the outbox not yet sent',
        registers: [this.registry],
        async collect() {
          const stats = await read();
          if (stats) this.set(stats.unsent);
        },
      });
      new Gauge({
        name: 'tablefair_outbox_lag_seconds',
        help: 'Age of the oldest unsent outbox message (0 when none)',
        registers: [this.registry],
        async collect() {
          const stats = await read();
          if (stats) this.set(stats.oldestUnsentSeconds);
        },
      });
      new Gauge({
        name: 'tablefair_outbox_failing_messages',
        help: 'Unsent messages whose last attempt failed',
        registers: [this.registry],
        async collect() {
          const stats = await read();
          if (stats) this.set(stats.failing);
        },
      });
    }
    if (pool) {
      const gauge = new Gauge({
        name: 'tablefair_db_pool_connections',
        help: 'Database pool connections by state: in_use, idle, and requests waiting for one',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          const stats = pool();
          if (!stats) return;
          gauge.set({ state: 'in_use' }, stats.total - stats.idle);
          gauge.set({ state: 'idle' }, stats.idle);
          gauge.set({ state: 'waiting' }, stats.waiting);
        },
      });
    }
  }

  /** Reports a store of kept answers in tablefair_kept_answers and tablefair_kept_answer_bytes. */
  keepsAnswers(store: string, kept: { entries(): number; size(): number }): void {
    this.answerStores.set(store, kept);
  }

  /** One lookup of the availability memory (tablefair_availability_cache_lookups_total). */
  availabilityLookedUp(result: 'hit' | 'miss'): void {
    this.lookups[result] += 1;
  }

  /** How one background reload of an aging availability entry ended (tablefair_availability_cache_refreshes_total). */
  availabilityRefreshed(outcome: RefreshOutcome): void {
    this.availabilityRefreshes.inc({ outcome });
  }

  /** A reservation's new status as the reservations service announces it. */
  reservationChanged(status: string): void {
    const move = MOVE_OF_STATUS[status];
    if (move) this.reservationMoves.inc({ move });
  }

  holdsExpired(count: number): void {
    if (count > 0) this.reservationMoves.inc({ move: 'expiry' }, count);
  }
}

/** One read for every gauge of a scrape: the calls made within the same tick share it. */
function shared<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (!pending) {
      pending = read();
      const clear = () => setTimeout(() => (pending = undefined), 0);
      pending.then(clear, clear);
    }
    return pending;
  };
}
