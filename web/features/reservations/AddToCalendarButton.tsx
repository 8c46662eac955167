import { useState } from 'react';
import type { DinerReservation } from '#common/contract/reservations.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { fetchCalendarLink } from '#web/features/reminders/api.ts';

/**
 * "Add to calendar" on a booked table: asks for the reservation's signed calendar path and opens
 * it, which downloads the .ics file (phones offer to add it to the calendar at once).
 */
export function AddToCalendarButton({ reservation }: { reservation: DinerReservation }) {
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const { restaurant, slot } = reservation;

  async function onClick() {
    setBusy(true);
    try {
      const { path } = await fetchCalendarLink(reservation.id);
      window.location.assign(path);
    } catch (error) {
      toast(
        errorMessage(error, {
          server: 'The calendar file could not be made. Try again.',
          network: 'Could not reach the server. Check your connection and try again.',
        }),
        'error',
        { key: 'calendar' },
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button
      variant="secondary"
      size="sm"
      className="res-card__action"
      disabled={busy}
      onClick={() => void onClick()}
      aria-label={`Add to calendar: ${restaurant.name}, ${formatDateShort(slot.date)} ${formatTime12h(slot.time)}`}
    >
      {busy ? 'Preparing…' : 'Add to calendar'}
    </Button>
  );
}
