import type { DatingReportReason } from '#common/contract/dating.ts';
import {
  MODERATION_PAGE_SIZE,
  type ModerationMember,
  type ModerationReportStatus,
  type ModerationReportsResponse,
  type ModerationReviewInput,
  type ModerationReviewResponse,
} from '#common/contract/moderation.ts';
import { ageOn } from '#common/domain/dating-profile.ts';
import { genderLabel, type Gender } from '#common/domain/dating-gender.ts';
import { todayInKolkata } from '#common/domain/time.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { requireModerator, type Principal } from '#server/modules/accounts/principal.ts';
import type { SessionsService } from '#server/modules/accounts/sessions.service.ts';
import { REPORTS_THAT_HIDE } from './dating-matches.repository.ts';
import { MEMBER_NOT_FOUND } from './dating-matches.service.ts';
import {
  findMemberModerationState,
  listReportedMembers,
  listReportsOf,
  lockMemberForReview,
  reviewOpenReports,
  suspendMember,
} from './dating-moderation.repository.ts';

export const NO_OPEN_REPORTS = 'This member has no open reports to dismiss';
export const ALREADY_SUSPENDED = 'This member is already suspended';

const firstNameOf = (name: string) => name.trim().split(/\s+/)[0] ?? name;

/**
 * The moderation list (decision 185): Tablefair's moderators read the members
 * others reported, with every reason, and close the reports. DISMISS shows a wrongly reported
 * member again; SUSPEND hides them for good, signs them out everywhere and refuses their sign-in.
 * Every call is a moderator's (requireModerator first).
 */
export function createDatingModeration(deps: AppDeps, sessions: SessionsService) {
  const { db, clock } = deps;
  /** Told once a suspension has committed (date plans close the member's open plans). */
  const suspendedListeners = new Set<(memberId: string) => Promise<void>>();

  return {
    /** GET /api/moderation/reports: reported members with their reports of `status`, most open reports first. */
    async listReports(principal: Principal, status: ModerationReportStatus): Promise<ModerationReportsResponse> {
      requireModerator(principal);
      // One more than a page tells whether there are more.
      const rows = await listReportedMembers(db, status, MODERATION_PAGE_SIZE + 1);
      const page = rows.slice(0, MODERATION_PAGE_SIZE);
      const reports = await listReportsOf(
        db,
        page.map((row) => row.memberId),
        status,
      );
      const today = todayInKolkata(clock.now());
      const members: ModerationMember[] = page.map((row) => ({
        memberId: row.memberId,
        firstName: firstNameOf(row.name),
        age: ageOn(row.dob, today),
        openReports: row.openReports,
        isHidden: row.isHidden,
        suspendedAt: row.suspendedAt,
        profile: {
          ...row.profile,
          gender: row.profile.gender ? genderLabel(row.profile.gender as Gender, row.profile.genderSelfDescribed) : null,
        },
        photos: row.photoKeys.map((key) => ({ url: `/api/moderation/photos/${key.slice('dating/'.length)}` })),
        reports: reports
          .filter((report) => report.reportedId === row.memberId)
          .map((report) => ({
            id: report.id,
            reason: report.reason as DatingReportReason,
            note: report.note,
            reporterFirstName: firstNameOf(report.reporterName),
            createdAt: report.createdAt,
            status: report.status,
            reviewedAt: report.reviewedAt,
            reviewedBy: report.reviewedBy,
            reviewNote: report.reviewNote,
          })),
      }));
      return { status, reportsThatHide: REPORTS_THAT_HIDE, members, hasMore: rows.length > MODERATION_PAGE_SIZE };
    },

    /**
     * POST /api/moderation/members/{memberId}/review. DISMISS marks the member's open reports
     * REVIEWED (a member hidden by them shows again); SUSPEND marks them REVIEWED too, suspends
     * the member and revokes their dating sessions, all in one transaction under the member's row lock.
     */
    async reviewMember(principal: Principal, memberId: string, input: ModerationReviewInput): Promise<ModerationReviewResponse> {
      requireModerator(principal);
      const note = input.note ?? null;
      const reviewedReports = await db.transaction(async (tx) => {
        const member = await lockMemberForReview(tx, memberId);
        if (!member) throw notFound(MEMBER_NOT_FOUND);
        const at = clock.now();
        if (input.decision === 'SUSPEND' && member.suspendedAt) throw conflict(ALREADY_SUSPENDED);
        const reviewed = await reviewOpenReports(tx, memberId, { moderatorId: principal.moderatorId, note, at });
        if (input.decision === 'DISMISS') {
          // Nothing was open: another moderator got there first, or there was never a report.
          if (reviewed === 0) throw conflict(NO_OPEN_REPORTS);
          return reviewed;
        }
        await suspendMember(tx, memberId, { note, at });
        await sessions.revokeAllOf('dating', memberId, tx);
        return reviewed;
      });
      const state = await findMemberModerationState(db, memberId);
      if (!state) throw notFound(MEMBER_NOT_FOUND);
      deps.log.info({ moderatorId: principal.moderatorId, memberId, decision: input.decision, reviewedReports }, 'dating reports reviewed');
      if (input.decision === 'SUSPEND') {
        for (const listener of suspendedListeners) {
          await listener(memberId).catch((error: unknown) => deps.log.warn({ err: error, memberId }, 'suspension listener failed'));
        }
      }
      return { memberId, decision: input.decision, reviewedReports, isHidden: state.isHidden, suspendedAt: state.suspendedAt };
    },

    /** Hears each suspension once it has committed; returns the unsubscribe function. */
    onMemberSuspended(listener: (memberId: string) => Promise<void>): () => void {
      suspendedListeners.add(listener);
      return () => suspendedListeners.delete(listener);
    },
  };
}

export type DatingModeration = ReturnType<typeof createDatingModeration>;
