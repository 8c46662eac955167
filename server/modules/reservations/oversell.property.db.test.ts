import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { ReservationStatus } from '#common/domain/reservation-status.ts';
import { kolkataInstant, MINUTE_MS } from '#common/domain/time.ts';
import { AppError } from '#server/errors.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import { bearer, createTestApp, requestHold, TEST_NOW, type TestApp, TEST_TODAY as DATE } from '#server/test/app.ts';
import { buildDiner, buildRestaurant, buildSlot, buildStaff, coversHeld, type BuiltAccount, type BuiltSlot } from '#server/test/factories.ts';

/**
 * Random interleavings of holds, confirmations, cancellations, time passing, sweeps and staff
 * moves over two small slots. After every step the covers held on each slot never exceed its
 * capacity, and equal what a plain model of the rules says; every answer is the one the model
 * predicts, so a server that refused everything would fail too.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOLD_MS = 10 * MINUTE_MS;
const CUTOFF_MS = 30 * MINUTE_MS;

type Command =
  | { kind: 'create'; diner: number; slot: number; partySize: number }
  | { kind: 'confirm'; pick: number; withToken: boolean }
  | { kind: 'cancel'; pick: number; withToken: boolean }
  | { kind: 'advance'; minutes: number }
  | { kind: 'expire' }
  | { kind: 'staff'; pick: number; to: 'next' | 'CONFIRMED' | 'SEATED' | 'COMPLETED' | 'CANCELLED' | 'NO_SHOW' };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), diner: fc.nat(2), slot: fc.nat(1), partySize: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('confirm' as const), pick: fc.nat(), withToken: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(), withToken: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 45 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'expire' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('staff' as const),
      pick: fc.nat(),
      // 'next' is the move that carries a booking forward from where it is, so runs get deep into the machine.
      to: fc.constantFrom(
        'next' as const,
        'next' as const,
        'next' as const,
        'CONFIRMED' as const,
        'SEATED' as const,
        'COMPLETED' as const,
        'CANCELLED' as const,
        'NO_SHOW' as const,
      ),
    }),
  },
);

interface ModelReservation {
  id: string;
  diner: number;
  slot: number;
  partySize: number;
  /** As stored: a HELD past its expiry is still HELD until the sweep. */
  status: ReservationStatus;
  holdExpiresAt: number;
}

function effective(r: ModelReservation, now: number): ReservationStatus {
  return r.status === 'HELD' && now >= r.holdExpiresAt ? 'CANCELLED' : r.status;
}
function isActive(r: ModelReservation, now: number): boolean {
  return ['HELD', 'PENDING', 'CONFIRMED', 'SEATED'].includes(effective(r, now));
}

interface World {
  slots: BuiltSlot[];
  startsAt: number[];
  diners: BuiltAccount[];
  staff: Principal;
  reservations: ModelReservation[];
}

async function buildWorld(capacities: [number, number]): Promise<World> {
  t.clock.set(TEST_NOW); // 10:00 in Kolkata; the slots start at 12:00 and 13:00
  // Earlier runs are over: their holds must not count in this run's sweep.
  await t.database.db.execute(sql`UPDATE reservations SET status = 'CANCELLED', cancel_reason = 'TEST_RUN_OVER' WHERE status = 'HELD'`);
  const restaurant = await buildRestaurant(t.database.db);
  const times = ['12:00', '13:00'];
  const slots = [
    await buildSlot(t.database.db, restaurant.id, { date: DATE, time: times[0], capacity: capacities[0] }),
    await buildSlot(t.database.db, restaurant.id, { date: DATE, time: times[1], capacity: capacities[1] }),
  ];
  const diners = [await buildDiner(t.database.db), await buildDiner(t.database.db), await buildDiner(t.database.db)];
  const staffAccount = await buildStaff(t.database.db, restaurant.id);
  return {
    slots: slots.map((slot) => ({ ...slot, slug: restaurant.slug }) as BuiltSlot & { slug: string }),
    startsAt: times.map((time) => kolkataInstant(DATE, time).getTime()),
    diners,
    staff: { kind: 'staff', staffId: staffAccount.id, restaurantId: restaurant.id },
    reservations: [],
  };
}

