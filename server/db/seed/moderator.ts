import type { Db } from '#server/db/client.ts';
import { findModeratorByUsername, insertModeratorIfMissing } from '#server/modules/accounts/accounts.repository.ts';
import { DEMO_MODERATOR_PASSWORD } from '#server/modules/accounts/demo-passwords.ts';
import { hashPassword } from '#server/modules/accounts/password.ts';

/** The demo's one Tablefair moderator, who signs in at /moderation/login (decision 185). */
export const DEMO_MODERATOR = { username: 'moderator', password: DEMO_MODERATOR_PASSWORD } as const;

/**
 * Adds the demo moderator once; safe to run on every start, like the rest of the seed (an existing
 * `moderator`, whatever its password now, is left alone). Answers whether it was added.
 */
export async function seedDemoModerator(db: Db, options: { passwordHashCost: number }): Promise<boolean> {
  // Hashing costs a moment: only when the account is missing (every start runs the seed).
  if (await findModeratorByUsername(db, DEMO_MODERATOR.username)) return false;
  const passwordHash = await hashPassword(DEMO_MODERATOR.password, options.passwordHashCost);
  return insertModeratorIfMissing(db, { username: DEMO_MODERATOR.username, passwordHash });
}
