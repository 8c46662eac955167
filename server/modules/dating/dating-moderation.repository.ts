import { sql } from 'drizzle-orm';
import { iso, isoOrNull, queryRows, toPgArray, type Db } from '#server/db/client.ts';
import { isHidden } from './dating-matches.repository.ts';

/**
 * SQL for the moderation list (decision 185): reported members and their
 * reports, and a moderator's review of them. No rules beyond the queries themselves.
 */

type Instant = string | Date;

export interface ReportedMemberRow {
  memberId: string;
  name: string;
  dob: string;
  openReports: number;
  isHidden: boolean;
  suspendedAt: string | null;
  profile: {
    profession: string | null;
    gender: string | null;
    genderSelfDescribed: string | null;
    dreams: string;
    fiveYearGoal: string;
    whatIWantInPartner: string;
    whyPartnerWouldLikeMe: string;
    interests: string[];
  };
  photoKeys: string[];
}

/**
 * Members with at least one report of `status`, most open reports first (then most reports of
 * that status, then the newest report), at most `limit` of them.
 */
export async function listReportedMembers(db: Db, status: 'OPEN' | 'REVIEWED', limit: number): Promise<ReportedMemberRow[]> {
  const rows = await queryRows<{
    member_id: string;
    name: string;
    dob: string;
    open_reports: number;
    is_hidden: boolean;
    suspended_at: Instant | null;
    profession: string | null;
    gender: string | null;
    gender_self_described: string | null;
    dreams: string;
    five_year_goal: string;
    what_i_want_in_partner: string;
    why_partner_would_like_me: string;
    interests: string[];
    photo_keys: string[] | null;
  }>(
    db,
    sql`WITH reported AS (
          SELECT r.reported_id,
                 count(*) FILTER (WHERE r.status = 'OPEN')::int AS open_reports,
                 count(*) FILTER (WHERE r.status = ${status})::int AS listed,
                 max(r.created_at) FILTER (WHERE r.status = ${status}) AS newest
          FROM dating_reports r
          GROUP BY r.reported_id
          HAVING count(*) FILTER (WHERE r.status = ${status}) > 0
        )
        SELECT u.id AS member_id, u.name, u.dob::text AS dob, reported.open_reports, ${isHidden(sql`u`)} AS is_hidden, u.suspended_at,
               u.profession, u.gender, u.gender_self_described, u.dreams, u.five_year_goal, u.what_i_want_in_partner, u.why_partner_would_like_me,
               u.interests, (SELECT array_agg(p.object_key ORDER BY p.sort_order) FROM dating_photos p WHERE p.dating_user_id = u.id) AS photo_keys
        FROM reported JOIN dating_users u ON u.id = reported.reported_id
        ORDER BY reported.open_reports DESC, reported.listed DESC, reported.newest DESC, u.id
        LIMIT ${limit}`,
  );
  return rows.map((row) => ({
    memberId: row.member_id,
    name: row.name,
    dob: row.dob,
    openReports: Number(row.open_reports),
    isHidden: Boolean(row.is_hidden),
    suspendedAt: isoOrNull(row.suspended_at),
    profile: {
      profession: row.profession,
      gender: row.gender,
      genderSelfDescribed: row.gender_self_described,
      dreams: row.dreams,
      fiveYearGoal: row.five_year_goal,
      whatIWantInPartner: row.what_i_want_in_partner,
      whyPartnerWouldLikeMe: row.why_partner_would_like_me,
      interests: row.interests,
    },
    photoKeys: row.photo_keys ?? [],
  }));
}

/** Whether anyone has ever reported the member (a moderator may then see their photos). */
export async function hasAnyReport(db: Db, memberId: string): Promise<boolean> {
  const rows = await queryRows(db, sql`SELECT 1 FROM dating_reports WHERE reported_id = ${memberId} LIMIT 1`);
  return rows.length > 0;
}

export interface ReportRow {
  id: string;
  reportedId: string;
  reason: string;
  note: string;
  reporterName: string;
  createdAt: string;
  status: 'OPEN' | 'REVIEWED';
  reviewedAt: string | null;
  reviewedBy: string | null;
  reviewNote: string | null;
}

