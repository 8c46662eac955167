import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { AvailabilityCalendar, PublicRestaurant } from '#common/contract/restaurants.ts';
import { capitalise, emojiForCategory } from '#common/domain/restaurants.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { ApiError, errorMessage } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { EmptyState, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { loginPath } from '#web/features/accounts/return-path.ts';
import { setCustomerToken, useCustomerToken } from '#web/features/accounts/session.ts';
import { useAvailability, useAvailabilityCalendar, useRestaurant } from '#web/features/restaurants/api.ts';
import { DatePicker, PartySizePicker, TimePicker } from '#web/features/restaurants/BookingPicker.tsx';
import { initialChoice, openingChoice, partySizeFor, partySizesOn, pickerPartySizes, readBookingParams, writeBookingParams } from '#common/domain/booking-choice.ts';
import { HeroImage } from '#web/features/restaurants/HeroImage.tsx';
import { useCreateReservation } from '#web/features/reservations/api.ts';
import { holdPath, partyLabel } from '#web/features/reservations/rules.ts';
import { JOIN_WAITLIST_FORM_ID, JoinWaitlist } from '#web/features/waitlist/JoinWaitlist.tsx';
import '#web/features/restaurants/restaurant.css';

/** /r/{slug} and /restaurant/{id}: the restaurant, and the date, party size and time picker. */
export default function RestaurantScreen() {
  const { slug, id } = useParams();
  const key = slug ?? id ?? '';
  const restaurant = useRestaurant(key);
  const calendar = useAvailabilityCalendar(key);

  useEffect(() => {
    document.title = restaurant.data ? `${restaurant.data.name} · Tablefair` : 'Restaurant · Tablefair';
  }, [restaurant.data]);

  if (restaurant.isError) {
    const missing = restaurant.error instanceof ApiError && (restaurant.error.status === 404 || restaurant.error.status === 400);
    return (
      <div className="container page">
        <EmptyState icon={missing ? '🍽️' : '⚠️'} title={<h1>{missing ? 'Restaurant not found' : 'This restaurant could not load'}</h1>}>
          <p>{missing ? 'The link may be old, or the restaurant has left Tablefair.' : 'Check your connection and try again.'}</p>
          <p className="restaurant-empty__actions">
            {missing ? null : (
              <Button variant="secondary" onClick={() => void restaurant.refetch()}>
                Try again
              </Button>
            )}
            <ButtonLink to="/explore-tonight">Find a table today</ButtonLink>
            <ButtonLink to="/" variant="ghost">
              Back to home
            </ButtonLink>
          </p>
        </EmptyState>
      </div>
    );
  }
  if (restaurant.isPending) return <RestaurantSkeleton />;
  return <RestaurantPage restaurant={restaurant.data} calendar={calendar} />;
}

function RestaurantPage({ restaurant, calendar }: { restaurant: PublicRestaurant; calendar: ReturnType<typeof useAvailabilityCalendar> }) {
  return (
    <div className="restaurant">
      <div className="restaurant__layout container">
        <HeroImage restaurant={restaurant} className="restaurant__hero" />
        <RestaurantIntro restaurant={restaurant} />
        <RestaurantDetails restaurant={restaurant} />
        <aside className="restaurant__booking" aria-labelledby="booking-title">
          <h2 id="booking-title" className="restaurant__booking-title">
            Book a table
          </h2>
          {calendar.isPending ? (
            <BookingSkeleton />
          ) : calendar.isError ? (
            <div className="picker__note">
              <p>We couldn’t load this restaurant’s availability.</p>
              <Button variant="secondary" onClick={() => void calendar.refetch()}>
                Try again
              </Button>
            </div>
          ) : calendar.data.firstAvailableDate === null ? (
            <>
              <div className="restaurant__none">
                <EmptyState icon="🗓️" title="No availability">
                  <p>Nothing is free here in the next 30 days. Pick a date below and join the waitlist: when a table frees up, we hold it for you.</p>
                  <Link className="btn btn--secondary" to="/">
                    ← Back
                  </Link>
                </EmptyState>
              </div>
              <Booking restaurant={restaurant} calendar={calendar.data} />
            </>
          ) : (
            <Booking restaurant={restaurant} calendar={calendar.data} />
          )}
        </aside>
      </div>
    </div>
  );
}

function RestaurantIntro({ restaurant }: { restaurant: PublicRestaurant }) {
  return (
    <div className="restaurant__intro">
      <div className="restaurant__title-row">
        <span className="restaurant__emoji emoji" aria-hidden="true">
          {restaurant.emoji}
        </span>
        <div>
          <h1 className="restaurant__name">{restaurant.name}</h1>
          <p className="restaurant__meta">
            <span>{restaurant.neighborhood}</span>
            {restaurant.hot ? (
              <span className="chip chip--hot">
                <span className="emoji" aria-hidden="true">
                  🔥
                </span>{' '}
                Hot
              </span>
            ) : null}
          </p>
        </div>
      </div>
      {restaurant.cuisineTags.length > 0 ? (
        <ul className="restaurant__tags" aria-label="Cuisine">
          {restaurant.cuisineTags.map((tag) => (
            <li key={tag} className="chip">
              {tag}
            </li>
          ))}
        </ul>
      ) : null}
      {restaurant.description ? <p className="restaurant__description">{restaurant.description}</p> : null}
    </div>
  );
}

