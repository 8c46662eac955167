import { useEffect, useRef } from 'react';
import { bookingCode } from '#common/domain/booking-code.ts';
import { Link } from 'react-router';
import type { DinerReservation } from '#common/contract/reservations.ts';
import { formatDateShort, formatTime12h, toKolkata } from '#common/domain/time.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import { BookingRequestPanel } from './BookingRequestPanel.tsx';
import { AddToCalendarButton } from './AddToCalendarButton.tsx';
import { dinerActions, holdPath, partyLabel, statusLabel } from './rules.ts';
import './reservations.css';

/** No reservations yet: what to do next, and the way to a table today. */
export function NoReservationsYet({ className, next }: { className: string; next: string }) {
  return (
    <div className={className}>
      <p>
        <strong>No reservations yet.</strong> {next}
      </p>
      <Link className="btn btn--primary btn--sm" to="/explore-tonight">
        Find a table today
      </Link>
    </div>
  );
}

/** Reservations as cards (home panel, /me), each cancellable from the list after the confirm dialog. */
export function ReservationList({
  reservations,
  now,
  cancel,
  showRequests = false,
  onChangeBooking,
}: {
  reservations: DinerReservation[];
  now: Date;
  /** /me: each card shows what the diner told the restaurant, to change or remove (decision 260). */
  showRequests?: boolean;
  cancel: { ask: (reservation: DinerReservation) => void; pendingId: string | null; focusId?: string | null; onFocused?: () => void };
  /** Offers "Change" on a booking still ahead (/me, decision 280). */
  onChangeBooking?: (reservation: DinerReservation) => void;
}) {
  return (
    <ul className="res-list">
      {reservations.map((reservation) => (
        <ReservationCard
          key={reservation.id}
          reservation={reservation}
          now={now}
          onCancel={cancel.ask}
          busy={cancel.pendingId === reservation.id}
          takeFocus={cancel.focusId === reservation.id}
          onFocused={cancel.onFocused}
          showRequest={showRequests}
          onChangeBooking={onChangeBooking}
        />
      ))}
    </ul>
  );
}

/** One reservation in a list (home panel, /me): where, when, its status, and what the diner can do next. */
export function ReservationCard({
  reservation,
  now,
  onCancel,
  busy = false,
  takeFocus = false,
  onFocused,
  showRequest = false,
  onChangeBooking,
}: {
  reservation: DinerReservation;
  now: Date;
  showRequest?: boolean;
  onCancel?: (reservation: DinerReservation) => void;
  onChangeBooking?: (reservation: DinerReservation) => void;
  busy?: boolean;
  /** Just cancelled from this card: once the list shows it cancelled, the focus goes to its name. */
  takeFocus?: boolean;
  onFocused?: () => void;
}) {
  const nameRef = useRef<HTMLAnchorElement>(null);
  const cancelled = reservation.status === 'CANCELLED';
  useEffect(() => {
    if (!takeFocus || !cancelled) return;
    // After the frame, so the closing dialog has handed the focus back first.
    const frame = window.requestAnimationFrame(() => {
      nameRef.current?.focus();
      onFocused?.();
    });
    return () => window.cancelAnimationFrame(frame);
  }, [takeFocus, cancelled, onFocused]);
  const actions = dinerActions(reservation, now);
  // A table the diner has asked for or been given, still ahead: it belongs in their calendar.
  const booked = (reservation.status === 'PENDING' || reservation.status === 'CONFIRMED') && Date.parse(reservation.startsAt) > now.getTime();
  const { restaurant, slot } = reservation;
  const holdEnds = reservation.status === 'HELD' && reservation.holdExpiresAt ? formatTime12h(toKolkata(new Date(reservation.holdExpiresAt)).time) : null;
  return (
    <li className={`res-card res-card--${reservation.status}`} data-testid="reservation" data-reservation-id={reservation.id} data-status={reservation.status}>
      <span className="res-card__emoji emoji" aria-hidden="true">
        {restaurant.emoji}
      </span>
      <div className="res-card__main">
        <div className="res-card__top">
          <Link ref={nameRef} className="res-card__name" to={`/r/${encodeURIComponent(restaurant.slug)}`}>
            {restaurant.name}
          </Link>
          <span className={`badge badge--${reservation.status}`}>{statusLabel(reservation)}</span>
        </div>
        <p className="res-card__when">
          <time dateTime={`${slot.date}T${slot.time}`}>
            <span>{formatDateShort(slot.date)}</span> · <span>{formatTime12h(slot.time)}</span>
          </time>{' '}
          · <span>{partyLabel(reservation.partySize)}</span>
        </p>
        <p className="res-card__where">
          {restaurant.neighborhood} · <span className="res-card__code">Booking code {bookingCode(reservation.id)}</span>
        </p>
        {actions.completeBooking && holdEnds ? <p className="res-card__note">Held for you until {holdEnds}. Confirm to send it to the restaurant.</p> : null}
        {actions.completeBooking || (actions.cancel && onCancel) || booked ? (
          <div className="res-card__actions">
            {actions.completeBooking ? (
              <ButtonLink to={holdPath(reservation)} size="sm" className="res-card__action">
                Complete Booking
              </ButtonLink>
            ) : null}
            {booked ? <AddToCalendarButton reservation={reservation} /> : null}
            {booked && onChangeBooking ? (
              <Button
                variant="secondary"
                size="sm"
                className="res-card__action"
                onClick={() => onChangeBooking(reservation)}
                aria-label={`Change reservation at ${restaurant.name}, ${formatDateShort(slot.date)} ${formatTime12h(slot.time)}`}
              >
                Change
              </Button>
            ) : null}
            {actions.cancel && onCancel ? (
              <Button
                variant="danger"
                size="sm"
                className="res-card__action"
                disabled={busy}
                onClick={() => onCancel(reservation)}
                aria-label={`Cancel reservation at ${restaurant.name}, ${formatDateShort(slot.date)} ${formatTime12h(slot.time)}`}
              >
                {busy ? 'Cancelling…' : 'Cancel'}
              </Button>
            ) : null}
          </div>
        ) : null}
        {showRequest &&
        (reservation.request || (booked && reservation.requestEditableUntil && now.getTime() < Date.parse(reservation.requestEditableUntil))) ? (
          <BookingRequestPanel reservation={reservation} withToken compact />
        ) : null}
      </div>
    </li>
  );
}

/** Rows shaped like reservations while the list loads. */
export function ReservationSkeletons({ count = 3 }: { count?: number }) {
  return (
    <ul className="res-list" aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        <li key={index} className="res-card res-card--skeleton">
          <Skeleton width={44} height={44} radius="var(--radius-md)" />
          <div className="res-card__main">
            <Skeleton width="55%" height={18} />
            <Skeleton width="70%" height={14} />
            <Skeleton width="35%" height={14} />
          </div>
        </li>
      ))}
    </ul>
  );
}
