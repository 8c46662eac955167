import { useState } from 'react';
import { Link } from 'react-router';
import { useMyReservations } from './api.ts';
import { useCancelFromList } from './CancelReservationDialog.tsx';
import { NoReservationsYet, ReservationList, ReservationSkeletons } from './ReservationCard.tsx';
import './reservations.css';

/** The home panel shows the first 3 reservations (spec section 9). */
const PANEL_SIZE = 3;

/** 'Your Reservations' on home: the first three, Complete Booking for holds, Cancel after the dialog. */
export function ReservationsPanel() {
  const reservations = useMyReservations(true);
  // A failed cancel is only logged (spec section 8); the list is re-read to show the truth.
  // Cancelled while the diner is here: the card stays to say so (and keep the focus); on the next visit it is gone.
  const [cancelledHere, setCancelledHere] = useState<string[]>([]);
  const cancel = useCancelFromList({
    onFailed: (error) => console.error('Could not cancel the reservation', error),
    onDone: (id) => setCancelledHere((ids) => [...ids, id]),
  });
  const now = new Date();
  // Only bookings still ahead of the diner: cancelled and expired ones live in /me (decision 221).
  const list = (reservations.data ?? []).filter((reservation) => reservation.status !== 'CANCELLED' || cancelledHere.includes(reservation.id));

  let body;
  if (reservations.isPending) {
    body = <ReservationSkeletons count={2} />;
  } else if (reservations.isError) {
    // Only logged (spec section 8): the panel keeps its link to the full list.
    body = null;
  } else if (list.length === 0) {
    body = <NoReservationsYet className="panel__empty" next="Pick a time below and it will show up here." />;
  } else {
    body = <ReservationList reservations={list.slice(0, PANEL_SIZE)} now={now} cancel={cancel} />;
  }

  return (
    <section className="panel" aria-labelledby="your-reservations-title" aria-busy={reservations.isPending}>
      <div className="panel__head">
        <h2 id="your-reservations-title">Your Reservations</h2>
        <Link to="/me" className="panel__all">
          View all{list.length > PANEL_SIZE ? ` (${list.length})` : ''} <span aria-hidden="true">→</span>
        </Link>
      </div>
      {body}
      {cancel.dialog}
    </section>
  );
}
