import { expect } from 'vitest';
import type { AdminFloor } from '#common/contract/floor.ts';
import type { AdminSlot } from '#common/contract/portal.ts';
import type { DinerReservation } from '#common/contract/reservations.ts';
import { apiClient, createDiner } from './fixtures.ts';

/** The booking a journey cancels to free a table: a rival diner's party of two. */
export interface BlockingBooking {
  rivalToken: string;
  reservationId: string;
}

/**
 * Makes a demo restaurant's evening full through the API, as its staff and rival diners would:
 * every slot of `date` but `time` marked full, and every online table at `time` booked and
 * confirmed by its own rival. Returns the 2-top's booking, whose cancel frees one table (the
 * waitlist and push journeys start from there).
 */
export async function fillTheEvening(
  api: ReturnType<typeof apiClient>,
  options: { restaurant: string; date: string; time: string; prefix: string },
): Promise<BlockingBooking> {
  const { restaurant, date, time, prefix } = options;
  const staff = await api<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: { username: restaurant, password: 'staff1234' } });
  expect(staff.status).toBe(200);
  const slots = await api<AdminSlot[]>(`/api/admin/slots?date=${date}`, { token: staff.body.token });
  expect(slots.status).toBe(200);
  const blocked = slots.body.find((slot) => slot.time === time);
  expect(blocked, `a ${time} slot on ${date}`).toBeTruthy();
  for (const slot of slots.body) {
    if (slot.id === blocked!.id) continue;
    expect((await api(`/api/admin/slots/${slot.id}`, { method: 'PATCH', token: staff.body.token, body: { status: 'full' } })).status).toBe(200);
  }
  const floor = await api<AdminFloor>('/api/admin/floor', { token: staff.body.token });
  expect(floor.status).toBe(200);
  const parties = floor.body.tables
    .filter((table) => table.onlineBookable)
    .map((table) => table.maxCovers)
    .sort((a, b) => b - a);
  // The tables seat exactly the slot's covers, so the slot is full by covers and by tables alike.
  expect(parties.reduce((sum, size) => sum + size, 0)).toBe(blocked!.capacity);
  const rivals: (BlockingBooking & { partySize: number })[] = [];
  for (const [index, partySize] of parties.entries()) {
    const rival = await createDiner(api, { prefix, name: `Rival ${index + 1}` });
    const held = await api<DinerReservation>('/api/reservations', {
      method: 'POST',
      token: rival.token,
      body: { restaurantSlug: restaurant, date, time, partySize },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    expect((await api(`/api/reservations/${held.body.id}/confirm`, { method: 'POST', body: {} })).status).toBe(200);
    rivals.push({ rivalToken: rival.token, reservationId: held.body.id, partySize });
  }
  const blocking = rivals.find((rival) => rival.partySize === 2);
  expect(blocking, 'a 2-top on the floor').toBeTruthy();
  return { rivalToken: blocking!.rivalToken, reservationId: blocking!.reservationId };
}