/** What the rules say a diner's create should answer. */
function expectedCreate(world: World, c: Extract<Command, { kind: 'create' }>, now: number): { status: 201 } | { status: 409; error: string } {
  const mine = world.reservations.filter((r) => r.diner === c.diner && isActive(r, now));
  if (mine.filter((r) => effective(r, now) === 'HELD').length >= 2) {
    return { status: 409, error: 'You already have 2 holds waiting. Confirm or cancel one first.' };
  }
  if (mine.some((r) => r.slot === c.slot)) return { status: 409, error: 'You already have a reservation at that date and time' };
  const taken = world.reservations.filter((r) => r.slot === c.slot && isActive(r, now)).reduce((sum, r) => sum + r.partySize, 0);
  if (world.startsAt[c.slot] <= now + CUTOFF_MS || world.slots[c.slot].capacity - taken < c.partySize) {
    return { status: 409, error: 'That time is no longer available' };
  }
  return { status: 201 };
}

/** The status a move leads to, or null when the rules refuse it. */
function expectedMove(r: ModelReservation, actor: 'diner' | 'staff', to: ReservationStatus, now: number, startsAt: number): ReservationStatus | null {
  const from = effective(r, now);
  if (actor === 'diner') {
    if (to === 'PENDING') return from === 'HELD' ? 'PENDING' : null;
    if (from === 'HELD' || from === 'PENDING') return 'CANCELLED';
    if (from === 'CONFIRMED' && startsAt - now >= 120 * MINUTE_MS) return 'CANCELLED';
    return null;
  }
  const allowed: Record<string, ReservationStatus[]> = {
    CONFIRMED: ['PENDING'],
    SEATED: ['CONFIRMED'],
    COMPLETED: ['SEATED'],
    CANCELLED: ['PENDING', 'CONFIRMED'],
    NO_SHOW: ['CONFIRMED'],
  };
  if (!allowed[to].includes(from)) return null;
  if (to === 'NO_SHOW' && now < startsAt + 15 * MINUTE_MS) return null;
  return to;
}

/** Which moves the runs actually made, to show they reached deep into the state machine. */
const movesMade = new Map<string, number>();
function recordMove(name: string): void {
  movesMade.set(name, (movesMade.get(name) ?? 0) + 1);
}

