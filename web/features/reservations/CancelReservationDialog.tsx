import { useCallback, useState } from 'react';
import type { DinerReservation } from '#common/contract/reservations.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { useCancelReservation } from './api.ts';
import { CANCEL_RESERVATION_QUESTION, partyLabel } from './rules.ts';

/**
 * Cancel from a list with the diner's token, after the spec's confirm dialog.
 * `onFailed` decides what a refusal shows: the home panel only logs it (spec section 8).
 * After a cancel the focus goes to the cancelled card (`focusId`), and without `onCancelled`
 * (whose toast says so) a polite status announces it.
 */
export function useCancelFromList({ onFailed, onCancelled }: { onFailed: (error: unknown) => void; onCancelled?: (reservation: DinerReservation) => void }) {
  const cancel = useCancelReservation(true);
  const [asking, setAsking] = useState<DinerReservation | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const onFocused = useCallback(() => setFocusId(null), []);

  async function confirm() {
    const target = asking;
    if (!target) return;
    try {
      const cancelled = await cancel.mutateAsync(target.id);
      setFocusId(target.id);
      if (onCancelled) onCancelled(cancelled);
      else setAnnouncement(`Reservation at ${target.restaurant.name} cancelled.`);
    } catch (error) {
      onFailed(error);
    } finally {
      setAsking(null);
    }
  }

  const dialog = (
    <ConfirmDialog
      open={asking !== null}
      title="Cancel reservation"
      confirmLabel={cancel.isPending ? 'Cancelling…' : 'Yes, cancel'}
      cancelLabel="Keep it"
      busy={cancel.isPending}
      onConfirm={confirm}
      onCancel={() => setAsking(null)}
    >
      <p>{CANCEL_RESERVATION_QUESTION}</p>
      {asking ? (
        <p className="res-dialog__summary">
          <span className="emoji" aria-hidden="true">
            {asking.restaurant.emoji}
          </span>{' '}
          <strong>{asking.restaurant.name}</strong>
          <br />
          {formatDateShort(asking.slot.date)} · {formatTime12h(asking.slot.time)} · {partyLabel(asking.partySize)}
        </p>
      ) : null}
    </ConfirmDialog>
  );
  const status = (
    <p className="visually-hidden" role="status">
      {announcement}
    </p>
  );

  return {
    ask: setAsking,
    dialog: (
      <>
        {dialog}
        {status}
      </>
    ),
    pendingId: cancel.isPending ? (cancel.variables ?? null) : null,
    focusId,
    onFocused,
  };
}
