import { Link } from 'react-router';
import type { AvailableTodayEntry } from '#common/contract/restaurants.ts';
import { HOME_STRIP_CARDS, preferredHoods } from '#common/domain/restaurants.ts';
import { formatTime12h } from '#common/domain/time.ts';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import { NoTablesToday } from '#web/features/discovery/NoTablesToday.tsx';
import { useAvailableToday } from './api.ts';
import { HotMark } from './HotMark.tsx';
import { writeBookingParams } from '#common/domain/booking-choice.ts';
import './today.css';

/** The strip shows at most this many times per restaurant, then a '+N' count (spec section 9). */
const TIMES_SHOWN = 2;
/** The strip's times are checked for a party of two, the smallest size offered. */
const STRIP_PARTY = 2;

function restaurantLink(entry: AvailableTodayEntry, slot?: { date: string; time: string }): string {
  const base = `/r/${encodeURIComponent(entry.restaurant.slug)}`;
  const first = slot ?? entry.slots[0];
  return `${base}${writeBookingParams({ date: first?.date, time: slot?.time, party: STRIP_PARTY })}`;
}

/** 'Today Near You': a swipeable row of restaurants with a free table in the next 24 hours. */
export function TodayStrip({ preferredHood }: { preferredHood?: string | null }) {
  // Diners in their preferred neighbourhood see its restaurants first; otherwise hot places lead.
  const hood = preferredHoods.find((known) => known === preferredHood);
  const today = useAvailableToday({ hood, limit: HOME_STRIP_CARDS });
  let body;
  if (today.isPending) {
    body = (
      <ul className="today__row" aria-hidden="true">
        {Array.from({ length: 6 }, (_, index) => (
          <li key={index} className="today-card today-card--skeleton" data-testid="today-skeleton">
            <Skeleton height={96} radius="var(--radius-md)" />
            <Skeleton width="70%" height={18} />
            <Skeleton width="45%" height={14} />
            <div className="today-card__times">
              <Skeleton width={76} height={36} radius="var(--radius-pill)" />
              <Skeleton width={76} height={36} radius="var(--radius-pill)" />
            </div>
          </li>
        ))}
      </ul>
    );
  } else if (today.isError || today.data.length === 0) {
    // A failed fetch is only logged (spec section 8); the strip reads as empty.
    body = (
      <div className="today__empty">
        <NoTablesToday />
      </div>
    );
  } else {
    body = (
      <ul className="today__row">
        {today.data.map((entry) => (
          <TodayCard key={entry.restaurant.id} entry={entry} />
        ))}
      </ul>
    );
  }
  return (
    <section className="today" aria-labelledby="today-title" aria-busy={today.isPending}>
      <div className="today__head container">
        <div>
          <h2 id="today-title">Today Near You</h2>
          <p className="today__sub">Free tables in the next 24 hours.</p>
        </div>
        <Link to="/explore-tonight" className="today__all">
          See all <span aria-hidden="true">→</span>
        </Link>
      </div>
      <div className="today__scroller">{body}</div>
    </section>
  );
}

function TodayCard({ entry }: { entry: AvailableTodayEntry }) {
  const { restaurant, slots } = entry;
  const shown = slots.slice(0, TIMES_SHOWN);
  const more = slots.length - shown.length;
  return (
    <li className="today-card" data-testid="today-card">
      <Link to={restaurantLink(entry)} className="today-card__picture" tabIndex={-1} aria-hidden="true">
        <img src={`/api/restaurant/${encodeURIComponent(restaurant.id)}/hero-image`} alt="" width={240} height={120} loading="lazy" decoding="async" />
        <span className="today-card__emoji emoji">{restaurant.emoji}</span>
      </Link>
      <div className="today-card__body">
        <h3 className="today-card__name">
          <Link to={restaurantLink(entry)}>{restaurant.name}</Link>
        </h3>
        <p className="today-card__hood">
          {restaurant.neighborhood}
          {restaurant.hot ? <HotMark className="today-card__hot" lead=" · " /> : null}
        </p>
      </div>
      <div className="today-card__times">
        {shown.map((slot) => (
          <Link
            key={slot.slot_id}
            to={restaurantLink(entry, slot)}
            className="today-card__time"
            aria-label={`${formatTime12h(slot.time)} at ${restaurant.name}`}
          >
            {formatTime12h(slot.time)}
          </Link>
        ))}
        {more > 0 ? (
          <Link to={restaurantLink(entry)} className="today-card__more" aria-label={`${more} more times at ${restaurant.name}`}>
            +{more}
          </Link>
        ) : null}
      </div>
    </li>
  );
}
