import { describe, expect, it } from 'vitest';
import { depositRequirementFor, noDepositPolicy, type DepositPolicy, type MoneyRequirement } from './deposit-policy.ts';
import { depositMoveFor, depositMoves, isLateCancel, type DepositMoveContext, type DepositTransition } from './deposit-moves.ts';
import { reservationTransitions, terminalStatuses } from './reservation-status.ts';
import { kolkataInstant, MINUTE_MS } from './time.ts';

const startsAt = kolkataInstant('2026-11-25', '21:30');
const policy: DepositPolicy = {
  ...noDepositPolicy,
  defaultCharge: { kind: 'deposit', perCoverPaise: 25_000 },
  lateCancelKeepPercent: 50,
  noShowKeepPercent: 100,
};
const requirement = depositRequirementFor(policy, { startsAt, covers: 2 }) as MoneyRequirement;
const beforeDeadline = new Date(requirement.freeCancelUntil.getTime() - MINUTE_MS);
const atDeadline = requirement.freeCancelUntil;

function context(overrides: Partial<DepositMoveContext> = {}): DepositMoveContext {
  return { now: beforeDeadline, requirement, authorised: true, ...overrides };
}
const move = (transition: DepositTransition, overrides: Partial<DepositMoveContext> = {}) => depositMoveFor(transition, context(overrides));

describe('the money-moves table', () => {
  it('has a row for every move of the reservation state machine', () => {
    for (const transition of reservationTransitions) {
      const rows = depositMoves.filter((row) => !row.event && row.from === transition.from && row.to === transition.to && row.actor === transition.actor);
      expect(rows.length, `${transition.from}→${transition.to} by ${transition.actor}`).toBeGreaterThan(0);
    }
  });

  it('names no status move the state machine lacks, and money events only on terminal statuses', () => {
    for (const row of depositMoves) {
      if (row.event) {
        expect(row.from).toBe(row.to);
        expect(terminalStatuses).toContain(row.from);
      } else {
        expect(reservationTransitions.some((t) => t.from === row.from && t.to === row.to && t.actor === row.actor)).toBe(true);
      }
    }
  });

  it('decides every state-machine move whatever the time and payment (the conditions of a move cover all cases)', () => {
    for (const transition of reservationTransitions) {
      for (const now of [beforeDeadline, atDeadline, new Date(startsAt.getTime() + 30 * MINUTE_MS)]) {
        for (const authorised of [true, false]) {
          expect(move(transition, { now, authorised }).rule, `${transition.from}→${transition.to} by ${transition.actor}`).not.toBeNull();
        }
      }
    }
  });

  it('says what each capture keeps', () => {
    for (const row of depositMoves) expect(row.keep !== undefined).toBe(row.move === 'capture_keep');
  });
});

describe('depositMoveFor', () => {
  it('credits the whole deposit at the table when the diner is seated', () => {
    expect(move({ from: 'CONFIRMED', to: 'SEATED', actor: 'staff' })).toMatchObject({ move: 'credit_at_table', capturePaise: 50_000 });
  });

  it('releases a cancel in time in full, up to the instant before the deadline', () => {
    expect(move({ from: 'CONFIRMED', to: 'CANCELLED', actor: 'diner' })).toMatchObject({ move: 'release', capturePaise: 0 });
  });

  it('keeps the late share from the deadline on, and the no-show share on a no-show', () => {
    expect(move({ from: 'CONFIRMED', to: 'CANCELLED', actor: 'diner' }, { now: atDeadline })).toMatchObject({ move: 'capture_keep', capturePaise: 25_000 });
    expect(move({ from: 'CONFIRMED', to: 'NO_SHOW', actor: 'staff' }, { now: new Date(startsAt.getTime() + 20 * MINUTE_MS) })).toMatchObject({
      move: 'capture_keep',
      capturePaise: 50_000,
    });
    expect(isLateCancel(requirement, beforeDeadline)).toBe(false);
    expect(isLateCancel(requirement, atDeadline)).toBe(true);
  });

  it('waives a late fee when the covers are sold again, and only for a late cancel', () => {
    const resold: DepositTransition = { from: 'CANCELLED', to: 'CANCELLED', actor: 'system', event: 'tableResold' };
    expect(move(resold, { wasLateCancel: true })).toMatchObject({ move: 'waive' });
    expect(move(resold, { wasLateCancel: false })).toMatchObject({ move: 'none', rule: null });
  });

  it('lets staff waive a no-show or late-cancel fee, and an upheld dispute waive a no-show fee', () => {
    expect(move({ from: 'NO_SHOW', to: 'NO_SHOW', actor: 'staff', event: 'staffWaiver' })).toMatchObject({ move: 'waive' });
    expect(move({ from: 'CANCELLED', to: 'CANCELLED', actor: 'staff', event: 'staffWaiver' }, { wasLateCancel: true })).toMatchObject({ move: 'waive' });
    expect(move({ from: 'NO_SHOW', to: 'NO_SHOW', actor: 'staff', event: 'disputeUpheld' })).toMatchObject({ move: 'waive' });
    expect(move({ from: 'NO_SHOW', to: 'NO_SHOW', actor: 'diner', event: 'staffWaiver' })).toMatchObject({ move: 'none', rule: null });
  });

  it('moves no money on a hold given up or expired before paying, and releases one paid for', () => {
    for (const actor of ['diner', 'system'] as const) {
      expect(move({ from: 'HELD', to: 'CANCELLED', actor }, { authorised: false })).toMatchObject({ move: 'none' });
      expect(move({ from: 'HELD', to: 'CANCELLED', actor }, { authorised: true })).toMatchObject({ move: 'release' });
    }
  });

  it('never charges when the restaurant cancels, or a booking it had not accepted is cancelled', () => {
    for (const transition of [
      { from: 'PENDING', to: 'CANCELLED', actor: 'staff' },
      { from: 'CONFIRMED', to: 'CANCELLED', actor: 'staff' },
      { from: 'PENDING', to: 'CANCELLED', actor: 'diner' },
    ] as const) {
      expect(move(transition, { now: atDeadline })).toMatchObject({ move: 'release', capturePaise: 0 });
    }
  });

  it('moves nothing at all for a booking without a deposit', () => {
    for (const transition of reservationTransitions) {
      expect(move(transition, { requirement: { kind: 'none' }, now: atDeadline })).toEqual({ move: 'none', capturePaise: 0, rule: null });
    }
  });
});
