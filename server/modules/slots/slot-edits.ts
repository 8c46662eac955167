import type { AdminSlot, UpdateSlotBody } from '#common/contract/portal.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import { deleteSlot, lockSlotForEdit, updateSlotCapacity, updateSlotStatus } from './slots.repository.ts';

export const SLOT_NOT_FOUND = 'Slot not found';

/**
 * Staff edit and delete their own slots (decision 225): a change that would lose a booking is
 * refused with a 409 that says why and what to do instead. Each runs under the slot's row lock,
 * so a booking arriving meanwhile waits and is counted.
 */
export function createSlotEdits(
  { db, clock, events }: Pick<AppDeps, 'db' | 'clock' | 'events'>,
  readSlot: (principal: Principal, slotId: string) => Promise<AdminSlot>,
) {
  return {
    /** PATCH /api/admin/slots/{id}: available or full, and/or a new capacity not below the covers booked. */
    async updateSlot(principal: Principal, slotId: string, change: UpdateSlotBody): Promise<AdminSlot> {
      requireStaff(principal);
      const freed = await db.transaction(async (tx) => {
        const slot = await lockSlotForEdit(tx, principal.restaurantId, slotId, clock.now());
        if (!slot) throw notFound(SLOT_NOT_FOUND);
        if (change.capacity !== undefined) {
          if (change.capacity < slot.covers_booked) {
            throw conflict(
              `This time has ${slot.covers_booked} covers booked, so its capacity cannot go below ${slot.covers_booked} without losing bookings. Cancel or move bookings first, or set it full to stop new ones.`,
            );
          }
          await updateSlotCapacity(tx, slotId, change.capacity);
        }
        if (change.status) await updateSlotStatus(tx, principal.restaurantId, slotId, change.status);
        return change.status === 'available' || (change.capacity ?? 0) > slot.covers_booked;
      });
      if (freed) events.publish('slot.freed', { slotId, restaurantId: principal.restaurantId });
      return readSlot(principal, slotId);
    },

    /** DELETE /api/admin/slots/{id}: only a time nobody has booked (a booking would go with it) and not a drop's. */
    async deleteSlot(principal: Principal, slotId: string): Promise<void> {
      requireStaff(principal);
      await db.transaction(async (tx) => {
        const slot = await lockSlotForEdit(tx, principal.restaurantId, slotId, clock.now());
        if (!slot) throw notFound(SLOT_NOT_FOUND);
        if (slot.drop_id) throw conflict('This time belongs to a drop: change it on the drop, or set it full to stop new bookings.');
        if (slot.reservations > 0) {
          throw conflict('This time has bookings on record, and deleting it would lose them. Set it full to stop new bookings instead.');
        }
        await deleteSlot(tx, slotId);
      });
    },
  };
}
