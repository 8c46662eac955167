import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdminBooking, LiveStatus } from '#common/contract/portal.ts';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import type { ReservationTransition } from '#common/domain/reservation-status.ts';
import { formatTime12h, todayInKolkata } from '#common/domain/time.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { EmptyState, Skeleton } from '#web/components/ui/Feedback.tsx';
import { errorMessage } from '#web/api/client.ts';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useAdminBookings, useMoveBooking } from './api.ts';
import { groupByDay, isSettled, mayWaiveFee, reminderReplyLabels, staffActions, staffStatusLabels } from './bookings.ts';
import { useWaiveFee } from './deposit-day-api.ts';
import { DepositBadge, DepositDayPanel, useBookingDeposit } from './DepositDayPanel.tsx';
import { SlotsPanel } from './SlotsPanel.tsx';
import { AdminPanel } from './AdminPanel.tsx';
import { BookingSearchPanel } from './BookingSearchPanel.tsx';
import { RemindersPanel } from './RemindersPanel.tsx';
import { DatesPanel } from './DatesPanel.tsx';
import { useNow } from '#web/components/ui/use-now.ts';
import { GuestCard } from '#web/features/guests/GuestCard.tsx';

function formatUpdated(at: number): string {
  if (!at) return '';
  const time = new Date(at).toLocaleTimeString('en-IN', { hour: 'numeric', minute: '2-digit', second: '2-digit', hour12: true, timeZone: 'Asia/Kolkata' });
  return `Updated ${time.toUpperCase()}`;
}

function LiveStatusPanel({
  liveStatus,
  laterPending,
  updatedAt,
  isLoading,
}: {
  liveStatus?: LiveStatus;
  laterPending: number;
  updatedAt: number;
  isLoading: boolean;
}) {
  // The counts are today's (decision 223); pending requests on later days are named beside them, never lost.
  const tiles: { key: keyof LiveStatus; label: string; hint: string }[] = [
    {
      key: 'pending',
      label: 'Pending today',
      hint: laterPending > 0 ? `Held or awaiting your confirmation; ${laterPending} more on later days` : 'Held or awaiting your confirmation',
    },
    { key: 'confirmed', label: 'Confirmed today', hint: 'Confirmed or seated' },
    { key: 'completed', label: 'Completed today', hint: 'Finished today' },
  ];
  return (
    <AdminPanel
      className="live-status"
      title="Live Booking Status"
      note={
        <>
          Auto-refreshes every 30 seconds
          {updatedAt ? <span className="admin-panel__updated"> · {formatUpdated(updatedAt)}</span> : null}
        </>
      }
    >
      <dl className="live-status__tiles">
        {tiles.map((tile) => (
          <div key={tile.key} className={`live-tile live-tile--${tile.key}`}>
            <dt className="live-tile__label">{tile.label}</dt>
            <dd className="live-tile__count" data-testid={`count-${tile.key}`}>
              {isLoading || !liveStatus ? <Skeleton width={40} height={34} /> : liveStatus[tile.key]}
            </dd>
            <dd className="live-tile__hint">{tile.hint}</dd>
          </div>
        ))}
      </dl>
    </AdminPanel>
  );
}

function actionVariant(move: ReservationTransition): 'primary' | 'secondary' | 'danger' | 'dark' {
  if (move.to === 'CANCELLED' || move.to === 'NO_SHOW') return 'danger';
  if (move.to === 'COMPLETED') return 'dark';
  return 'primary';
}

