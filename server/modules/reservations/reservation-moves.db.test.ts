import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { reservationStatuses } from '#common/domain/reservation-status.ts';
import { kolkataInstant, MINUTE_MS } from '#common/domain/time.ts';
import { queryRows } from '#server/db/client.ts';
import { buildDiner, buildRestaurant, buildStaff, coversHeld } from '#server/test/factories.ts';
import {
  eventsOf,
  expectRefusedCleanly,
  heldReservation,
  hold,
  move,
  reservationIn,
  restaurant,
  rowOf,
  setUpReservationsFixture,
  staff,
  t,
  tables,
} from './reservations.test-support.ts';

/** The reservation state machine through HTTP and the service: confirming, cancelling, staff moves, and the hold sweeper. */
setUpReservationsFixture();

describe('confirming and cancelling: the state machine', () => {
  it('confirms a hold before it expires: HELD → PENDING, covers kept, history written', async () => {
    const made = await heldReservation({ partySize: 3, capacity: 3 });
    t.clock.advance(10 * MINUTE_MS - 1);
    const response = await move('confirm', made.id, made.owner.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: made.id, status: 'PENDING', holdExpiresAt: null });
    t.clock.advance(60 * MINUTE_MS);
    expect(await coversHeld(t.database.db, made.slot.id, t.clock.now())).toBe(3);
    expect(await eventsOf(made.id)).toEqual([
      { from_status: null, to_status: 'HELD', actor_kind: 'diner', actor_id: made.owner.id, reason: null },
      { from_status: 'HELD', to_status: 'PENDING', actor_kind: 'diner', actor_id: made.owner.id, reason: null },
    ]);
  });

  it('confirms from the hold screen with no token and no body', async () => {
    const made = await heldReservation();
    const response = await t.app.inject({ method: 'POST', url: `/api/reservations/${made.id}/confirm` });
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('PENDING');
    expect((await eventsOf(made.id)).at(-1)).toEqual({ from_status: 'HELD', to_status: 'PENDING', actor_kind: 'diner', actor_id: null, reason: null });
  });

  it('refuses to confirm an expired hold with 409 naming its status, and changes nothing', async () => {
    const made = await heldReservation({ capacity: 2 });
    t.clock.advance(10 * MINUTE_MS);
    const body = await expectRefusedCleanly(() => move('confirm', made.id, made.owner.token), 409);
    expect(body.error).toMatch(/\bCANCELLED\b/);
    expect(body.error).toMatch(/expired/);
    expect(await rowOf(made.id)).toEqual({ status: 'HELD', cancel_reason: null });
    expect((await t.app.inject({ method: 'GET', url: `/api/reservations/${made.id}` })).json()).toMatchObject({ status: 'CANCELLED', holdExpiresAt: null });
    // Its covers went back at the expiry instant.
    expect((await hold((await buildDiner(t.database.db)).token, made.slot.time, 2)).statusCode).toBe(201);
  });

  it('refuses a body on confirm and cancel (they take {} or nothing)', async () => {
    const made = await heldReservation();
    for (const action of ['confirm', 'cancel'] as const) {
      const body = await expectRefusedCleanly(() => move(action, made.id, made.owner.token, { status: 'CONFIRMED' }), 400);
      expect(body.error).toMatch(/status|key/i);
    }
  });

  it('refuses another diner’s confirm and cancel with 403, and a staff token with 401', async () => {
    const made = await heldReservation();
    const stranger = await buildDiner(t.database.db);
    const staffToken = (await buildStaff(t.database.db, restaurant.id)).token;
    for (const action of ['confirm', 'cancel'] as const) {
      expect(await expectRefusedCleanly(() => move(action, made.id, stranger.token), 403)).toEqual({ error: 'That reservation belongs to another account' });
      expect(await expectRefusedCleanly(() => move(action, made.id, staffToken), 401)).toEqual({ error: 'This needs a diner sign-in' });
      expect(await expectRefusedCleanly(() => move(action, made.id, 'expired-or-made-up'), 401)).toEqual({
        error: 'Your session has expired. Please sign in again.',
      });
    }
    expect(await rowOf(made.id)).toEqual({ status: 'HELD', cancel_reason: null });
  });

  it('cancels a hold at once: its covers go back and the history says who', async () => {
    const made = await heldReservation({ partySize: 4, capacity: 4 });
    const response = await move('cancel', made.id, made.owner.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'CANCELLED', holdExpiresAt: null });
    expect(await rowOf(made.id)).toEqual({ status: 'CANCELLED', cancel_reason: 'DINER_CANCELLED' });
    expect(await coversHeld(t.database.db, made.slot.id, t.clock.now())).toBe(0);
    expect((await eventsOf(made.id)).at(-1)).toEqual({
      from_status: 'HELD',
      to_status: 'CANCELLED',
      actor_kind: 'diner',
      actor_id: made.owner.id,
      reason: 'DINER_CANCELLED',
    });
    expect((await hold((await buildDiner(t.database.db)).token, made.slot.time, 4)).statusCode).toBe(201);
  });

  it('cancels a pending request with the owner’s token (the id alone cancels only a hold: decision 097)', async () => {
    const made = await reservationIn('PENDING');
    const response = await move('cancel', made.id, made.owner.token);
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('CANCELLED');
    expect(await coversHeld(t.database.db, made.slot.id, t.clock.now())).toBe(0);
  });

  describe('the 2-hour rule for an accepted (CONFIRMED) reservation', () => {
    it('lets the diner cancel 2 hours ahead or more', async () => {
      const made = await reservationIn('CONFIRMED');
      t.clock.set(new Date(kolkataInstant(made.slot.date, made.slot.time).getTime() - 120 * MINUTE_MS));
      const response = await move('cancel', made.id, made.owner.token);
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe('CANCELLED');
      expect((await eventsOf(made.id)).at(-1)).toMatchObject({ from_status: 'CONFIRMED', to_status: 'CANCELLED', actor_kind: 'diner' });
    });

    it('refuses the diner less than 2 hours ahead with 409 naming CONFIRMED', async () => {
      const made = await reservationIn('CONFIRMED');
      t.clock.set(new Date(kolkataInstant(made.slot.date, made.slot.time).getTime() - 120 * MINUTE_MS + 1));
      const body = await expectRefusedCleanly(() => move('cancel', made.id, made.owner.token), 409);
      expect(body.error).toMatch(/\bCONFIRMED\b/);
      expect(body.error).toMatch(/2 hours/);
      expect(await rowOf(made.id)).toEqual({ status: 'CONFIRMED', cancel_reason: null });
    });

    it('lets staff cancel at any time', async () => {
      const made = await reservationIn('CONFIRMED');
      t.clock.set(new Date(kolkataInstant(made.slot.date, made.slot.time).getTime() - 5 * MINUTE_MS));
      const result = await t.app.services.reservations.moveReservationAsStaff(staff, made.id, 'CANCELLED');
      expect(result.status).toBe('CANCELLED');
      expect(await rowOf(made.id)).toEqual({ status: 'CANCELLED', cancel_reason: 'RESTAURANT_CANCELLED' });
    });
  });

  it.each(reservationStatuses.filter((s) => s !== 'HELD'))('refuses to confirm a %s reservation with 409 naming it', async (status) => {
    const made = await reservationIn(status);
    const body = await expectRefusedCleanly(() => move('confirm', made.id, made.owner.token), 409);
    expect(body.error).toMatch(new RegExp(`\\b${status}\\b`));
  });

  it.each(['SEATED', 'COMPLETED', 'CANCELLED', 'NO_SHOW'] as const)('refuses the diner’s cancel of a %s reservation with 409 naming it', async (status) => {
    const made = await reservationIn(status);
    const body = await expectRefusedCleanly(() => move('cancel', made.id, made.owner.token), 409);
    expect(body.error).toMatch(new RegExp(`\\b${status}\\b`));
  });

  it('walks PENDING → CONFIRMED → SEATED → COMPLETED by staff, writing every step with its actor', async () => {
    const made = await reservationIn('PENDING');
    for (const to of ['CONFIRMED', 'SEATED', 'COMPLETED'] as const) {
      expect((await t.app.services.reservations.moveReservationAsStaff(staff, made.id, to)).status).toBe(to);
    }
    const staffId = (staff as { staffId: string }).staffId;
    expect(await eventsOf(made.id)).toEqual([
      { from_status: null, to_status: 'HELD', actor_kind: 'diner', actor_id: made.owner.id, reason: null },
      { from_status: 'HELD', to_status: 'PENDING', actor_kind: 'diner', actor_id: made.owner.id, reason: null },
      { from_status: 'PENDING', to_status: 'CONFIRMED', actor_kind: 'staff', actor_id: staffId, reason: null },
      { from_status: 'CONFIRMED', to_status: 'SEATED', actor_kind: 'staff', actor_id: staffId, reason: null },
      { from_status: 'SEATED', to_status: 'COMPLETED', actor_kind: 'staff', actor_id: staffId, reason: null },
    ]);
    expect(await coversHeld(t.database.db, made.slot.id, t.clock.now())).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: `/api/reservations/${made.id}` })).json().status).toBe('COMPLETED');
  });

  it('lets staff mark a no-show only from 15 minutes after the start', async () => {
    const made = await reservationIn('CONFIRMED');
    const startsAt = kolkataInstant(made.slot.date, made.slot.time).getTime();
    t.clock.set(new Date(startsAt + 15 * MINUTE_MS - 1));
    const before = await tables();
    const early = t.app.services.reservations.moveReservationAsStaff(staff, made.id, 'NO_SHOW');
    await expect(early).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/\bCONFIRMED\b.*15 minutes|15 minutes.*\bCONFIRMED\b/) });
    expect(await tables()).toBe(before);
    t.clock.set(new Date(startsAt + 15 * MINUTE_MS));
    expect((await t.app.services.reservations.moveReservationAsStaff(staff, made.id, 'NO_SHOW')).status).toBe('NO_SHOW');
    expect(await coversHeld(t.database.db, made.slot.id, t.clock.now())).toBe(0);
  });

  it('refuses staff moves the machine does not have, naming the status, and other restaurants’ bookings', async () => {
    const made = await heldReservation();
    await expect(t.app.services.reservations.moveReservationAsStaff(staff, made.id, 'CONFIRMED')).rejects.toMatchObject({
      status: 409,
      message: 'This reservation is HELD, so it cannot be confirmed',
    });
    const elsewhere = await buildRestaurant(t.database.db);
    const otherStaff = await buildStaff(t.database.db, elsewhere.id);
    await expect(
      t.app.services.reservations.moveReservationAsStaff({ kind: 'staff', staffId: otherStaff.id, restaurantId: elsewhere.id }, made.id, 'CANCELLED'),
    ).rejects.toMatchObject({ status: 404, message: 'Booking not found' });
    await expect(t.app.services.reservations.moveReservationAsStaff({ kind: 'diner', userId: made.owner.id }, made.id, 'CANCELLED')).rejects.toMatchObject({
      status: 401,
    });
    expect(await rowOf(made.id)).toEqual({ status: 'HELD', cancel_reason: null });
    expect(await eventsOf(made.id)).toHaveLength(1);
  });
});

