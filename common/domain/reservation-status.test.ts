import { describe, expect, it } from 'vitest';
import {
  checkTransition,
  coverHoldingStatuses,
  effectiveStatus,
  isLiveHold,
  DINER_CANCEL_NOTICE_MINUTES,
  isHoldingCovers,
  movesFrom,
  NO_SHOW_GRACE_MINUTES,
  reservationStatuses,
  reservationTransitions,
  summaryBuckets,
  terminalStatuses,
  type ReservationActor,
  type ReservationStatus,
  type TransitionContext,
} from './reservation-status.ts';
import { MINUTE_MS } from './time.ts';

const actors: ReservationActor[] = ['diner', 'staff', 'system'];

/**
 * The state machine as docs/architecture.md documents it, copied out by hand so that the table in
 * reservation-status.ts is checked against the document rather than against itself.
 */
const documentedMoves: [ReservationStatus, ReservationStatus, ReservationActor][] = [
  ['HELD', 'PENDING', 'diner'], // confirm before holdExpiresAt
  ['HELD', 'CANCELLED', 'diner'], // Cancel Hold
  ['HELD', 'CANCELLED', 'system'], // expiry
  ['PENDING', 'CONFIRMED', 'staff'],
  ['PENDING', 'CANCELLED', 'diner'],
  ['PENDING', 'CANCELLED', 'staff'],
  ['CONFIRMED', 'SEATED', 'staff'],
  ['CONFIRMED', 'CANCELLED', 'diner'], // >= 2 h ahead
  ['CONFIRMED', 'CANCELLED', 'staff'], // any time
  ['CONFIRMED', 'NO_SHOW', 'staff'], // after start + 15 min
  ['SEATED', 'COMPLETED', 'staff'],
  // Tablefair dates (decision 184, docs/architecture.md): the platform books and settles its own holds for two.
  ['HELD', 'CONFIRMED', 'system'], // both members paid, before the hold's expiry
  ['CONFIRMED', 'SEATED', 'system'], // after start + 15 min, one member came
  ['CONFIRMED', 'NO_SHOW', 'system'], // after start + 15 min, neither came
];
const key = (from: string, to: string, actor: string) => `${from}→${to} by ${actor}`;
const documented = new Set(documentedMoves.map(([from, to, actor]) => key(from, to, actor)));

const startsAt = new Date('2026-11-23T14:00:00.000Z'); // 19:30 in Kolkata
const holdExpiresAt = new Date('2026-11-23T04:40:00.000Z');

/** A moment at which every guard of `guard`'s move holds. */
function contextWhereGuardHolds(guard: string | undefined): TransitionContext {
  switch (guard) {
    case 'holdUnexpired':
      return { now: new Date(holdExpiresAt.getTime() - 1), holdExpiresAt, startsAt };
    case 'holdExpired':
      return { now: holdExpiresAt, holdExpiresAt, startsAt };
    case 'atLeastTwoHoursAhead':
      return { now: new Date(startsAt.getTime() - DINER_CANCEL_NOTICE_MINUTES * MINUTE_MS), holdExpiresAt: null, startsAt };
    case 'noShowWindowOpen':
      return { now: new Date(startsAt.getTime() + NO_SHOW_GRACE_MINUTES * MINUTE_MS), holdExpiresAt: null, startsAt };
    default:
      return { now: new Date(holdExpiresAt.getTime() - 5 * MINUTE_MS), holdExpiresAt, startsAt };
  }
}

/** Contexts covering every guard's both sides, to show a non-move is refused whatever the time. */
const everyContext: TransitionContext[] = [
  { now: new Date(holdExpiresAt.getTime() - MINUTE_MS), holdExpiresAt, startsAt },
  { now: holdExpiresAt, holdExpiresAt, startsAt },
  { now: new Date(startsAt.getTime() - 3 * 60 * MINUTE_MS), holdExpiresAt: null, startsAt },
  { now: new Date(startsAt.getTime() - 30 * MINUTE_MS), holdExpiresAt: null, startsAt },
  { now: new Date(startsAt.getTime() + 20 * MINUTE_MS), holdExpiresAt, startsAt },
];

