import { normalizeDatingPhone } from '#common/domain/dating-profile.ts';
import type { Db } from '#server/db/client.ts';
import type { AccountDirectory } from '#server/modules/accounts/password-reset.service.ts';
import { findMemberPhone, setMemberPasswordHash } from './dating-recovery.repository.ts';

/**
 * A dating member's account as "Forgot password" needs it (decision 230): found by the phone they
 * signed up with, which its code proved (decision 101), and texted there.
 */
export function createDatingRecovery(): AccountDirectory {
  return {
    async findAccount(tx: Db, identifier: string) {
      const member = await findMemberPhone(tx, normalizeDatingPhone(identifier));
      return member && { id: member.id, sendTo: { channel: 'sms' as const, address: member.phone } };
    },
    setPasswordHash: (tx: Db, memberId: string, passwordHash: string) => setMemberPasswordHash(tx, memberId, passwordHash),
  };
}
