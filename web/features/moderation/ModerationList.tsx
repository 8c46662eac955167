import { useState } from 'react';
import type { ModerationMember, ModerationReportStatus } from '#common/contract/moderation.ts';
import { ApiError, errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Alert, EmptyState, LoadingScreen, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useTabKeys } from '#web/components/ui/use-tab-keys.ts';
import { useModerationReports, useReviewMember } from './api.ts';
import { ReportedMember, reportCount } from './ReportedMember.tsx';
import { ReviewDialog, type PendingDecision } from './ReviewDialog.tsx';

const VIEWS: { status: ModerationReportStatus; label: string; empty: string }[] = [
  { status: 'OPEN', label: 'Open reports', empty: 'No open reports.' },
  { status: 'REVIEWED', label: 'Reviewed', empty: 'No reviewed reports yet.' },
];

/** What a decision did, in one sentence for the toast and the live region. */
function outcomeOf(member: ModerationMember, decision: 'DISMISS' | 'SUSPEND', reviewed: number): string {
  return decision === 'SUSPEND'
    ? `${member.firstName} is suspended${reviewed > 0 ? ` and ${reportCount(reviewed)} marked reviewed` : ''}.`
    : `${member.firstName}’s ${reportCount(reviewed)} dismissed: ${member.firstName} shows in suggestions again.`;
}

/**
 * The moderation list (decision 185): members others reported, most open reports
 * first, each with its reports; "Dismiss reports" and "Suspend member" after a confirm step.
 */
export function ModerationList({ onUnauthorized }: { onUnauthorized: () => void }) {
  const [view, setView] = useState<ModerationReportStatus>('OPEN');
  const reports = useModerationReports(view, onUnauthorized);
  const review = useReviewMember();
  const toast = useToast();
  const [pending, setPending] = useState<PendingDecision | null>(null);
  const [note, setNote] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [news, setNews] = useState('');
  const { tabRefs, onKeyDown: onTabKey } = useTabKeys(
    VIEWS.map((item) => item.status),
    view,
    setView,
  );
  const current = VIEWS.find((item) => item.status === view) ?? VIEWS[0];

  function open(member: ModerationMember, decision: 'DISMISS' | 'SUSPEND') {
    setPending({ member, decision });
    setNote('');
    setFailure(null);
  }

  function confirm() {
    if (!pending || review.isPending) return;
    const { member, decision } = pending;
    review.mutate(
      { memberId: member.memberId, review: { decision, note: note.trim() || undefined } },
      {
        onSuccess: (result) => {
          const text = outcomeOf(member, decision, result.reviewedReports);
          toast(text, 'success', { key: 'moderation-review' });
          setNews(text);
          setPending(null);
        },
        onError: (error) => {
          const text = errorMessage(error, {
            server: 'That did not work. Try again.',
            network: 'Could not reach the server. Check your connection and try again.',
          });
          setFailure(text);
          if (error instanceof ApiError && error.status === 401) onUnauthorized();
        },
      },
    );
  }

  const members = reports.data?.members ?? [];
  const reportsThatHide = reports.data?.reportsThatHide ?? 3;
  return (
    <section className="admin-panel moderation-list" aria-labelledby="moderation-list-title">
      <div className="moderation-list__head">
        <h2 className="moderation-list__title" id="moderation-list-title">
          Reported members
          {reports.data ? <span className="moderation-list__count"> {members.length}</span> : null}
        </h2>
        <div className="admin-tabs" role="tablist" aria-label="Which reports" onKeyDown={onTabKey}>
          {VIEWS.map((item, index) => (
            <button
              key={item.status}
              ref={(element) => {
                tabRefs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`moderation-tab-${item.status}`}
              aria-selected={view === item.status}
              aria-controls="moderation-panel"
              tabIndex={view === item.status ? 0 : -1}
              className="admin-tabs__tab"
              onClick={() => setView(item.status)}
            >
              {item.label}
            </button>
          ))}
        </div>
      </div>
      <p className="moderation-list__lede">
        Members reported by others, most open reports first. {reportsThatHide} open reports hide a member from suggestions until you review them.
      </p>
      <p className="visually-hidden" role="status">
        {news}
      </p>
      <div id="moderation-panel" role="tabpanel" aria-labelledby={`moderation-tab-${view}`}>
        {reports.isPending ? (
          <LoadingScreen className="moderation-list__loading" label="Loading the reports…">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={148} radius="var(--radius-lg)" />
            ))}
          </LoadingScreen>
        ) : reports.isError && !reports.data ? (
          <div className="moderation-list__error">
            <Alert tone="error" title="The reports could not be loaded.">
              {errorMessage(reports.error, {
                server: 'The server could not answer. Try again.',
                network: 'Could not reach the server. Check your connection.',
              })}
            </Alert>
            <Button variant="secondary" onClick={() => reports.refetch()} disabled={reports.isFetching}>
              {reports.isFetching ? 'Trying again…' : 'Try again'}
            </Button>
          </div>
        ) : members.length === 0 ? (
          <EmptyState icon="✅" title={current.empty}>
            {view === 'OPEN' ? <p>New reports from members appear here.</p> : null}
          </EmptyState>
        ) : (
          <>
            <ul className="moderation-list__members">
              {members.map((member) => (
                <ReportedMember key={member.memberId} member={member} view={view} reportsThatHide={reportsThatHide} isBusy={review.isPending} onDecide={open} />
              ))}
            </ul>
            {reports.data?.hasMore ? (
              <p className="moderation-list__more">The most reported {members.length} members are shown; review them to see the rest.</p>
            ) : null}
          </>
        )}
      </div>
      <ReviewDialog
        pending={pending}
        note={note}
        onNote={setNote}
        busy={review.isPending}
        failure={failure}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </section>
  );
}
