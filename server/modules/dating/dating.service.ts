import type { AppDeps } from '#server/deps.ts';
import type { SessionsService } from '#server/modules/accounts/sessions.service.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import type { StorageService } from '#server/modules/storage/storage.service.ts';
import { createDatingAccount } from './dating-account.ts';
import { createDatingMatches } from './dating-matches.service.ts';
import { createDatingSignup } from './dating-signup.ts';
import { createDatingUploads } from './dating-uploads.ts';

/**
 * The dating section: phone + password accounts with three photos, cookie sessions, and
 * photo uploads that only the browser which asked for them can turn into a profile. Each use
 * case is its own file: dating-uploads.ts, dating-signup.ts, dating-account.ts (sign-in, profile,
 * photos), dating-matches.service.ts; date plans are date-plans.service.ts.
 */
export function createDatingService(deps: AppDeps, sessions: SessionsService, storage: StorageService, notifications: NotificationsService) {
  const matches = createDatingMatches(deps);
  const uploads = createDatingUploads(deps, storage);
  const { profileOf, ...account } = createDatingAccount(deps, sessions, storage, matches);
  const { checkUploads: _checkUploads, ...uploadCalls } = uploads;
  return {
    ...matches,
    ...uploadCalls,
    ...createDatingSignup(deps, sessions, notifications, uploads, profileOf),
    ...account,
  };
}

export type DatingService = ReturnType<typeof createDatingService>;
