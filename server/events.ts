import { EventEmitter } from 'node:events';

/** Domain events other parts of the app react to (live dashboards, waitlist offers). */
export interface AppEventMap {
  /** A reservation was created or changed status. */
  'reservation.changed': { reservationId: string; restaurantId: string; userId: string; status: string };
  /** Covers were freed on a slot (cancel, expiry, capacity added). */
  'slot.freed': { slotId: string; restaurantId: string };
}

/** A typed in-process event bus. */
export class AppEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Many live dashboards may listen at once.
    this.emitter.setMaxListeners(0);
  }

  publish<K extends keyof AppEventMap>(name: K, payload: AppEventMap[K]): void {
    this.emitter.emit(name, payload);
  }

  subscribe<K extends keyof AppEventMap>(name: K, listener: (payload: AppEventMap[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
