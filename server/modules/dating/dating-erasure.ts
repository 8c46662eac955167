import { randomInt } from 'node:crypto';
import type { Db } from '#server/db/client.ts';
import type { PushService } from '#server/modules/notifications/push.service.ts';
import type { StorageService } from '#server/modules/storage/storage.service.ts';
import { deleteMemberPhotos, deleteSignupsOfPhone, emptyMember, lockMemberOnPhone } from './dating-erasure.repository.ts';

/**
 * A diner's dating profile and photos, erased with their diner account (decision 266). The dating
 * account is the one on the diner's verified phone (dating accounts prove their phone at signup,
 * so only a phone the diner proved is theirs links the two). The member's row stays, emptied and
 * suspended, because their past date plans and the other member's history point at it; the
 * profile, the photos, the pending signups, the sessions and the push subscriptions go.
 */
export function createDatingErasure(storage: StorageService, push: Pick<PushService, 'eraseDatingMember'>) {
  return {
    /** Empties the dating account on `phone` in `tx`; answers the photo keys to delete once `tx` commits. */
    async eraseMemberOnPhone(tx: Db, phone: string, now: Date): Promise<string[]> {
      await deleteSignupsOfPhone(tx, phone);
      const memberId = await lockMemberOnPhone(tx, phone);
      if (!memberId) return [];
      const keys = await deleteMemberPhotos(tx, memberId);
      // No push reaches the member's browsers again (decision 219).
      await push.eraseDatingMember(tx, memberId);
      // A phone no one can hold ('+00…' has no country), unique like every member's.
      await emptyMember(tx, memberId, `+00${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(1e5)).padStart(5, '0')}`, now);
      return keys;
    },

    /** Deletes the photos' files after the erasure committed; a file already gone is fine. */
    async deletePhotoFiles(keys: readonly string[]): Promise<void> {
      for (const key of keys) await storage.deleteObject(key).catch(() => undefined);
    },
  };
}

export type DatingErasure = ReturnType<typeof createDatingErasure>;
