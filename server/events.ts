import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { DinerStreamEvent } from '#common/contract/waitlist.ts';
import type { EventRelay } from './db/client.ts';

/** Domain events other parts of the app react to (live dashboards, waitlist offers). */
export interface AppEventMap {
  /** A reservation was created or changed status. */
  'reservation.changed': { reservationId: string; restaurantId: string; userId: string; status: string };
  /** Covers were freed on a slot (cancel, expiry, capacity added). */
  'slot.freed': { slotId: string; restaurantId: string };
  /** The host changed the floor of a day: a walk-in seated, a party moved or finished (decision 245). */
  'floor.changed': { restaurantId: string; date: string };
  /** A live event for one diner's open streams (GET /api/me/events), wherever they are connected. */
  'diner.event': { userId: string; event: DinerStreamEvent };
}

type RelayedEvent = { from: string; name: keyof AppEventMap; payload: AppEventMap[keyof AppEventMap] };

/**
 * A typed event bus. Listeners in this process hear an event at once; with a relay (PostgreSQL
 * NOTIFY, decision 076) every other instance on the same database hears it too, within
 * milliseconds and at most once, so a dashboard or a diner's stream connected to another
 * instance still updates live. Relaying is best effort: the screens' periodic refresh remains.
 */
export class AppEvents {
  private readonly emitter = new EventEmitter();
  private readonly instanceId = randomUUID();
  private readonly stopRelay: (() => void) | undefined;

  constructor(private readonly relay?: EventRelay) {
    // Many live dashboards may listen at once.
    this.emitter.setMaxListeners(0);
    this.stopRelay = relay?.subscribe((message) => {
      let relayed: RelayedEvent;
      try {
        relayed = JSON.parse(message) as RelayedEvent;
      } catch {
        return;
      }
      if (relayed.from !== this.instanceId) this.emitter.emit(relayed.name, relayed.payload);
    });
  }

  publish<K extends keyof AppEventMap>(name: K, payload: AppEventMap[K]): void {
    this.emitter.emit(name, payload);
    const relayed: RelayedEvent = { from: this.instanceId, name, payload };
    this.relay?.publish(JSON.stringify(relayed)).catch(() => {
      // The database is away: this instance's listeners heard it; the others refresh on their own.
    });
  }

  close(): void {
    this.stopRelay?.();
  }

  subscribe<K extends keyof AppEventMap>(name: K, listener: (payload: AppEventMap[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