describe('expiring holds', () => {
  it('writes CANCELLED / HOLD_EXPIRED with a system history row, once, for due holds only', async () => {
    const due = await heldReservation();
    t.clock.advance(5 * MINUTE_MS);
    const notYet = await heldReservation();
    t.clock.advance(5 * MINUTE_MS); // `due` expires exactly now
    const sweptAt = t.clock.now();
    expect(await t.app.services.reservations.expireDueHolds()).toBeGreaterThanOrEqual(1);
    expect(await rowOf(due.id)).toEqual({ status: 'CANCELLED', cancel_reason: 'HOLD_EXPIRED' });
    expect(await rowOf(notYet.id)).toEqual({ status: 'HELD', cancel_reason: null });
    const history = await eventsOf(due.id);
    expect(history.at(-1)).toEqual({ from_status: 'HELD', to_status: 'CANCELLED', actor_kind: 'system', actor_id: null, reason: 'HOLD_EXPIRED' });
    const [{ created_at }] = await queryRows<{ created_at: Date | string }>(
      t.database.db,
      sql`SELECT created_at FROM reservation_events WHERE reservation_id = ${due.id} ORDER BY id DESC LIMIT 1`,
    );
    expect(new Date(created_at).toISOString()).toBe(sweptAt.toISOString());
    expect(await t.app.services.reservations.expireDueHolds()).toBe(0);
    expect(await eventsOf(due.id)).toHaveLength(2);

    const confirm = await move('confirm', due.id, due.owner.token);
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json().error).toMatch(/\bCANCELLED\b/);
    t.clock.advance(5 * MINUTE_MS);
    expect(await t.app.services.reservations.expireDueHolds()).toBe(1);
    expect(await rowOf(notYet.id)).toEqual({ status: 'CANCELLED', cancel_reason: 'HOLD_EXPIRED' });
  });

  it('announces the change and the freed slot', async () => {
    const made = await heldReservation();
    const changed: unknown[] = [];
    const freed: unknown[] = [];
    const stopChanged = t.app.deps.events.subscribe('reservation.changed', (event) => changed.push(event));
    const stopFreed = t.app.deps.events.subscribe('slot.freed', (event) => freed.push(event));
    try {
      t.clock.advance(10 * MINUTE_MS);
      await t.app.services.reservations.expireDueHolds();
      expect(changed).toContainEqual({ reservationId: made.id, restaurantId: restaurant.id, userId: made.owner.id, status: 'CANCELLED' });
      expect(freed).toContainEqual({ slotId: made.slot.id, restaurantId: restaurant.id });
    } finally {
      stopChanged();
      stopFreed();
    }
  });
});