function RestaurantDetails({ restaurant }: { restaurant: PublicRestaurant }) {
  const website = safeExternalUrl(restaurant.website);
  const instagram = safeExternalUrl(restaurant.instagramUrl);
  return (
    <section className="restaurant__details" aria-labelledby="details-title">
      <h2 id="details-title" className="restaurant__section-title">
        Details
      </h2>
      <dl className="details-list">
        <div>
          <dt>Category</dt>
          <dd>
            <span className="emoji" aria-hidden="true">
              {emojiForCategory(restaurant.category)}
            </span>{' '}
            {capitalise(restaurant.category || 'restaurant')}
          </dd>
        </div>
        <div>
          <dt>Neighborhood</dt>
          <dd>{restaurant.neighborhood}</dd>
        </div>
        <div>
          <dt>Website</dt>
          <dd>
            {website ? (
              <a href={website.href} target="_blank" rel="noopener noreferrer">
                {website.label}
              </a>
            ) : (
              <span className="details-list__none">Not listed</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Instagram</dt>
          <dd>
            {instagram ? (
              <a href={instagram.href} target="_blank" rel="noopener noreferrer">
                {instagramHandle(instagram)}
              </a>
            ) : (
              <span className="details-list__none">Not listed</span>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** Links from the restaurant's profile open only as http(s), never javascript: or data:. */
function safeExternalUrl(value: string | null): { href: string; label: string; url: URL } | null {
  if (!value) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return { href: url.href, label: url.host.replace(/^www\./, '') + url.pathname.replace(/\/$/, ''), url };
  } catch {
    return null;
  }
}

function instagramHandle(link: { label: string; url: URL }): string {
  const handle = link.url.pathname.split('/').filter(Boolean)[0];
  return handle && /instagram\.com$/.test(link.url.host) ? `@${handle}` : link.label;
}

function Booking({ restaurant, calendar }: { restaurant: PublicRestaurant; calendar: AvailabilityCalendar }) {
  const [params] = useSearchParams();
  const request = useMemo(() => readBookingParams(params), []); // eslint-disable-line react-hooks/exhaustive-deps -- the link's choice applies once, on arrival
  const first = useMemo(() => initialChoice(calendar, request), [calendar, request]);
  const opening = useMemo(() => openingChoice(calendar, request), [calendar, request]);
  const [date, setDate] = useState(opening.date);
  const [partySize, setPartySize] = useState(opening.partySize);
  const [time, setTime] = useState<string | null>(first && first.date === request.date ? (request.time ?? null) : null);
  // Back from signing in to join the waitlist: the form opens again with the window kept.
  const [waitlistOpen, setWaitlistOpen] = useState(Boolean(request.waitlist && first?.date === request.date));
  const waitlistPanel = useRef<HTMLDivElement>(null);
  // Which date and party size the diner has just joined the waitlist for (the bar then links to /waitlist).
  const [joinedFor, setJoinedFor] = useState<string | null>(null);
  const sizes = pickerPartySizes(calendar, date);
  const isFullDay = partySizesOn(calendar, date).length === 0;
  const availability = useAvailability(restaurant.slug, date, partySize);
  const token = useCustomerToken();
  const create = useCreateReservation();
  const toast = useToast();
  const navigate = useNavigate();

  // A preselected or chosen time that is (or becomes) taken is let go.
  const isCurrent = availability.data !== undefined;
  useEffect(() => {
    if (!isCurrent || time === null) return;
    if (!availability.data!.some((entry) => entry.time === time && entry.available)) setTime(null);
  }, [isCurrent, availability.data, time]);

  // Nothing to book for this date and party: the waitlist is the way forward.
  const noTimeFree = isFullDay || (availability.data !== undefined && !availability.data.some((entry) => entry.available));
  const slotTimes = useMemo(() => (availability.data ?? []).map((entry) => entry.time), [availability.data]);

  function chooseDate(next: string) {
    setDate(next);
    // Changing the date resets the party size to the smallest offered that day, and clears the time.
    // On a full day (waitlist only) the diner's party size is kept.
    const free = partySizesOn(calendar, next);
    setPartySize(free.length > 0 ? (partySizeFor(free) ?? 2) : (partySizeFor(pickerPartySizes(calendar, next), partySize) ?? 2));
    setTime(null);
  }

  function chooseParty(next: number) {
    setPartySize(next);
    setTime(null);
  }

  /** The thumb bar: opens the join form, or sends it when it is open. */
  function onWaitlistBar() {
    const form = document.getElementById(JOIN_WAITLIST_FORM_ID);
    if (waitlistOpen && form instanceof HTMLFormElement) form.requestSubmit();
    else openWaitlist();
  }

  function openWaitlist() {
    setWaitlistOpen(true);
    const panel = waitlistPanel.current;
    panel?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    panel?.querySelector<HTMLElement>('select, button')?.focus({ preventScroll: true });
  }

  async function reserve() {
    if (!time) {
      toast('Please select a time slot', 'error');
      return;
    }
    const returnTo = `/r/${encodeURIComponent(restaurant.slug)}${writeBookingParams({ date, time, party: partySize })}`;
    if (!token) {
      navigate(loginPath(returnTo));
      return;
    }
    try {
      const reservation = await create.mutateAsync({ restaurantSlug: restaurant.slug, date, time, partySize });
      toast(
        `Reservation created! Status: ${reservation.status}\n${restaurant.name} · ${formatDateShort(date)} · ${formatTime12h(time)} · ${partyLabel(partySize)}`,
        'success',
      );
      navigate(holdPath(reservation));
    } catch (error) {
      toast(errorMessage(error, { server: 'Failed to create reservation', network: 'Failed to create reservation. Please try again.' }), 'error');
      if (error instanceof ApiError && error.status === 401) {
        setCustomerToken(null);
        navigate(loginPath(returnTo));
        return;
      }
      void availability.refetch();
    }
  }

  const summaryDate = time ? `${formatDateShort(date)} · ${formatTime12h(time)}` : formatDateShort(date);
  const summaryParty = partyLabel(partySize);

  return (
    <div className="booking">
      <DatePicker calendar={calendar} value={date} onChange={chooseDate} />
      <PartySizePicker sizes={sizes} value={partySize} onChange={chooseParty} />
      <TimePicker
        entries={isFullDay && availability.isPending ? [] : availability.data}
        isLoading={availability.isPending && !isFullDay}
        isError={availability.isError && !availability.data}
        value={time}
        onChange={setTime}
        onRetry={() => void availability.refetch()}
      />
      {availability.isError && !availability.data && !isFullDay ? null : (
        <div ref={waitlistPanel}>
          <JoinWaitlist
            key={`${date} ${partySize}`}
            restaurant={restaurant}
            date={date}
            partySize={partySize}
            slotTimes={slotTimes}
            prominent={noTimeFree}
            open={waitlistOpen}
            onOpenChange={setWaitlistOpen}
            initialWindow={date === request.date ? request.waitlist : null}
            returnPath={(window) => `/r/${encodeURIComponent(restaurant.slug)}${writeBookingParams({ date, party: partySize, waitlist: window })}`}
            onJoined={() => setJoinedFor(`${date} ${partySize}`)}
          />
        </div>
      )}
      <p className="booking__policy">
        <span className="emoji" aria-hidden="true">
          🛡️
        </span>{' '}
        We hold the table while you confirm. No deposit required.
      </p>
      <div className="reserve-bar">
        <div className="reserve-bar__inner">
          <div className="reserve-bar__summary" aria-live="polite">
            <span className="reserve-bar__label">{time ? 'Your table' : noTimeFree && joinedFor === `${date} ${partySize}` ? 'On the waitlist' : noTimeFree ? 'Fully booked' : 'Pick a time'}</span>
            <span className="reserve-bar__value">{summaryDate}</span>
            <span className="reserve-bar__value reserve-bar__value--sub">{summaryParty}</span>
          </div>
          {noTimeFree && joinedFor === `${date} ${partySize}` ? (
            <ButtonLink className="reserve-bar__button" variant="dark" to="/waitlist">
              See waitlist
            </ButtonLink>
          ) : noTimeFree ? (
            <Button className="reserve-bar__button" variant="dark" onClick={onWaitlistBar}>
              Join waitlist
            </Button>
          ) : (
            <Button className="reserve-bar__button" onClick={reserve} disabled={create.isPending}>
              {create.isPending ? 'Reserving…' : 'Reserve Now'}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

function BookingSkeleton() {
  return (
    <div className="booking" aria-hidden="true">
      <Skeleton width={60} height={14} />
      <div className="date-row">
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} width={64} height={76} radius="var(--radius-lg)" />
        ))}
      </div>
      <Skeleton width={90} height={14} />
      <Skeleton width="70%" height={44} radius="var(--radius-pill)" />
      <Skeleton width={50} height={14} />
      <div className="time-grid">
        {Array.from({ length: 8 }, (_, index) => (
          <Skeleton key={index} height={44} radius="var(--radius-md)" />
        ))}
      </div>
    </div>
  );
}

function RestaurantSkeleton() {
  return (
    <div className="restaurant" aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading the restaurant…
      </p>
      <div className="restaurant__layout container" aria-hidden="true">
        <Skeleton className="restaurant__hero hero-image" height="auto" radius="var(--radius-xl)" />
        <div className="restaurant__intro">
          <Skeleton width="65%" height={34} />
          <Skeleton width="35%" height={18} />
          <Skeleton width="80%" height={16} />
        </div>
        <div className="restaurant__booking">
          <BookingSkeleton />
        </div>
      </div>
    </div>
  );
}