describe('the transitions table', () => {
  it('is exactly the specified state machine, move for move', () => {
    const table = reservationTransitions.map((t) => key(t.from, t.to, t.actor));
    expect(new Set(table).size).toBe(table.length);
    expect(new Set(table)).toEqual(documented);
  });

  it('puts the documented guards on the documented moves only', () => {
    const guards = Object.fromEntries(reservationTransitions.map((t) => [key(t.from, t.to, t.actor), t.guard ?? null]));
    expect(guards).toEqual({
      [key('HELD', 'PENDING', 'diner')]: 'holdUnexpired',
      [key('HELD', 'CANCELLED', 'diner')]: null,
      [key('HELD', 'CANCELLED', 'system')]: 'holdExpired',
      [key('PENDING', 'CONFIRMED', 'staff')]: null,
      [key('PENDING', 'CANCELLED', 'diner')]: null,
      [key('PENDING', 'CANCELLED', 'staff')]: null,
      [key('CONFIRMED', 'SEATED', 'staff')]: null,
      [key('CONFIRMED', 'CANCELLED', 'diner')]: 'atLeastTwoHoursAhead',
      [key('CONFIRMED', 'CANCELLED', 'staff')]: null,
      [key('CONFIRMED', 'NO_SHOW', 'staff')]: 'noShowWindowOpen',
      [key('SEATED', 'COMPLETED', 'staff')]: null,
      [key('HELD', 'CONFIRMED', 'system')]: 'holdUnexpired',
      [key('CONFIRMED', 'SEATED', 'system')]: 'noShowWindowOpen',
      [key('CONFIRMED', 'NO_SHOW', 'system')]: 'noShowWindowOpen',
    });
  });

  it('has no move out of a terminal status', () => {
    for (const status of terminalStatuses) {
      for (const actor of actors) expect(movesFrom(status, actor)).toEqual([]);
    }
  });
});

describe('checkTransition: every allowed move', () => {
  for (const transition of reservationTransitions) {
    it(`allows ${key(transition.from, transition.to, transition.actor)} when its guard holds`, () => {
      const check = checkTransition(transition.from, transition.to, transition.actor, contextWhereGuardHolds(transition.guard));
      expect(check).toEqual({ allowed: true, transition });
    });
  }
});

describe('checkTransition: every refused move of the status × status × actor product', () => {
  const refusals: [ReservationStatus, ReservationStatus, ReservationActor][] = [];
  for (const from of reservationStatuses) {
    for (const to of reservationStatuses) {
      for (const actor of actors) if (!documented.has(key(from, to, actor))) refusals.push([from, to, actor]);
    }
  }

  it('covers the whole product minus the documented moves', () => {
    expect(refusals.length).toBe(reservationStatuses.length ** 2 * actors.length - documentedMoves.length);
  });

  it.each(refusals)('refuses %s → %s by %s at any time', (from, to, actor) => {
    for (const context of everyContext) {
      expect(checkTransition(from, to, actor, context)).toEqual({ allowed: false, reason: 'not_a_move' });
    }
  });
});

