import { useCallback, useState } from 'react';
import type { DinerReservation } from '#common/contract/reservations.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import type { MyDeposit } from '#common/contract/deposit-receipts.ts';
import { cancelMoneySentences, type DepositFigures } from '#common/domain/money-sentences.ts';
import { useCancelReservation } from './api.ts';
import { useMyDeposits } from './deposits-api.ts';
import { CANCEL_RESERVATION_QUESTION, partyLabel } from './rules.ts';

/** What cancelling this booking now does to its blocked deposit (money-sentences.ts), or null when none is blocked. */
function moneyOf(reservation: DinerReservation, deposits: MyDeposit[] | undefined): { before: string; after: string } | null {
  const deposit = deposits?.find((entry) => entry.reservationId === reservation.id);
  if (!deposit) return null;
  const figures: DepositFigures = {
    state: deposit.state,
    amountPaise: deposit.amountPaise,
    blockedPaise: deposit.blockedPaise,
    keptPaise: 0,
    creditedPaise: 0,
    releasedPaise: 0,
    refundedPaise: 0,
    feeReason: null,
  };
  return cancelMoneySentences(reservation.status, { ...deposit.terms, freeCancelUntil: new Date(deposit.terms.freeCancelUntil) }, figures, new Date());
}

/**
 * Cancel from a list with the diner's token, after the spec's confirm dialog.
 * `onFailed` decides what a refusal shows: the home panel only logs it (spec section 8).
 * After a cancel the focus goes to the cancelled card (`focusId`), and without `onCancelled`
 * (whose toast says so) a polite status announces it.
 */
export function useCancelFromList({
  onFailed,
  onCancelled,
  onDone,
}: {
  /** Told of every cancel that went through (the home panel keeps that card in view while the diner is there). */
  onDone?: (id: string) => void;
  onFailed: (error: unknown) => void;
  onCancelled?: (reservation: DinerReservation, money: string | null) => void;
}) {
  const cancel = useCancelReservation(true);
  const deposits = useMyDeposits(true);
  const [asking, setAsking] = useState<DinerReservation | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const onFocused = useCallback(() => setFocusId(null), []);

  async function confirm() {
    const target = asking;
    if (!target) return;
    try {
      const money = moneyOf(target, deposits.data?.deposits);
      const cancelled = await cancel.mutateAsync(target.id);
      setFocusId(target.id);
      onDone?.(target.id);
      if (onCancelled) onCancelled(cancelled, money?.after ?? null);
      else setAnnouncement(`Reservation at ${target.restaurant.name} cancelled.${money ? ` ${money.after}` : ''}`);
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
      {asking && moneyOf(asking, deposits.data?.deposits) ? (
        <p className="res-dialog__money" data-testid="cancel-money">
          {moneyOf(asking, deposits.data?.deposits)?.before}
        </p>
      ) : null}
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
