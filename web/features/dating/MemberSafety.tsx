import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { REPORT_NOTE_MAX, datingReportReasons, type DatingReportBody } from '#common/contract/dating.ts';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { SelectField, TextAreaField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { datingApi, datingErrorMessage } from './api.ts';

/** A member to block or report: a suggestion, or the partner of a date plan. */
interface SafetyTarget {
  memberId: string;
  firstName: string;
  /** Runs after a block or a report lands (the lists read again). */
  onDone: () => unknown;
}

/**
 * Block and report one member (decision 140): the same two calls wherever the member is shown, each
 * with its toast. The screen uses `isPending` to hold its own buttons while one runs.
 */
export function useMemberSafety({ memberId, firstName, onDone }: SafetyTarget) {
  const toast = useToast();
  const [isBlocked, setBlocked] = useState(false);
  const block = useMutation({
    mutationFn: () => datingApi.block(memberId),
    onSuccess: () => {
      setBlocked(true);
      toast(`${firstName} is blocked: you won't see each other again`, 'success');
      return onDone();
    },
    onError: (error) => toast(datingErrorMessage(error, 'Could not block. Please try again.'), 'error'),
  });
  const report = useMutation({
    mutationFn: (body: DatingReportBody) => datingApi.report(memberId, body),
    onSuccess: () => {
      setBlocked(true);
      toast(`Thank you. ${firstName} is reported to our moderators and you won't see each other again`, 'success');
      return onDone();
    },
    onError: (error) => toast(datingErrorMessage(error, 'Could not send the report. Please try again.'), 'error'),
  });
  return { block, report, firstName, isBlocked, isPending: block.isPending || report.isPending };
}

export type MemberSafetyState = ReturnType<typeof useMemberSafety>;

/**
 * "Block {name}" and "Report": a block asks once, saying what happens (decision 251); a report
 * takes a reason and, if the member wants, a few words for the moderators. Once either has landed
 * the buttons are gone.
 */
export function MemberSafety({ safety, disabled = false }: { safety: MemberSafetyState; disabled?: boolean }) {
  const [isReporting, setReporting] = useState(false);
  const [isConfirmingBlock, setConfirmingBlock] = useState(false);
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const isBusy = disabled || safety.isPending;
  if (safety.isBlocked) {
    return (
      <p className="d-suggest__safety d-muted" role="status">
        You blocked {safety.firstName}: you won't see each other again.
      </p>
    );
  }
  return (
    <>
      <div className="d-suggest__safety">
        <button type="button" className="btn d-btn--ghost" disabled={isBusy} onClick={() => setConfirmingBlock(true)}>
          Block {safety.firstName}
        </button>
        <button type="button" className="btn d-btn--ghost" disabled={isBusy} aria-expanded={isReporting} onClick={() => setReporting(!isReporting)}>
          Report
        </button>
      </div>
      <ConfirmDialog
        open={isConfirmingBlock}
        title={`Block ${safety.firstName}?`}
        confirmLabel={`Block ${safety.firstName}`}
        cancelLabel="Keep it"
        busy={safety.block.isPending}
        onCancel={() => setConfirmingBlock(false)}
        onConfirm={() => safety.block.mutate(undefined, { onSettled: () => setConfirmingBlock(false) })}
      >
        {isConfirmingBlock ? (
          <p>You won't see each other again: no more suggestions, and we won't plan a date for you two. {safety.firstName} is not told.</p>
        ) : null}
      </ConfirmDialog>
      {isReporting ? (
        <form
          className="d-suggest__report"
          onSubmit={(event) => {
            event.preventDefault();
            if (reason) safety.report.mutate({ reason: reason as DatingReportBody['reason'], note });
          }}
        >
          <SelectField label={`Why are you reporting ${safety.firstName}?`} value={reason} onChange={(event) => setReason(event.target.value)} required>
            <option value="">Choose a reason</option>
            {datingReportReasons.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </SelectField>
          <TextAreaField
            label={
              <>
                What happened? <span className="d-optional">(optional)</span>
              </>
            }
            hint={`Only our moderators read this. ${note.length}/${REPORT_NOTE_MAX}`}
            rows={3}
            maxLength={REPORT_NOTE_MAX}
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
          <button type="submit" className="btn d-btn--primary" disabled={!reason || isBusy}>
            Send report
          </button>
        </form>
      ) : null}
    </>
  );
}