function BookingRow({
  booking,
  now,
  busy,
  onMove,
  onWaive,
  takeFocus,
  onFocusTaken,
}: {
  booking: AdminBooking;
  now: Date;
  busy: boolean;
  onMove: (booking: AdminBooking, move: ReservationTransition) => void;
  /** Asks to waive the booking's fee of `amountPaise` (offered on a fee kept or on its way). */
  onWaive: (booking: AdminBooking, amountPaise: number) => void;
  /** Set once a move on this row has landed: the focus goes to its next action, else to the row's time. */
  takeFocus: boolean;
  onFocusTaken: () => void;
}) {
  const actions = staffActions(booking, now);
  const settled = isSettled(booking.status);
  const deposit = useBookingDeposit(booking.id, booking.slot.date);
  const rowRef = useRef<HTMLLIElement>(null);
  const [showGuest, setShowGuest] = useState(false);
  const guestCardId = `guest-card-${booking.id}`;
  useEffect(() => {
    if (!takeFocus) return;
    // After the frame, so a closing dialog has handed the focus back first.
    const frame = window.requestAnimationFrame(() => {
      const row = rowRef.current;
      const next = row?.querySelector<HTMLElement>('.booking-row__action:not([disabled])') ?? row?.querySelector<HTMLElement>('.booking-row__time');
      next?.focus();
      onFocusTaken();
    });
    return () => window.cancelAnimationFrame(frame);
  }, [takeFocus, onFocusTaken]);
  return (
    <li
      ref={rowRef}
      className={`booking-row${settled ? ' booking-row--settled' : ''}`}
      data-testid="booking-row"
      data-booking-id={booking.id}
      data-status={booking.status}
    >
      <div className="booking-row__time" tabIndex={-1}>
        {formatTime12h(booking.slot.time)}
      </div>
      <div className="booking-row__guest">
        <div className="booking-row__name">
          {booking.user.name}
          <span className="booking-row__party">
            {booking.partySize} {booking.partySize === 1 ? 'guest' : 'guests'}
          </span>
        </div>
        <div className="booking-row__contact">
          {booking.user.email ? <a href={`mailto:${booking.user.email}`}>{booking.user.email}</a> : null}
          {booking.user.phone ? <a href={`tel:${booking.user.phone}`}>{booking.user.phone}</a> : null}
          {!booking.user.email && !booking.user.phone ? <span>No contact details</span> : null}
        </div>
      </div>
      <div className="booking-row__status">
        <span className={`badge badge--${booking.status}`}>{staffStatusLabels[booking.status]}</span>
        {booking.status === 'HELD' ? <span className="booking-row__hint">Diner is confirming</span> : null}
        {booking.reminderReply ? (
          <span className={`booking-row__reply booking-row__reply--${booking.reminderReply}`} data-testid="reminder-reply">
            {reminderReplyLabels[booking.reminderReply]}
          </span>
        ) : null}
        {booking.changedFrom ? (
          <span className="booking-row__hint" data-testid="booking-changed">
            {booking.changedFrom}
          </span>
        ) : null}
        <DepositBadge bookingId={booking.id} date={booking.slot.date} />
      </div>
      <div className="booking-row__actions">
        {actions.map((move) => (
          <Button
            key={move.to}
            size="sm"
            variant={actionVariant(move)}
            className="booking-row__action"
            // aria-disabled, not disabled: a disabled button would drop the keyboard focus to <body>.
            aria-disabled={busy || undefined}
            aria-label={`${move.label}: ${booking.user.name}, ${formatTime12h(booking.slot.time)}`}
            onClick={() => {
              if (!busy) onMove(booking, move);
            }}
          >
            {move.label}
          </Button>
        ))}
        {deposit && mayWaiveFee(booking.status, deposit.state) ? (
          <Button
            size="sm"
            variant="secondary"
            className="booking-row__action"
            aria-disabled={busy || undefined}
            aria-label={`Waive fee: ${booking.user.name}, ${formatTime12h(booking.slot.time)}`}
            onClick={() => {
              if (!busy) onWaive(booking, deposit.amountPaise);
            }}
          >
            Waive fee
          </Button>
        ) : null}
        <Button
          size="sm"
          variant="ghost"
          className="booking-row__guest-toggle"
          aria-expanded={showGuest}
          aria-controls={guestCardId}
          aria-label={`${showGuest ? 'Hide guest card' : 'Guest card'}: ${booking.user.name}, ${formatTime12h(booking.slot.time)}`}
          onClick={() => setShowGuest((open) => !open)}
        >
          {showGuest ? 'Hide guest card' : 'Guest card'}
        </Button>
      </div>
      <div id={guestCardId} className="booking-row__card" hidden={!showGuest}>
        {showGuest ? <GuestCard reservationId={booking.id} headingLevel="h4" /> : null}
      </div>
    </li>
  );
}

