import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DropDetail, MyDropEntry } from '#common/contract/drops.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { PushOptIn } from '#web/features/notifications/PushOptIn.tsx';
import { useConfirmHold } from '#web/features/reservations/api.ts';
import { CONFIRM_FALLBACKS } from '#web/features/reservations/rules.ts';
import { useWithdrawFromDrop } from './api.ts';
import { dropKeys } from './keys.ts';
import { DROP_FALLBACKS, resultDetail, resultHeadline } from './rules.ts';

/** The diner's entry: in the draw, waiting, won (complete the booking), booked or not this time; withdraw while it counts. */
export function DropEntryResult({ drop, entry, now }: { drop: DropDetail; entry: MyDropEntry; now: number }) {
  const { result } = entry;
  const withdraw = useWithdrawFromDrop(drop.id);
  const confirm = useConfirmHold();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const canWithdraw = result.state === 'entered' || result.state === 'waiting';

  async function onComplete(reservationId: string) {
    setError(null);
    try {
      await confirm.mutateAsync(reservationId);
      await queryClient.invalidateQueries({ queryKey: dropKeys.all });
      toast('Booked! The restaurant will accept it shortly.', 'success');
    } catch (caught) {
      setError(errorMessage(caught, CONFIRM_FALLBACKS));
    }
  }

  async function onWithdraw() {
    setError(null);
    try {
      await withdraw.mutateAsync();
      setAsking(false);
      toast('You left this drop.', 'info');
    } catch (caught) {
      setAsking(false);
      setError(errorMessage(caught, DROP_FALLBACKS));
    }
  }

  return (
    <div className={`drop-result drop-result--${result.state}`}>
      <p className="drop-result__headline" data-testid="drop-result">
        {resultHeadline(result, now)}
      </p>
      <p className="drop-result__detail">{resultDetail(result)}</p>
      <p className="drop-result__party">
        Party of {entry.partySize}
        {entry.position ? ` · drawn number ${entry.position.toLocaleString('en-IN')} of ${drop.entryCount.toLocaleString('en-IN')}` : ''}
      </p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {canWithdraw ? <PushOptIn what="the draw is done or a table is yours" /> : null}
      {result.state === 'won' ? (
        <div className="drop-result__actions">
          <Button block onClick={() => void onComplete(result.reservationId)} disabled={confirm.isPending}>
            {confirm.isPending ? 'Booking…' : 'Complete booking'}
          </Button>
          <ButtonLink to={`/hold/${result.reservationId}`} variant="ghost" block>
            Open the hold
          </ButtonLink>
        </div>
      ) : null}
      {result.state === 'booked' ? (
        <ButtonLink to="/me" variant="secondary" block>
          See my reservations
        </ButtonLink>
      ) : null}
      {canWithdraw ? (
        <Button variant="ghost" block onClick={() => setAsking(true)} disabled={withdraw.isPending}>
          Withdraw my entry
        </Button>
      ) : null}
      <ConfirmDialog
        open={asking}
        title="Withdraw from this drop?"
        confirmLabel="Withdraw"
        cancelLabel="Stay in"
        tone="danger"
        busy={withdraw.isPending}
        onConfirm={() => void onWithdraw()}
        onCancel={() => setAsking(false)}
      >
        <p>
          {result.state === 'waiting'
            ? 'You will leave the line, and the tables go to those after you.'
            : 'Your entry is removed. You can enter again while entries are open.'}
        </p>
      </ConfirmDialog>
    </div>
  );
}
