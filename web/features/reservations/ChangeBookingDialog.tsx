import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { DinerReservation } from '#common/contract/reservations.ts';
import { MAX_PARTY_SIZE } from '#common/domain/restaurants.ts';
import { formatDateShort, formatTime12h, todayInKolkata } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Alert, Spinner } from '#web/components/ui/Feedback.tsx';
import { SelectField, TextField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useAvailability } from '#web/features/restaurants/api.ts';
import { useChangeBooking, useChangeTerms } from './booking-change-api.ts';
import { partyLabel } from './rules.ts';
import './reservations.css';

/** Where the sandbox page brings the diner back after paying a change's extra deposit. */
const RETURN_PATH = '/me';

/**
 * Change a booking (decisions 280-284): another date, time or party at the same restaurant. The
 * terms (what it costs, what is released) are read from the server and shown before Confirm; an
 * extra deposit goes to the payment page, and the booking changes once it is approved.
 */
export function ChangeBookingDialog({ reservation, onClose }: { reservation: DinerReservation; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const toast = useToast();
  const [date, setDate] = useState(reservation.slot.date);
  const [partySize, setPartySize] = useState(reservation.partySize);
  const [time, setTime] = useState(reservation.slot.time);
  const times = useAvailability(reservation.restaurant.slug, date, partySize);
  const unchanged = date === reservation.slot.date && time === reservation.slot.time && partySize === reservation.partySize;
  const body = !unchanged && time ? { date, time, partySize } : null;
  const terms = useChangeTerms(reservation.id, body);
  const change = useChangeBooking();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const choices = (times.data ?? []).filter((entry) => entry.available || entry.time === reservation.slot.time);

  async function confirm() {
    if (!body) return;
    try {
      const answer = await change.mutateAsync({ id: reservation.id, body });
      if (answer.payment?.approvalUrl) {
        navigate(`${answer.payment.approvalUrl}?returnTo=${encodeURIComponent(RETURN_PATH)}`);
        return;
      }
      toast('Booking changed.', 'success', { key: 'change-booking' });
      onClose();
    } catch (error) {
      console.error('Could not change the booking', error);
    }
  }

  const payLabel = terms.data?.kind === 'pay_extra' ? `Pay and change` : 'Confirm change';
  return (
    <dialog
      ref={ref}
      className="dialog change-booking"
      aria-labelledby="change-booking-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="dialog__body">
        <h2 className="dialog__title" id="change-booking-title">
          Change booking
        </h2>
        <p className="change-booking__now">
          {reservation.restaurant.name}: now {formatDateShort(reservation.slot.date)} · {formatTime12h(reservation.slot.time)} ·{' '}
          {partyLabel(reservation.partySize)}
        </p>
        <div className="change-booking__fields">
          <TextField label="Date" type="date" value={date} min={todayInKolkata()} onChange={(event) => setDate(event.target.value)} />
          <SelectField label="Guests" value={partySize} onChange={(event) => setPartySize(Number(event.target.value))}>
            {Array.from({ length: MAX_PARTY_SIZE }, (_, index) => index + 1).map((size) => (
              <option key={size} value={size}>
                {partyLabel(size)}
              </option>
            ))}
          </SelectField>
          <SelectField label="Time" value={time} onChange={(event) => setTime(event.target.value)} disabled={times.isPending}>
            <option value="">{times.isPending ? 'Loading times…' : choices.length ? 'Choose a time' : 'No free time that day'}</option>
            {choices.map((entry) => (
              <option key={entry.id} value={entry.time}>
                {formatTime12h(entry.time)}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="change-booking__terms" aria-live="polite">
          {!body ? (
            <p className="change-booking__hint">Choose another time or party size to see what the change costs.</p>
          ) : terms.isPending ? (
            <Spinner label="Checking the terms…" />
          ) : terms.isError ? (
            <Alert tone="warning">
              {errorMessage(terms.error, { server: 'This change cannot be made', network: 'Could not check this change. Please try again.' })}
            </Alert>
          ) : (
            <Alert
              tone={terms.data.kind === 'pay_extra' ? 'info' : 'success'}
              title={`${formatDateShort(date)} · ${formatTime12h(time)} · ${partyLabel(partySize)}`}
            >
              <span data-testid="change-terms">{terms.data.words}</span>
            </Alert>
          )}
          {change.isError ? (
            <Alert tone="error">
              {errorMessage(change.error, { server: 'Could not change this booking', network: 'Could not change this booking. Please try again.' })}
            </Alert>
          ) : null}
        </div>
      </div>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onClose} disabled={change.isPending}>
          Keep as is
        </Button>
        <Button variant="primary" onClick={() => void confirm()} disabled={!terms.data || !body || change.isPending}>
          {change.isPending ? 'Changing…' : payLabel}
        </Button>
      </div>
    </dialog>
  );
}