function BookingsPanel() {
  const bookings = useAdminBookings();
  const move = useMoveBooking();
  const now = useNow(30_000);
  const [asking, setAsking] = useState<{ booking: AdminBooking; move: ReservationTransition } | null>(null);
  const [waiving, setWaiving] = useState<{ booking: AdminBooking; amountPaise: number } | null>(null);
  const waive = useWaiveFee();
  const toast = useToast();
  const today = bookings.data?.today || todayInKolkata(now);
  const days = bookings.data ? groupByDay(bookings.data.bookings, today) : [];
  const busyId = move.isPending ? move.variables?.id : waive.isPending ? waive.variables?.id : undefined;
  // Where the focus goes once a move has landed and the list shows it, and what is announced.
  const [focusId, setFocusId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const focusTaken = useCallback(() => setFocusId(null), [setFocusId]);

  function send(booking: AdminBooking, status: ReservationTransition['to'], onSettled?: () => void) {
    move.mutate(
      { id: booking.id, status },
      {
        // The hook's onSettled has re-read the list by now, so the row shows the new status.
        onSuccess: () => {
          setAnnouncement(`${booking.user.name}, ${formatTime12h(booking.slot.time)}: ${staffStatusLabels[status]}.`);
          setFocusId(booking.id);
        },
        onError: () => setAnnouncement(`The booking for ${booking.user.name} could not be updated. Try again.`),
        onSettled,
      },
    );
  }

  function sendWaiver(booking: AdminBooking, amountPaise: number) {
    waive.mutate(
      { id: booking.id },
      {
        onSuccess: () => {
          toast(`Fee waived: ${booking.user.name} gets up to ${formatRupees(amountPaise)} back and is told by email.`, 'success', { key: 'waive-fee' });
          setAnnouncement(`${booking.user.name}, ${formatTime12h(booking.slot.time)}: fee waived.`);
          setFocusId(booking.id);
        },
        onError: (error) => {
          toast(
            errorMessage(error, {
              server: 'The fee could not be waived. Try again.',
              network: 'Could not reach the server. Check your connection and try again.',
            }),
            'error',
            { key: 'waive-fee' },
          );
          setFocusId(booking.id);
        },
        onSettled: () => setWaiving(null),
      },
    );
  }

  function onMove(booking: AdminBooking, transition: ReservationTransition) {
    // Undoable moves go at once; a cancel or a no-show is asked first.
    if (transition.to === 'CANCELLED' || transition.to === 'NO_SHOW') setAsking({ booking, move: transition });
    else send(booking, transition.to);
  }

  return (
    <>
      <AdminPanel
        className="bookings"
        title="Upcoming Bookings"
        note={bookings.data ? `${bookings.data.bookings.filter((b) => !isSettled(b.status)).length} open` : null}
      >
        {bookings.isPending ? (
          <div className="bookings__loading" aria-hidden="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={56} radius="var(--radius-md)" />
            ))}
          </div>
        ) : bookings.isError && !bookings.data ? (
          <EmptyState icon="📡" title="Bookings could not be loaded">
            <p>We will try again in a moment.</p>
            <Button variant="secondary" size="sm" onClick={() => bookings.refetch()}>
              Try again
            </Button>
          </EmptyState>
        ) : (
          days.map((day) => (
            <div key={day.date} className="bookings__day">
              <h3 className="bookings__day-title">
                {day.label}
                {day.bookings.length > 0 ? <span className="bookings__day-count">{day.bookings.length}</span> : null}
              </h3>
              {day.bookings.length === 0 ? (
                <p className="bookings__empty">No bookings today</p>
              ) : (
                <ul className="bookings__list">
                  {day.bookings.map((booking) => (
                    <BookingRow
                      key={booking.id}
                      booking={booking}
                      now={now}
                      busy={busyId === booking.id}
                      onMove={onMove}
                      onWaive={(waived, amountPaise) => setWaiving({ booking: waived, amountPaise })}
                      takeFocus={focusId === booking.id}
                      onFocusTaken={focusTaken}
                    />
                  ))}
                </ul>
              )}
            </div>
          ))
        )}
      </AdminPanel>
      <ConfirmDialog
        open={asking !== null || waiving !== null}
        title={waiving ? `Waive the ${formatRupees(waiving.amountPaise)} fee?` : asking?.move.to === 'NO_SHOW' ? 'Mark as a no-show?' : 'Cancel this booking?'}
        confirmLabel={waiving ? 'Waive fee' : asking?.move.to === 'NO_SHOW' ? 'Mark no-show' : 'Cancel booking'}
        cancelLabel={waiving ? 'Keep the fee' : 'Keep it'}
        tone={waiving ? 'primary' : 'danger'}
        busy={move.isPending || waive.isPending}
        onCancel={() => {
          if (waiving) setFocusId(waiving.booking.id);
          setAsking(null);
          setWaiving(null);
        }}
        onConfirm={() => {
          if (waiving) sendWaiver(waiving.booking, waiving.amountPaise);
          else if (asking) send(asking.booking, asking.move.to, () => setAsking(null));
        }}
      >
        {waiving ? (
          <p>
            {waiving.booking.user.name}, {waiving.booking.partySize} {waiving.booking.partySize === 1 ? 'guest' : 'guests'} at{' '}
            {formatTime12h(waiving.booking.slot.time)}. What is still blocked on their account is released, and a fee already taken is refunded. They are told
            by email.
          </p>
        ) : asking ? (
          <p>
            {asking.booking.user.name}, {asking.booking.partySize} {asking.booking.partySize === 1 ? 'guest' : 'guests'} at{' '}
            {formatTime12h(asking.booking.slot.time)}.{' '}
            {asking.move.to === 'NO_SHOW'
              ? 'The table is released and the diner sees a no-show.'
              : 'The table is released and the diner sees the booking cancelled.'}
          </p>
        ) : null}
      </ConfirmDialog>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </>
  );
}

/** The Dashboard tab: live counts, the bookings to act on, and the slots. */
export function Dashboard() {
  const bookings = useAdminBookings();
  return (
    <div className="admin-dashboard">
      <LiveStatusPanel
        liveStatus={bookings.data?.liveStatus}
        laterPending={
          (bookings.data?.bookings ?? []).filter((booking) => booking.status === 'PENDING' && booking.slot.date > (bookings.data?.today ?? '')).length
        }
        updatedAt={bookings.dataUpdatedAt}
        isLoading={bookings.isPending}
      />
      <div className="admin-dashboard__main">
        <BookingSearchPanel />
        <BookingsPanel />
        <DatesPanel />
      </div>
      <div className="admin-dashboard__side">
        <DepositDayPanel />
        <SlotsPanel />
        <RemindersPanel />
      </div>
    </div>
  );
}
