import { describe, expect, it } from 'vitest';
import type { DinerReservation } from '#common/contract/reservations.ts';
import { countdownAnnouncement, countdownText, dinerActions, holdPath, isUpcoming, statusLabel } from './rules.ts';

const now = new Date('2026-11-22T12:00:00Z');

function reservation(overrides: Partial<DinerReservation>): DinerReservation {
  return {
    id: '7b0f4f7e-3c1e-4a59-9d1b-2f0a4b6c8d10',
    status: 'PENDING',
    partySize: 2,
    restaurant: { id: 'r1', name: 'Toit & Tandoor', slug: 'toit-tandoor', emoji: '🍛', neighborhood: 'Indiranagar' },
    slot: { date: '2026-11-24', time: '19:30' },
    holdExpiresAt: null,
    startsAt: '2026-11-24T14:00:00.000Z',
    createdAt: '2026-11-22T11:55:00.000Z',
    ...overrides,
  };
}

describe('what a diner can do from a list', () => {
  it('finishes a live hold on the hold screen, and cannot once it has run out', () => {
    expect(dinerActions(reservation({ status: 'HELD', holdExpiresAt: '2026-11-22T12:05:00.000Z' }), now)).toEqual({ completeBooking: true, cancel: false });
    expect(dinerActions(reservation({ status: 'HELD', holdExpiresAt: '2026-11-22T11:59:59.000Z' }), now)).toEqual({ completeBooking: false, cancel: false });
  });

  it('cancels a pending request any time, an accepted one only 2 hours ahead', () => {
    expect(dinerActions(reservation({ status: 'PENDING' }), now).cancel).toBe(true);
    expect(dinerActions(reservation({ status: 'CONFIRMED' }), now).cancel).toBe(true);
    expect(dinerActions(reservation({ status: 'CONFIRMED', startsAt: '2026-11-22T13:30:00.000Z' }), now).cancel).toBe(false);
  });

  it('offers nothing once seated or ended', () => {
    for (const status of ['SEATED', 'COMPLETED', 'CANCELLED', 'NO_SHOW'] as const) {
      expect(dinerActions(reservation({ status }), now)).toEqual({ completeBooking: false, cancel: false });
    }
  });

  it("labels CONFIRMED as 'Accepted' and links holds to /r/{slug}/hold/{id}", () => {
    expect(statusLabel({ status: 'CONFIRMED' })).toBe('Accepted');
    expect(statusLabel({ status: 'PENDING' })).toBe('Pending');
    expect(holdPath(reservation({}))).toBe('/r/toit-tandoor/hold/7b0f4f7e-3c1e-4a59-9d1b-2f0a4b6c8d10');
  });

  it('groups live reservations as upcoming', () => {
    expect(isUpcoming(reservation({ status: 'PENDING' }), now)).toBe(true);
    expect(isUpcoming(reservation({ status: 'HELD', holdExpiresAt: '2026-11-22T11:00:00.000Z' }), now)).toBe(false);
    expect(isUpcoming(reservation({ status: 'CANCELLED' }), now)).toBe(false);
  });
});

describe('hold countdown', () => {
  it('shows minutes and seconds, never below zero', () => {
    expect(countdownText(581)).toBe('9:41');
    expect(countdownText(0)).toBe('0:00');
    expect(countdownText(-3)).toBe('0:00');
  });

  it('tells screen readers once a minute, at the last minute, and at zero', () => {
    expect(countdownAnnouncement(600)).toBe('10 minutes left to confirm your table.');
    expect(countdownAnnouncement(541)).toBe('10 minutes left to confirm your table.');
    expect(countdownAnnouncement(540)).toBe('9 minutes left to confirm your table.');
    expect(countdownAnnouncement(60)).toBe('1 minute left to confirm your table.');
    expect(countdownAnnouncement(1)).toBe('1 minute left to confirm your table.');
    expect(countdownAnnouncement(0)).toBe('Your hold has expired.');
    // Within one minute the text does not change from second to second.
    const texts = new Set(Array.from({ length: 59 }, (_, i) => countdownAnnouncement(481 + i)));
    expect(texts.size).toBe(1);
  });
});
