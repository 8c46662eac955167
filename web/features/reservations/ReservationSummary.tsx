import { Link } from 'react-router';
import type { DinerReservation } from '#common/contract/reservations.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { FactList } from '#web/components/ui/FactList.tsx';
import { partyLabel } from './rules.ts';
import './reservations.css';

/** One booking at a glance (the hold screen, a reminder's link page): the restaurant, then date, time and party. */
export function ReservationSummary({ reservation }: { reservation: DinerReservation }) {
  const { restaurant, slot } = reservation;
  return (
    <section className="hold__summary" aria-label="Your booking">
      <div className="hold__restaurant">
        <span className="hold__emoji emoji" aria-hidden="true">
          {restaurant.emoji}
        </span>
        <div>
          <Link to={`/r/${encodeURIComponent(restaurant.slug)}`} className="hold__restaurant-name">
            {restaurant.name}
          </Link>
          <span className="hold__restaurant-hood">{restaurant.neighborhood}</span>
        </div>
      </div>
      <FactList
        className="hold__facts"
        facts={[
          ['Date', formatDateShort(slot.date)],
          ['Time', formatTime12h(slot.time)],
          ['Party', partyLabel(reservation.partySize)],
        ]}
      />
    </section>
  );
}