describe('checkTransition: guards', () => {
  it('lets a diner confirm a hold up to, but not at, its expiry instant', () => {
    const before = { now: new Date(holdExpiresAt.getTime() - 1), holdExpiresAt, startsAt };
    const at = { now: holdExpiresAt, holdExpiresAt, startsAt };
    const after = { now: new Date(holdExpiresAt.getTime() + MINUTE_MS), holdExpiresAt, startsAt };
    expect(checkTransition('HELD', 'PENDING', 'diner', before).allowed).toBe(true);
    expect(checkTransition('HELD', 'PENDING', 'diner', at)).toEqual({ allowed: false, reason: 'hold_expired' });
    expect(checkTransition('HELD', 'PENDING', 'diner', after)).toEqual({ allowed: false, reason: 'hold_expired' });
    expect(checkTransition('HELD', 'PENDING', 'diner', { now: before.now, holdExpiresAt: null, startsAt })).toEqual({
      allowed: false,
      reason: 'hold_expired',
    });
  });

  it('lets a diner cancel a hold whether or not it has expired', () => {
    for (const context of everyContext) expect(checkTransition('HELD', 'CANCELLED', 'diner', context).allowed).toBe(true);
  });

  it('lets the system expire a hold only from its expiry instant on', () => {
    expect(checkTransition('HELD', 'CANCELLED', 'system', { now: new Date(holdExpiresAt.getTime() - 1), holdExpiresAt, startsAt })).toEqual({
      allowed: false,
      reason: 'hold_not_expired',
    });
    expect(checkTransition('HELD', 'CANCELLED', 'system', { now: holdExpiresAt, holdExpiresAt, startsAt }).allowed).toBe(true);
  });

  it('lets a diner cancel an accepted reservation only at least 2 hours ahead', () => {
    const twoHoursAhead = new Date(startsAt.getTime() - 120 * MINUTE_MS);
    expect(checkTransition('CONFIRMED', 'CANCELLED', 'diner', { now: twoHoursAhead, holdExpiresAt: null, startsAt }).allowed).toBe(true);
    expect(checkTransition('CONFIRMED', 'CANCELLED', 'diner', { now: new Date(twoHoursAhead.getTime() - 1), holdExpiresAt: null, startsAt }).allowed).toBe(
      true,
    );
    expect(checkTransition('CONFIRMED', 'CANCELLED', 'diner', { now: new Date(twoHoursAhead.getTime() + 1), holdExpiresAt: null, startsAt })).toEqual({
      allowed: false,
      reason: 'too_late_to_cancel',
    });
    expect(checkTransition('CONFIRMED', 'CANCELLED', 'diner', { now: new Date(startsAt.getTime() + MINUTE_MS), holdExpiresAt: null, startsAt })).toEqual({
      allowed: false,
      reason: 'too_late_to_cancel',
    });
  });

  it('lets staff cancel an accepted reservation at any time', () => {
    for (const context of everyContext) expect(checkTransition('CONFIRMED', 'CANCELLED', 'staff', context).allowed).toBe(true);
  });

  it('lets staff mark a no-show only from 15 minutes after the start', () => {
    const windowOpens = new Date(startsAt.getTime() + 15 * MINUTE_MS);
    expect(checkTransition('CONFIRMED', 'NO_SHOW', 'staff', { now: new Date(windowOpens.getTime() - 1), holdExpiresAt: null, startsAt })).toEqual({
      allowed: false,
      reason: 'too_early_for_no_show',
    });
    expect(checkTransition('CONFIRMED', 'NO_SHOW', 'staff', { now: startsAt, holdExpiresAt: null, startsAt })).toEqual({
      allowed: false,
      reason: 'too_early_for_no_show',
    });
    expect(checkTransition('CONFIRMED', 'NO_SHOW', 'staff', { now: windowOpens, holdExpiresAt: null, startsAt }).allowed).toBe(true);
    expect(
      checkTransition('CONFIRMED', 'NO_SHOW', 'staff', { now: new Date(windowOpens.getTime() + 60 * MINUTE_MS), holdExpiresAt: null, startsAt }).allowed,
    ).toBe(true);
  });
});

describe('covers and summaries', () => {
  it('counts a hold only until its expiry instant, and PENDING/CONFIRMED/SEATED always', () => {
    const now = new Date(holdExpiresAt.getTime() - 1);
    expect(isHoldingCovers('HELD', holdExpiresAt, now)).toBe(true);
    expect(isHoldingCovers('HELD', holdExpiresAt, holdExpiresAt)).toBe(false);
    expect(isHoldingCovers('HELD', null, now)).toBe(false);
    for (const status of reservationStatuses.filter((s) => s !== 'HELD')) {
      expect(isHoldingCovers(status, null, now)).toBe(['PENDING', 'CONFIRMED', 'SEATED'].includes(status));
    }
    expect([...coverHoldingStatuses].sort()).toEqual(['CONFIRMED', 'HELD', 'PENDING', 'SEATED']);
  });

  it('buckets the diner summary as pending = HELD + PENDING, ongoing = CONFIRMED + SEATED, completed = COMPLETED', () => {
    expect(summaryBuckets).toEqual({ pending: ['HELD', 'PENDING'], ongoing: ['CONFIRMED', 'SEATED'], completed: ['COMPLETED'] });
  });

  it('offers the buttons of each status per actor', () => {
    expect(movesFrom('HELD', 'diner').map((t) => t.label)).toEqual(['Confirm', 'Cancel Hold']);
    expect(
      movesFrom('CONFIRMED', 'staff')
        .map((t) => t.to)
        .sort(),
    ).toEqual(['CANCELLED', 'NO_SHOW', 'SEATED']);
    expect(
      movesFrom('PENDING', 'staff')
        .map((t) => t.to)
        .sort(),
    ).toEqual(['CANCELLED', 'CONFIRMED']);
    expect(movesFrom('SEATED', 'diner')).toEqual([]);
  });
});

