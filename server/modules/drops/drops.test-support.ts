import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { createDropBody } from '#common/contract/drops.ts';
import { queryRows, type Db } from '#server/db/client.ts';
import { holdsCovers } from '#server/modules/reservations/reservation-sql.ts';
import { bearer, type TestApp } from '#server/test/app.ts';
import { buildDiner, type BuiltAccount } from '#server/test/factories.ts';

/** Helpers shared by the drop tests. */

/** The entry window the drop tests use: from 10:30 Kolkata on TEST_NOW's date for a day. */
export const ENTRY_OPENS = '2026-11-23T05:00:00.000Z';
export const ENTRY_CLOSES = '2026-11-24T05:00:00.000Z';

let phoneCounter = 0;

/** A diner whose phone is already verified (the verification itself has its own tests). */
export async function buildVerifiedDiner(
  db: Db,
  phone = `+9199${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter++).padStart(5, '0')}`,
): Promise<BuiltAccount & { phone: string }> {
  const diner = await buildDiner(db, { name: `Verified ${phoneCounter}` });
  await db.execute(sql`UPDATE users SET verified_phone = ${phone}, phone = ${phone}, phone_verified_at = now() WHERE id = ${diner.id}`);
  return { ...diner, phone };
}

/** The portal's drop body (the contract's), with a title the helper fills in when it is left out. */
export type DropInput = Omit<z.input<typeof createDropBody>, 'title'> & { title?: string };

/** Creates a drop through the portal's API and answers its id. */
export async function createDrop(t: TestApp, staffToken: string, input: DropInput): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/api/admin/drops', headers: bearer(staffToken), payload: { title: 'Chef’s table', ...input } });
  if (response.statusCode !== 201) throw new Error(`drop not created: ${response.statusCode} ${response.body}`);
  return response.json().id as string;
}

export function enterDrop(t: TestApp, token: string, dropId: string, partySize = 2) {
  return t.app.inject({ method: 'POST', url: `/api/drops/${dropId}/entries`, headers: bearer(token), payload: { partySize } });
}

/** Each entry's id, user, arrival instant and drawn position. */
export function entriesOf(db: Db, dropId: string) {
  return queryRows<{ id: string; user_id: string; created_at: Date | string; position: number | null; status: string; reservation_id: string | null }>(
    db,
    sql`SELECT id, user_id, created_at, position, status, reservation_id FROM drop_entries WHERE drop_id = ${dropId} ORDER BY created_at, id`,
  );
}

/** Live holds and bookings on the drop's slots, with the entry position of their diner. */
export function dropReservations(db: Db, dropId: string, now: Date) {
  return queryRows<{ id: string; user_id: string; status: string; slot_id: string; party_size: number; position: number | null }>(
    db,
    sql`SELECT r.id, r.user_id, r.status, r.slot_id, r.party_size, e.position
        FROM reservations r JOIN slots s ON s.id = r.slot_id
        LEFT JOIN drop_entries e ON e.drop_id = s.drop_id AND e.user_id = r.user_id
        WHERE s.drop_id = ${dropId} AND ${holdsCovers(now, 'r')}
        ORDER BY e.position`,
  );
}

/** Spearman's rank correlation of two rankings of the same n items (no ties): 1 - 6Σd²/(n(n²-1)). */
export function spearman(a: number[], b: number[]): number {
  const n = a.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (a[i] - b[i]) ** 2;
  return 1 - (6 * sum) / (n * (n * n - 1));
}
