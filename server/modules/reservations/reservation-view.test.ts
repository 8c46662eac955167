import { describe, expect, it } from 'vitest';
import type { ReservationRow } from './reservations.repository.ts';
import { toDinerReservation } from './reservation-view.ts';

const row = (change: Partial<ReservationRow>): ReservationRow => ({
  id: '00000000-0000-4000-8000-000000000001',
  user_id: 'u',
  restaurant_id: 'r',
  restaurant_slug: 'coastal-curry-co',
  restaurant_name: 'Coastal Curry Co.',
  restaurant_emoji: '🍛',
  restaurant_neighborhood: 'Indiranagar',
  slot_id: 's',
  party_size: 2,
  status: 'HELD',
  hold_expires_at: new Date('2026-11-23T05:00:00Z'),
  starts_at: new Date('2026-11-23T14:00:00Z'),
  created_at: new Date('2026-11-23T04:55:00Z'),
  slot_date: '2026-11-23',
  slot_time: '19:30',
  cancel_reason: null,
  ...change,
});

describe('a hold that ran out', () => {
  const now = new Date('2026-11-23T05:10:00Z');
  it('reads as expired, swept or not, and a diner cancel does not', () => {
    expect(toDinerReservation(row({}), now)).toMatchObject({ status: 'CANCELLED', expired: true });
    expect(toDinerReservation(row({ status: 'CANCELLED', cancel_reason: 'HOLD_EXPIRED' }), now)).toMatchObject({ status: 'CANCELLED', expired: true });
    expect(toDinerReservation(row({ status: 'CANCELLED', cancel_reason: 'DINER_CANCELLED' }), now).expired).toBeUndefined();
    expect(toDinerReservation(row({}), new Date('2026-11-23T04:58:00Z')).expired).toBeUndefined();
  });
});
