import type { ModerationMember } from '#common/contract/moderation.ts';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { TextAreaField } from '#web/components/ui/Field.tsx';
import { reportsMarkedReviewed } from './ReportedMember.tsx';

export interface PendingDecision {
  member: ModerationMember;
  decision: 'DISMISS' | 'SUSPEND';
}

/**
 * The confirm step of a decision, with an optional note kept with the reviewed reports (and the
 * suspension). One dialog for the whole list; the parent empties the note at each opening.
 */
export function ReviewDialog({
  pending,
  note,
  onNote,
  busy,
  failure,
  onConfirm,
  onCancel,
}: {
  pending: PendingDecision | null;
  note: string;
  onNote: (note: string) => void;
  busy: boolean;
  failure: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const member = pending?.member;
  const isSuspend = pending?.decision === 'SUSPEND';
  return (
    <ConfirmDialog
      open={pending !== null}
      title={member ? (isSuspend ? `Suspend ${member.firstName}?` : `Dismiss ${member.firstName}’s reports?`) : ''}
      confirmLabel={busy ? 'Saving…' : isSuspend ? 'Suspend member' : 'Dismiss reports'}
      cancelLabel="Cancel"
      tone={isSuspend ? 'danger' : 'primary'}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {member ? (
        <div className="moderation-dialog">
          <p className="moderation-dialog__consequence">
            {isSuspend
              ? `${member.firstName} is hidden from everyone for good, signed out, and cannot sign in again.${
                  member.openReports > 0 ? ` Their ${reportsMarkedReviewed(member.openReports)}.` : ''
                }`
              : `${member.firstName}’s ${reportsMarkedReviewed(member.openReports)}, and ${member.firstName} shows in suggestions again.`}
          </p>
          {failure ? <Alert tone="error">{failure}</Alert> : null}
          <TextAreaField
            label="Note (optional)"
            hint="Kept with the reviewed reports. Members never see it."
            maxLength={500}
            rows={3}
            value={note}
            onChange={(event) => onNote(event.target.value)}
          />
        </div>
      ) : null}
    </ConfirmDialog>
  );
}
