import { datingReportReasons } from '#common/contract/dating.ts';
import type { ModerationMember, ModerationReport, ModerationReportStatus } from '#common/contract/moderation.ts';
import { formatInstantKolkata } from '#common/domain/time.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { ReportedProfile } from './ReportedProfile.tsx';

const reasonLabels: Record<string, string> = Object.fromEntries(datingReportReasons.map((reason) => [reason.value, reason.label]));

/** "3 open reports", "1 open report". */
export function reportCount(count: number, adjective = 'open'): string {
  return `${count} ${adjective} report${count === 1 ? '' : 's'}`;
}

/** "1 open report is marked reviewed", "3 open reports are marked reviewed". */
export function reportsMarkedReviewed(count: number): string {
  return `${reportCount(count)} ${count === 1 ? 'is' : 'are'} marked reviewed`;
}

function Report({ report }: { report: ModerationReport }) {
  return (
    <li className="moderation-report">
      <p className="moderation-report__reason">{reasonLabels[report.reason] ?? report.reason}</p>
      {report.note ? <blockquote className="moderation-report__note">{report.note}</blockquote> : null}
      <p className="moderation-report__meta">
        Reported by {report.reporterFirstName} · <time dateTime={report.createdAt}>{formatInstantKolkata(report.createdAt)}</time>
      </p>
      {report.reviewedAt ? (
        <p className="moderation-report__review">
          Reviewed by {report.reviewedBy ?? 'a former moderator'} · <time dateTime={report.reviewedAt}>{formatInstantKolkata(report.reviewedAt)}</time>
          {report.reviewNote ? <>: “{report.reviewNote}”</> : null}
        </p>
      ) : null}
    </li>
  );
}

/**
 * One reported member: who (first name and age only), their photos and profile, whether they are
 * hidden or suspended, each report, and the two decisions. Nothing here acts: the list asks for a confirmation first.
 */
export function ReportedMember({
  member,
  view,
  reportsThatHide,
  isBusy,
  onDecide,
}: {
  member: ModerationMember;
  /** Which reports the list shows: the count says so. */
  view: ModerationReportStatus;
  reportsThatHide: number;
  isBusy: boolean;
  onDecide: (member: ModerationMember, decision: 'DISMISS' | 'SUSPEND') => void;
}) {
  const titleId = `moderation-member-${member.memberId}`;
  const canDismiss = member.openReports > 0 && !member.suspendedAt;
  const canSuspend = !member.suspendedAt;
  return (
    <li className="moderation-member" aria-labelledby={titleId} data-testid="moderation-member" data-member-id={member.memberId}>
      <div className="moderation-member__head">
        <h3 className="moderation-member__name" id={titleId}>
          {member.firstName}, {member.age}
        </h3>
        <p className="moderation-member__count">
          {view === 'OPEN'
            ? reportCount(member.openReports)
            : `${reportCount(member.reports.length, 'reviewed')}${member.openReports > 0 ? ` · ${member.openReports} still open` : ''}`}
        </p>
        <div className="moderation-member__badges">
          {member.suspendedAt ? (
            <span className="moderation-badge moderation-badge--suspended">Suspended {formatInstantKolkata(member.suspendedAt)}</span>
          ) : member.isHidden ? (
            <span className="moderation-badge moderation-badge--hidden">Hidden from suggestions</span>
          ) : member.openReports > 0 ? (
            <span className="moderation-badge">Shown · hidden at {reportsThatHide} open reports</span>
          ) : null}
        </div>
      </div>
      <ReportedProfile member={member} />
      <ul className="moderation-member__reports" aria-label={`Reports of ${member.firstName}`}>
        {member.reports.map((report) => (
          <Report key={report.id} report={report} />
        ))}
      </ul>
      {canDismiss || canSuspend ? (
        <div className="moderation-member__actions">
          {canDismiss ? (
            <Button
              variant="secondary"
              size="sm"
              aria-disabled={isBusy || undefined}
              aria-describedby={titleId}
              onClick={() => !isBusy && onDecide(member, 'DISMISS')}
            >
              Dismiss reports
            </Button>
          ) : null}
          <Button
            variant="danger"
            size="sm"
            aria-disabled={isBusy || undefined}
            aria-describedby={titleId}
            onClick={() => !isBusy && onDecide(member, 'SUSPEND')}
          >
            Suspend member
          </Button>
        </div>
      ) : null}
    </li>
  );
}
