import { slotDepositWords } from '#common/domain/money-sentences.ts';
import { useEffect, useRef } from 'react';
import type { AvailabilityCalendar, AvailabilityEntry } from '#common/contract/restaurants.ts';
import { formatTime12h } from '#common/domain/time.ts';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import type { SlotDeposit } from '#common/contract/deposits.ts';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function dayParts(date: string) {
  const d = new Date(`${date}T00:00:00Z`);
  return { weekday: WEEKDAYS[d.getUTCDay()], day: d.getUTCDate(), month: MONTHS[d.getUTCMonth()] };
}

/**
 * The next 30 days as a swipeable row. Days with nothing free are marked Full but can still be
 * picked: that is where the diner joins the waitlist (decision 090).
 */
export function DatePicker({ calendar, value, onChange }: { calendar: AvailabilityCalendar; value: string; onChange: (date: string) => void }) {
  const row = useRef<HTMLDivElement>(null);
  const hasScrolled = useRef(false);
  const firstDay = calendar.days[0]?.date;
  useEffect(() => {
    // A new row already shows its first day: measuring it would force a layout while the page loads.
    const isFirstRun = !hasScrolled.current;
    hasScrolled.current = true;
    if (isFirstRun && firstDay === value) return;
    // Bring the chosen day into view inside the row only (never scroll the page).
    const list = row.current;
    const chosen = list?.querySelector<HTMLElement>('[aria-pressed="true"]');
    if (list && chosen) list.scrollLeft = Math.max(0, chosen.offsetLeft - list.offsetLeft - 12);
  }, [value, firstDay]);
  return (
    <fieldset className="picker">
      <legend className="picker__legend">Date</legend>
      <div className="date-row" ref={row}>
        {calendar.days.map((day, index) => {
          const { weekday, day: dayOfMonth, month } = dayParts(day.date);
          const bookable = day.partySizes.length > 0;
          const label = index === 0 ? 'Today' : weekday;
          return (
            <button
              key={day.date}
              type="button"
              className={bookable ? 'date-chip' : 'date-chip date-chip--full'}
              aria-pressed={day.date === value}
              data-date={day.date}
              onClick={() => onChange(day.date)}
            >
              <span className="date-chip__weekday">{label}</span>
              <span className="date-chip__day">{dayOfMonth}</span>
              {/* A full day is heard as "Wed 25 Nov, fully booked: join the waitlist"; the visible "Full" would only repeat it. */}
              {bookable ? null : <span className="visually-hidden">{month}, fully booked: join the waitlist</span>}
              <span className="date-chip__month" aria-hidden={bookable ? undefined : true}>
                {bookable ? month : 'Full'}
              </span>
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The party sizes with a free time on the chosen date (spec section 5); on a full day, every probed size, for the waitlist. */
export function PartySizePicker({ sizes, value, onChange }: { sizes: readonly number[]; value: number; onChange: (size: number) => void }) {
  return (
    <fieldset className="picker">
      <legend className="picker__legend">Party size</legend>
      <div className="segmented">
        {sizes.map((size) => (
          <button key={size} type="button" className="segmented__option" aria-pressed={size === value} onClick={() => onChange(size)}>
            {size}
            <span className="visually-hidden"> guests</span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/** 'Deposit ₹250 a guest' or 'Prepaid ₹1,500 a guest' (decision 120). */
export function slotDepositLabel(deposit: SlotDeposit): string {
  return slotDepositWords(deposit);
}

/** The day's times in 12-hour form; taken ones stay visible but disabled. */
export function TimePicker({
  entries,
  isLoading,
  isError,
  value,
  onChange,
  onRetry,
}: {
  entries: AvailabilityEntry[] | undefined;
  isLoading: boolean;
  isError: boolean;
  value: string | null;
  onChange: (time: string) => void;
  onRetry: () => void;
}) {
  let body;
  if (isLoading) {
    body = (
      <div className="time-grid" aria-hidden="true">
        {Array.from({ length: 8 }, (_, index) => (
          <Skeleton key={index} height={44} radius="var(--radius-md)" />
        ))}
      </div>
    );
  } else if (isError) {
    body = (
      <div className="picker__note">
        <p>We couldn’t load the times for this day.</p>
        <button type="button" className="btn btn--secondary" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  } else if (!entries || entries.length === 0 || entries.every((entry) => !entry.available)) {
    body = <p className="picker__note">Every table is taken on this day for your party. Try another date or party size, or wait for a table to free up.</p>;
  } else {
    body = (
      <div className="time-grid">
        {entries.map((entry) => (
          <button
            key={entry.id}
            type="button"
            className="time-chip"
            aria-pressed={entry.time === value}
            disabled={!entry.available}
            onClick={() => onChange(entry.time)}
          >
            {formatTime12h(entry.time)}
            {entry.deposit ? (
              <>
                <span className="visually-hidden">, </span>
                <span className="time-chip__deposit">{slotDepositLabel(entry.deposit)}</span>
              </>
            ) : null}
            {/* Heard, not shown: the chip's name is its own text, so what is heard always contains what is seen. */}
            {entry.available ? null : <span className="visually-hidden">, taken</span>}
          </button>
        ))}
      </div>
    );
  }
  return (
    <fieldset className="picker" aria-busy={isLoading}>
      <legend className="picker__legend">Time</legend>
      {body}
    </fieldset>
  );
}
