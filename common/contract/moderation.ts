import { z } from 'zod';
import { datingReportReason } from './dating.ts';

/**
 * The moderation list (decision 185): members reported by other members, with
 * every report's reason, for Tablefair's moderators to dismiss or act on.
 */

/** Members shown at most per page of the list, most open reports first. */
export const MODERATION_PAGE_SIZE = 100;

export const moderationReportStatus = z.enum(['OPEN', 'REVIEWED'], { message: "status: use 'OPEN' or 'REVIEWED'" });
export type ModerationReportStatus = z.infer<typeof moderationReportStatus>;

/** GET /api/moderation/reports?status=OPEN|REVIEWED (OPEN when absent). */
export const moderationReportsQuery = z.object({ status: moderationReportStatus.optional().default('OPEN') });
export type ModerationReportsQuery = z.input<typeof moderationReportsQuery>;

/** One report of a member, as a moderator reads it. */
export const moderationReport = z.object({
  id: z.string(),
  reason: datingReportReason,
  /** What the reporter wrote, '' when nothing. */
  note: z.string(),
  reporterFirstName: z.string(),
  /** ISO-8601 instant. */
  createdAt: z.string(),
  status: moderationReportStatus,
  /** When it was reviewed (ISO-8601), and the moderator's username and note; null while open. */
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  reviewNote: z.string().nullable(),
});
export type ModerationReport = z.infer<typeof moderationReport>;

/** A reported member and their reports of the status asked for, newest first. */
export const moderationMember = z.object({
  memberId: z.string(),
  firstName: z.string(),
  age: z.number(),
  /** Open reports right now (whatever status the list shows). */
  openReports: z.number(),
  /** Hidden from everyone's suggestions now: enough open reports, or suspended. */
  isHidden: z.boolean(),
  /** When a moderator suspended the member (ISO-8601), or null. */
  suspendedAt: z.string().nullable(),
  /** What the member wrote on their profile, for the moderator to judge the reports by (decision 255). */
  profile: z.object({
    profession: z.string().nullable(),
    /** Their gender in words, shown to moderators even when hidden from members. */
    gender: z.string().nullable(),
    dreams: z.string(),
    fiveYearGoal: z.string(),
    whatIWantInPartner: z.string(),
    whyPartnerWouldLikeMe: z.string(),
    interests: z.array(z.string()),
  }),
  /** Their photos, served to moderators only (bearer) at these paths. */
  photos: z.array(z.object({ url: z.string() })),
  reports: z.array(moderationReport),
});
export type ModerationMember = z.infer<typeof moderationMember>;

export const moderationReportsResponse = z.object({
  status: moderationReportStatus,
  /** Open reports that hide a member until a moderator reviews them. */
  reportsThatHide: z.number(),
  members: z.array(moderationMember),
  /** More members have reports of this status than the page shows (the most reported come first). */
  hasMore: z.boolean(),
});
export type ModerationReportsResponse = z.infer<typeof moderationReportsResponse>;

export const moderationDecision = z.enum(['DISMISS', 'SUSPEND'], { message: "decision: use 'DISMISS' or 'SUSPEND'" });
export type ModerationDecision = z.infer<typeof moderationDecision>;

/** POST /api/moderation/members/{memberId}/review: close the member's open reports, and maybe suspend them. */
export const moderationReviewBody = z.object({
  decision: moderationDecision,
  note: z
    .string()
    .trim()
    .max(500, { message: 'note: at most 500 characters' })
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type ModerationReviewBody = z.input<typeof moderationReviewBody>;
export type ModerationReviewInput = z.output<typeof moderationReviewBody>;

export const moderationReviewResponse = z.object({
  memberId: z.string(),
  decision: moderationDecision,
  /** How many open reports this review closed. */
  reviewedReports: z.number(),
  isHidden: z.boolean(),
  suspendedAt: z.string().nullable(),
});
export type ModerationReviewResponse = z.infer<typeof moderationReviewResponse>;
