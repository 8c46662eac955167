import type { AvailableTodayEntry } from '#common/contract/restaurants.ts';
import { addDays, formatDateShort, formatTime12h, todayInKolkata } from '#common/domain/time.ts';
import { Link } from 'react-router';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import { slotDepositWords as slotDepositLabel } from '#common/domain/money-sentences.ts';
import { reserveHref } from './explore.ts';

type Slot = AvailableTodayEntry['slots'][number];

/** 'Tonight' for today's date in Kolkata, 'Tomorrow' for the next, else 'Sat, 28 Nov'. */
function dayLabel(date: string, today: string): string {
  if (date === today) return 'Tonight';
  if (date === addDays(today, 1)) return 'Tomorrow';
  return formatDateShort(date);
}

function groupByDate(slots: Slot[]): [string, Slot[]][] {
  const groups = new Map<string, Slot[]>();
  for (const slot of slots) groups.set(slot.date, [...(groups.get(slot.date) ?? []), slot]);
  return [...groups.entries()];
}

/** One restaurant with its times for the chosen party: each time goes straight to booking it. */
export function ExploreCard({ entry, partySize, today = todayInKolkata() }: { entry: AvailableTodayEntry; partySize: number; today?: string }) {
  const { restaurant } = entry;
  const headingId = `explore-${restaurant.id}`;
  const days = groupByDate(entry.slots);
  const labelDays = days.length > 1 || days[0]?.[0] !== today;
  return (
    <li className="explore-card" data-testid="explore-card" data-slug={restaurant.slug}>
      <div className="explore-card__head">
        <span className={`explore-card__emoji${restaurant.hot ? ' explore-card__emoji--hot' : ''}`} aria-hidden="true">
          <span className="emoji">{restaurant.emoji}</span>
        </span>
        <div className="explore-card__text">
          <h2 className="explore-card__name" id={headingId}>
            <Link to={`/r/${encodeURIComponent(restaurant.slug)}`}>{restaurant.name}</Link>
          </h2>
          {restaurant.neighborhood ? <p className="explore-card__hood">{restaurant.neighborhood}</p> : null}
          {restaurant.cuisineTags.length > 0 ? <p className="explore-card__cuisine">{restaurant.cuisineTags.join(' · ')}</p> : null}
        </div>
        {restaurant.hot ? <span className="chip chip--hot explore-card__hot">Hot</span> : null}
      </div>
      {days.map(([date, slots]) => (
        <div key={date} className="explore-day">
          {labelDays ? <p className="explore-day__label">{dayLabel(date, today)}</p> : null}
          <ul className="explore-times" aria-label={`${dayLabel(date, today)} at ${restaurant.name}`}>
            {slots.map((slot) => (
              <li key={slot.slot_id} className={slot.deposit ? 'explore-times__item--deposit' : undefined}>
                <Link
                  className="explore-time"
                  to={reserveHref(restaurant.slug, slot, partySize)}
                  aria-label={`${formatTime12h(slot.time)} ${dayLabel(date, today).toLowerCase()} at ${restaurant.name}, party of ${partySize}${slot.deposit ? `, ${slotDepositLabel(slot.deposit)}` : ''}`}
                >
                  {formatTime12h(slot.time)}
                </Link>
                {/* Beside the link, not in it: the link's name starts with what it shows (the deposit is in its name too). */}
                {slot.deposit ? (
                  <span className="explore-time__deposit" aria-hidden="true">
                    {slotDepositLabel(slot.deposit)}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </li>
  );
}

/** Skeletons shaped like the cards. */
export function ExploreSkeleton() {
  return (
    <ul className="explore-list" aria-hidden="true">
      {Array.from({ length: 4 }, (_, index) => (
        <li key={index} className="explore-card">
          <div className="explore-card__head">
            <Skeleton width={48} height={48} radius="50%" />
            <div className="explore-card__text">
              <Skeleton width="55%" height={20} />
              <Skeleton width="75%" height={14} />
            </div>
          </div>
          <div className="explore-times explore-times--skeleton">
            {Array.from({ length: 4 }, (_, time) => (
              <Skeleton key={time} height={44} radius="var(--radius-pill)" />
            ))}
          </div>
        </li>
      ))}
    </ul>
  );
}
