import type { StaffAccountList, StaffPasswordSet } from '#common/contract/password-reset.ts';
import type { AppDeps } from '#server/deps.ts';
import { notFound } from '#server/errors.ts';
import { refusePublishedPassword } from './demo-passwords.ts';
import { hashPassword } from './password.ts';
import { findStaffAccount, recordPlatformReset, searchStaffAccounts, setStaffPasswordHash } from './password-reset.repository.ts';
import { requireModerator, type Principal } from './principal.ts';
import type { SessionsService } from './sessions.service.ts';

/** How many staff accounts one search shows. */
const STAFF_SEARCH_LIMIT = 20;

/**
 * Tablefair's moderators give restaurant staff a new password when they cannot reset it
 * themselves (no email on file, or the address is gone): decision 231. Only the moderator kind
 * of account may (decision 185); every staff session of the account ends, and the change is kept
 * with who made it.
 */
export function createStaffPasswords(deps: AppDeps, sessions: SessionsService) {
  const { db, clock, config } = deps;
  return {
    /** GET /api/moderation/staff-accounts?q=: staff logins whose username, email or restaurant matches. */
    async searchStaff(principal: Principal, query: string): Promise<StaffAccountList> {
      requireModerator(principal);
      const rows = await searchStaffAccounts(db, query, STAFF_SEARCH_LIMIT);
      return {
        accounts: rows.map((row) => ({
          id: row.id,
          username: row.username,
          email: row.email,
          restaurant: { id: row.restaurant_id, name: row.restaurant_name, slug: row.restaurant_slug },
        })),
      };
    },

    /** PUT /api/moderation/staff-accounts/{staffId}/password: a new password, and every session of the login ends. */
    async setStaffPassword(principal: Principal, staffId: string, password: string): Promise<StaffPasswordSet> {
      requireModerator(principal);
      refusePublishedPassword(config.nodeEnv, password);
      const passwordHash = await hashPassword(password, config.passwordHashCost);
      const sessionsEnded = await db.transaction(async (tx) => {
        const staff = await findStaffAccount(tx, staffId);
        if (!staff) throw notFound('No restaurant login has this id');
        await setStaffPasswordHash(tx, staff.id, passwordHash);
        await recordPlatformReset(tx, { staffId: staff.id, moderatorId: principal.moderatorId, lookupHash: `platform:${staff.id}`, now: clock.now() });
        return sessions.revokeAllOf('staff', staff.id, tx);
      });
      return {
        sessionsEnded,
        message: `The new password is set and ${sessionsEnded} ${sessionsEnded === 1 ? 'session' : 'sessions'} of this login ended. Tell the restaurant by phone, never by email.`,
      };
    },
  };
}

export type StaffPasswords = ReturnType<typeof createStaffPasswords>;