describe('effectiveStatus and isLiveHold', () => {
  const now = new Date('2026-11-23T10:00:00Z');
  const later = new Date('2026-11-23T10:05:00Z');
  it('reads a hold past its expiry as CANCELLED, and nothing else differently', () => {
    expect(effectiveStatus('HELD', later, now)).toBe('HELD');
    expect(effectiveStatus('HELD', now, now)).toBe('CANCELLED');
    expect(effectiveStatus('HELD', now.toISOString(), later)).toBe('CANCELLED');
    for (const status of reservationStatuses.filter((s) => s !== 'HELD')) expect(effectiveStatus(status, now, later)).toBe(status);
    expect(isLiveHold('HELD', later, now)).toBe(true);
    expect(isLiveHold('HELD', now, now)).toBe(false);
    expect(isLiveHold('PENDING', later, now)).toBe(false);
    expect(isLiveHold(null, later, now)).toBe(false);
  });
});

describe('a booking that carries a deposit (decision 121)', () => {
  const confirmedAt = (now: Date, carriesDeposit?: boolean): TransitionContext => ({ now, holdExpiresAt: null, startsAt, carriesDeposit });

  it('may be cancelled by its diner after the 2-hour notice, up to but not at its start', () => {
    const thirtyMinutesAhead = new Date(startsAt.getTime() - 30 * MINUTE_MS);
    expect(checkTransition('CONFIRMED', 'CANCELLED', 'diner', confirmedAt(thirtyMinutesAhead, true)).allowed).toBe(true);
    expect(checkTransition('CONFIRMED', 'CANCELLED', 'diner', confirmedAt(new Date(startsAt.getTime() - 1), true)).allowed).toBe(true);
    expect(checkTransition('CONFIRMED', 'CANCELLED', 'diner', confirmedAt(startsAt, true))).toEqual({ allowed: false, reason: 'too_late_to_cancel' });
  });

  it('keeps the 2-hour rule when there is no deposit', () => {
    const thirtyMinutesAhead = new Date(startsAt.getTime() - 30 * MINUTE_MS);
    expect(checkTransition('CONFIRMED', 'CANCELLED', 'diner', confirmedAt(thirtyMinutesAhead, false))).toEqual({
      allowed: false,
      reason: 'too_late_to_cancel',
    });
    expect(checkTransition('CONFIRMED', 'CANCELLED', 'diner', confirmedAt(thirtyMinutesAhead))).toEqual({ allowed: false, reason: 'too_late_to_cancel' });
  });

  it('can never turn a cancelled reservation into a no-show, deposit or not', () => {
    for (const carriesDeposit of [true, false]) {
      for (const actor of actors) {
        expect(checkTransition('CANCELLED', 'NO_SHOW', actor, confirmedAt(new Date(startsAt.getTime() + 60 * MINUTE_MS), carriesDeposit))).toEqual({
          allowed: false,
          reason: 'not_a_move',
        });
      }
    }
  });
});

describe('a table released from a reminder (decision 152)', () => {
  const releasedAt = (now: Date): TransitionContext => ({ now, holdExpiresAt: null, startsAt, releasedFromReminder: true });

  it('may be given back by its diner inside the 2-hour notice, up to but not at its start', () => {
    const thirtyMinutesAhead = new Date(startsAt.getTime() - 30 * MINUTE_MS);
    expect(checkTransition('CONFIRMED', 'CANCELLED', 'diner', releasedAt(thirtyMinutesAhead)).allowed).toBe(true);
    expect(checkTransition('CONFIRMED', 'CANCELLED', 'diner', releasedAt(startsAt))).toEqual({ allowed: false, reason: 'too_late_to_cancel' });
  });

  it('gives the diner no other move', () => {
    expect(checkTransition('CONFIRMED', 'NO_SHOW', 'diner', releasedAt(new Date(startsAt.getTime() - 30 * MINUTE_MS)))).toEqual({
      allowed: false,
      reason: 'not_a_move',
    });
  });
});