async function step(world: World, c: Command): Promise<void> {
  const now = t.clock.now().getTime();
  // Mostly a booking still in play (moves on ended ones are refused, which is tested too, but teaches less).
  const pick = (n: number) => {
    const inPlay = world.reservations.filter((r) => !['COMPLETED', 'CANCELLED', 'NO_SHOW'].includes(effective(r, now)));
    const pool = n % 4 === 0 || inPlay.length === 0 ? world.reservations : inPlay;
    return pool.length === 0 ? undefined : pool[Math.floor(n / 4) % pool.length];
  };
  switch (c.kind) {
    case 'create': {
      const slot = world.slots[c.slot] as BuiltSlot & { slug: string };
      const response = await requestHold(t.app, world.diners[c.diner].token, {
        restaurantSlug: slot.slug,
        date: slot.date,
        time: slot.time,
        partySize: c.partySize,
      });
      const expected = expectedCreate(world, c, now);
      expect(response.statusCode, response.body).toBe(expected.status);
      if (expected.status === 409) expect(response.json().error).toBe(expected.error);
      else
        world.reservations.push({ id: response.json().id, diner: c.diner, slot: c.slot, partySize: c.partySize, status: 'HELD', holdExpiresAt: now + HOLD_MS });
      return;
    }
    case 'confirm':
    case 'cancel': {
      const r = pick(c.pick);
      if (!r) return;
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/reservations/${r.id}/${c.kind}`,
        headers: c.withToken ? bearer(world.diners[r.diner].token) : {},
        payload: {},
      });
      // The id alone moves only a hold (stored HELD); anything later needs the owner's token (decision 097).
      if (!c.withToken && r.status !== 'HELD') {
        expect(response.statusCode, `${c.kind} of ${effective(r, now)} with no token: ${response.body}`).toBe(401);
        expect(response.json().error).toContain(effective(r, now));
        return;
      }
      const next = expectedMove(r, 'diner', c.kind === 'confirm' ? 'PENDING' : 'CANCELLED', now, world.startsAt[r.slot]);
      expect(response.statusCode, `${c.kind} of ${effective(r, now)}: ${response.body}`).toBe(next ? 200 : 409);
      if (next) {
        expect(response.json().status).toBe(next);
        recordMove(`${effective(r, now)}→${next} by diner`);
        r.status = next;
      } else {
        expect(response.json().error).toContain(effective(r, now));
      }
      return;
    }
    case 'staff': {
      const r = pick(c.pick);
      if (!r) return;
      const forward: Partial<Record<ReservationStatus, ReservationStatus>> = {
        PENDING: 'CONFIRMED',
        CONFIRMED: now >= world.startsAt[r.slot] + 15 * MINUTE_MS ? 'NO_SHOW' : 'SEATED',
        SEATED: 'COMPLETED',
      };
      const to = c.to === 'next' ? (forward[effective(r, now)] ?? 'CONFIRMED') : c.to;
      const next = expectedMove(r, 'staff', to, now, world.startsAt[r.slot]);
      try {
        const result = await t.app.services.reservations.moveReservationAsStaff(world.staff, r.id, to);
        expect(next, `staff ${effective(r, now)} → ${to} was allowed`).toBe(to);
        expect(result.status).toBe(to);
        recordMove(`${effective(r, now)}→${to} by staff`);
        r.status = to;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        expect(next, `staff ${effective(r, now)} → ${to}: ${error.message}`).toBeNull();
        expect(error.status).toBe(409);
        expect(error.message).toContain(effective(r, now));
      }
      return;
    }
    case 'advance':
      t.clock.advance(c.minutes * MINUTE_MS);
      return;
    case 'expire': {
      const due = world.reservations.filter((r) => r.status === 'HELD' && now >= r.holdExpiresAt);
      expect(await t.app.services.reservations.expireDueHolds()).toBe(due.length);
      for (const r of due) r.status = 'CANCELLED';
      if (due.length > 0) recordMove('HELD→CANCELLED by system');
      return;
    }
  }
}

async function checkInvariant(world: World): Promise<void> {
  const now = t.clock.now();
  for (let i = 0; i < world.slots.length; i++) {
    const held = await coversHeld(t.database.db, world.slots[i].id, now);
    expect(held).toBeLessThanOrEqual(world.slots[i].capacity);
    const modelled = world.reservations.filter((r) => r.slot === i && isActive(r, now.getTime())).reduce((sum, r) => sum + r.partySize, 0);
    expect(held).toBe(modelled);
  }
}

describe('covers never exceed capacity', () => {
  it('under random interleavings of holds, confirms, cancels, expiry and staff moves', async () => {
    let steps = 0;
    let holdsPlaced = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 })),
        fc.array(command, { minLength: 5, maxLength: 40 }),
        async (capacities, commands) => {
          const world = await buildWorld(capacities);
          for (const c of commands) {
            await step(world, c);
            await checkInvariant(world);
            steps++;
          }
          holdsPlaced += world.reservations.length;
        },
      ),
      { numRuns: 40 },
    );
    // The runs did book tables, not only get refused.
    expect(steps).toBeGreaterThan(200);
    expect(holdsPlaced).toBeGreaterThan(15);
    const summary = JSON.stringify([...movesMade]);
    expect(movesMade.get('HELD→PENDING by diner') ?? 0, summary).toBeGreaterThan(0);
    expect(
      [...movesMade.values()].reduce((a, b) => a + b, 0),
      summary,
    ).toBeGreaterThan(10);
    expect(movesMade.size, summary).toBeGreaterThanOrEqual(4);
  }, 60_000);
});