/** The reports of `status` of these members, newest first, with the reporter's name and the reviewer's username. */
export async function listReportsOf(db: Db, memberIds: string[], status: 'OPEN' | 'REVIEWED'): Promise<ReportRow[]> {
  if (memberIds.length === 0) return [];
  const rows = await queryRows<{
    id: string;
    reported_id: string;
    reason: string;
    note: string;
    reporter_name: string;
    created_at: Instant;
    status: 'OPEN' | 'REVIEWED';
    reviewed_at: Instant | null;
    reviewed_by: string | null;
    review_note: string | null;
  }>(
    db,
    // A read-only JOIN to accounts' platform_moderators for the reviewer's username (display only).
    sql`SELECT r.id, r.reported_id, r.reason, r.note, reporter.name AS reporter_name, r.created_at, r.status,
               r.reviewed_at, m.username AS reviewed_by, r.review_note
        FROM dating_reports r
        JOIN dating_users reporter ON reporter.id = r.reporter_id
        LEFT JOIN platform_moderators m ON m.id = r.reviewed_by
        WHERE r.reported_id = ANY(${toPgArray(memberIds)}::uuid[]) AND r.status = ${status}
        ORDER BY r.created_at DESC, r.id`,
  );
  return rows.map((row) => ({
    id: row.id,
    reportedId: row.reported_id,
    reason: row.reason,
    note: row.note,
    reporterName: row.reporter_name,
    createdAt: iso(row.created_at),
    status: row.status,
    reviewedAt: isoOrNull(row.reviewed_at),
    reviewedBy: row.reviewed_by,
    reviewNote: row.review_note,
  }));
}

/** Locks a reported member's row for a review, so two moderators' decisions apply one after the other. */
export async function lockMemberForReview(db: Db, memberId: string): Promise<{ suspendedAt: string | null } | undefined> {
  const [row] = await queryRows<{ suspended_at: Instant | null }>(db, sql`SELECT suspended_at FROM dating_users WHERE id = ${memberId} FOR UPDATE`);
  return row && { suspendedAt: isoOrNull(row.suspended_at) };
}

/** Marks the member's open reports REVIEWED by `moderatorId`; answers how many. */
export async function reviewOpenReports(db: Db, memberId: string, review: { moderatorId: string; note: string | null; at: Date }): Promise<number> {
  const rows = await queryRows(
    db,
    sql`UPDATE dating_reports SET status = 'REVIEWED', reviewed_by = ${review.moderatorId}, reviewed_at = ${review.at.toISOString()}, review_note = ${review.note}
        WHERE reported_id = ${memberId} AND status = 'OPEN'
        RETURNING id`,
  );
  return rows.length;
}

/** Suspends a member (for good: nothing here lifts it). */
export async function suspendMember(db: Db, memberId: string, suspension: { note: string | null; at: Date }): Promise<void> {
  await db.execute(
    sql`UPDATE dating_users SET suspended_at = ${suspension.at.toISOString()}, suspension_note = ${suspension.note}, updated_at = ${suspension.at.toISOString()}
        WHERE id = ${memberId}`,
  );
}

/** A member's moderation state now: open reports, hidden or not, and the suspension. */
export async function findMemberModerationState(
  db: Db,
  memberId: string,
): Promise<{ openReports: number; isHidden: boolean; suspendedAt: string | null } | undefined> {
  const [row] = await queryRows<{ open_reports: number; is_hidden: boolean; suspended_at: Instant | null }>(
    db,
    sql`SELECT (SELECT count(*)::int FROM dating_reports r WHERE r.reported_id = u.id AND r.status = 'OPEN') AS open_reports,
               ${isHidden(sql`u`)} AS is_hidden, u.suspended_at
        FROM dating_users u WHERE u.id = ${memberId}`,
  );
  return row && { openReports: Number(row.open_reports), isHidden: Boolean(row.is_hidden), suspendedAt: isoOrNull(row.suspended_at) };
}
