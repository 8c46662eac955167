import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { datingReportReasons, type DatingReportBody } from '#common/contract/dating.ts';
import { SelectField } from '#web/components/ui/Field.tsx';
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
  const block = useMutation({
    mutationFn: () => datingApi.block(memberId),
    onSuccess: () => {
      toast(`${firstName} is blocked: you won't see each other again`, 'success');
      return onDone();
    },
    onError: (error) => toast(datingErrorMessage(error, 'Could not block. Please try again.'), 'error'),
  });
  const report = useMutation({
    mutationFn: (reason: DatingReportBody['reason']) => datingApi.report(memberId, { reason }),
    onSuccess: () => {
      toast(`Thank you. ${firstName} is reported to our moderators and you won't see each other again`, 'success');
      return onDone();
    },
    onError: (error) => toast(datingErrorMessage(error, 'Could not send the report. Please try again.'), 'error'),
  });
  return { block, report, firstName, isPending: block.isPending || report.isPending };
}

export type MemberSafetyState = ReturnType<typeof useMemberSafety>;

/** "Block {name}" and "Report", which opens a reason to choose and send. */
export function MemberSafety({ safety, disabled = false }: { safety: MemberSafetyState; disabled?: boolean }) {
  const [isReporting, setReporting] = useState(false);
  const [reason, setReason] = useState('');
  const isBusy = disabled || safety.isPending;
  return (
    <>
      <div className="d-suggest__safety">
        <button type="button" className="btn d-btn--ghost" disabled={isBusy} onClick={() => safety.block.mutate()}>
          Block {safety.firstName}
        </button>
        <button type="button" className="btn d-btn--ghost" disabled={isBusy} aria-expanded={isReporting} onClick={() => setReporting(!isReporting)}>
          Report
        </button>
      </div>
      {isReporting ? (
        <form
          className="d-suggest__report"
          onSubmit={(event) => {
            event.preventDefault();
            if (reason) safety.report.mutate(reason as DatingReportBody['reason']);
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
          <button type="submit" className="btn d-btn--primary" disabled={!reason || isBusy}>
            Send report
          </button>
        </form>
      ) : null}
    </>
  );
}
