import type { DatingPreferencesInput, DatingSuggestionsResponse } from '#common/contract/dating.ts';
import { ageOn } from '#common/domain/dating-profile.ts';
import { genderLabel, type Gender } from '#common/domain/dating-gender.ts';
import type { DatingShared } from '#common/contract/dating.ts';
import { todayInKolkata } from '#common/domain/time.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { requireDating, type Principal } from '#server/modules/accounts/principal.ts';
import {
  generateSuggestions,
  insertBlock,
  insertReport,
  isVisibleTo,
  listSuggestions,
  lockSuggestionDay,
  recordAnswer,
  updatePreferences,
} from './dating-matches.repository.ts';

export const MEMBER_NOT_FOUND = 'Member not found';
/** The answer to a yes after one's own pass (decision 251). */
export const PASS_IS_FINAL = 'You passed on this member, and a pass is final.';

/** "Why you two" (decision 254) from a row's shared lists. */
export function sharedOf(row: {
  shared_cuisines: string[];
  shared_date_types: string[];
  shared_neighbourhoods: string[];
  shared_evenings: string[];
}): DatingShared {
  return {
    cuisines: row.shared_cuisines as DatingShared['cuisines'],
    dateTypes: row.shared_date_types as DatingShared['dateTypes'],
    neighbourhoods: row.shared_neighbourhoods,
    evenings: row.shared_evenings as DatingShared['evenings'],
  };
}

/** Photos are served here (then /{uuid}.{ext}); the same path as the member's own. */
export function datingPhotoUrl(objectKey: string): string {
  return `/dating/photos/${objectKey.slice('dating/'.length)}`;
}

/**
 * Curated matches (decision 140): preferences, today's suggestions (made on
 * the first look of the day for whoever is still under the daily number), answers and blocks.
 * A member sees only those suggested to them; anyone else answers 404, like a missing one.
 */
export function createDatingMatches(deps: AppDeps) {
  const { db, clock, config } = deps;
  const today = () => todayInKolkata(clock.now());
  /** Told once a block (or a report, which blocks) has committed: date plans close the pair's open plans (decision 205). */
  const blockedListeners = new Set<(blockerId: string, blockedId: string) => Promise<void>>();

  async function tellBlocked(blockerId: string, blockedId: string): Promise<void> {
    for (const listener of blockedListeners) {
      await listener(blockerId, blockedId).catch((error: unknown) => deps.log.warn({ err: error, blockerId }, 'block listener failed'));
    }
  }

  /** Tops up `memberId`'s suggestions of today, one statement under the day's lock. */
  async function topUp(memberId: string, day: string): Promise<void> {
    await db.transaction(async (tx) => {
      await lockSuggestionDay(tx, day);
      await generateSuggestions(tx, { day, perDay: config.datingMatches.perDay, pool: config.datingMatches.candidatePool, onlyFor: [memberId] });
    });
  }

  return {
    /** PUT /dating/me/preferences. */
    async updatePreferences(principal: Principal, input: DatingPreferencesInput): Promise<void> {
      requireDating(principal);
      await updatePreferences(db, principal.datingUserId, input, clock.now());
    },

    /** GET /dating/suggestions: today's (made now if still missing) and earlier mutual yeses. */
    async listSuggestions(principal: Principal): Promise<DatingSuggestionsResponse> {
      requireDating(principal);
      const day = today();
      await topUp(principal.datingUserId, day);
      const rows = await listSuggestions(db, principal.datingUserId, day);
      return {
        day,
        perDay: config.datingMatches.perDay,
        suggestions: rows.map((row) => ({
          memberId: row.other_id,
          firstName: row.name.trim().split(/\s+/)[0] ?? row.name,
          age: ageOn(row.dob, day),
          profession: row.profession,
          dreams: row.dreams,
          fiveYearGoal: row.five_year_goal,
          whatIWantInPartner: row.what_i_want_in_partner,
          whyPartnerWouldLikeMe: row.why_partner_would_like_me,
          interests: row.interests,
          languages: row.languages,
          photos: (row.photo_keys ?? []).map((key, index) => ({ url: datingPhotoUrl(key), sortOrder: index })),
          day: row.day,
          myAnswer: row.my_answer,
          isMatch: row.my_answer === 'YES' && row.their_answer === 'YES',
          gender: row.gender ? genderLabel(row.gender as Gender, row.gender_self_described) : null,
          shared: sharedOf(row),
        })),
      };
    },

    /**
     * POST /dating/suggestions/{memberId}/answer: "Yes" or "Not for me". A pass is final both ways
     * (decision 251): after either member's pass, no answer changes anything (409 to a new yes); a
     * yes can still be withdrawn by a pass. A member passed on answers 404, as one never suggested.
     */
    async answerSuggestion(principal: Principal, memberId: string, answer: 'YES' | 'NO'): Promise<{ isMatch: boolean }> {
      requireDating(principal);
      if (!(await isVisibleTo(db, principal.datingUserId, memberId))) throw notFound(MEMBER_NOT_FOUND);
      const answers = await db.transaction((tx) => recordAnswer(tx, principal.datingUserId, memberId, answer));
      if (!answers || answers.theirs === 'NO') throw notFound(MEMBER_NOT_FOUND);
      if (!answers.changed && answer !== answers.mine) throw conflict(PASS_IS_FINAL);
      return { isMatch: answers.mine === 'YES' && answers.theirs === 'YES' };
    },

    /** POST /dating/suggestions/{memberId}/block: the two never see each other again. */
    async blockMember(principal: Principal, memberId: string): Promise<void> {
      requireDating(principal);
      if (!(await isVisibleTo(db, principal.datingUserId, memberId))) throw notFound(MEMBER_NOT_FOUND);
      await insertBlock(db, principal.datingUserId, memberId);
      await tellBlocked(principal.datingUserId, memberId);
    },

    /**
     * POST /dating/suggestions/{memberId}/report: a reason for the moderators; the reporter never
     * sees the member again, and 3 open reports hide the member from everyone until reviewed.
     */
    async reportMember(principal: Principal, memberId: string, report: { reason: string; note: string }): Promise<void> {
      requireDating(principal);
      if (!(await isVisibleTo(db, principal.datingUserId, memberId))) throw notFound(MEMBER_NOT_FOUND);
      await db.transaction((tx) => insertReport(tx, { reporterId: principal.datingUserId, reportedId: memberId, ...report }));
      await tellBlocked(principal.datingUserId, memberId);
    },

    /** Hears each block and report once it has committed; returns the unsubscribe function. */
    onPairBlocked(listener: (blockerId: string, blockedId: string) => Promise<void>): () => void {
      blockedListeners.add(listener);
      return () => blockedListeners.delete(listener);
    },

    /** Whether a photo's owner may be shown to this member (suggested to them and not blocked). */
    async mayShowMember(principal: Principal, ownerId: string): Promise<boolean> {
      requireDating(principal);
      return ownerId === principal.datingUserId || isVisibleTo(db, principal.datingUserId, ownerId);
    },
  };
}

export type DatingMatches = ReturnType<typeof createDatingMatches>;
