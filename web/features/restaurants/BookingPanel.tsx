import { useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { AvailabilityCalendar, PublicRestaurant } from '#common/contract/restaurants.ts';
import {
  initialChoice,
  openingChoice,
  partySizeFor,
  partySizesOn,
  pickerPartySizes,
  readBookingParams,
  writeBookingParams,
} from '#common/domain/booking-choice.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { ApiError, errorMessage } from '#web/api/client.ts';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { loginPath } from '#web/features/accounts/return-path.ts';
import { setCustomerToken, useCustomerToken } from '#web/features/accounts/session.ts';
import { useCreateReservation } from '#web/features/reservations/api.ts';
import { holdPath, partyLabel } from '#web/features/reservations/rules.ts';
import { JOIN_WAITLIST_FORM_ID, JoinWaitlist } from '#web/features/waitlist/JoinWaitlist.tsx';
import { useAvailability } from './api.ts';
import { DatePicker, PartySizePicker, slotDepositLabel, TimePicker } from './BookingPicker.tsx';
import { ReserveBar } from './ReserveBar.tsx';

/** The date, party size and time picker, the waitlist panel and the thumb bar that reserves. */
export function BookingPanel({ restaurant, calendar }: { restaurant: PublicRestaurant; calendar: AvailabilityCalendar }) {
  const [params] = useSearchParams();
  // The link's choice applies once, on arrival: later changes to the query string are ours.
  const [request] = useState(() => readBookingParams(params));
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
  // Back from a hold that ran out (hold.tsx): say so here, where the day and party are kept.
  const holdExpired = (useLocation().state as { holdExpired?: boolean } | null)?.holdExpired === true;

  // A preselected or chosen time that is (or becomes) taken is let go, in the same render.
  if (time !== null && availability.data !== undefined && !availability.data.some((entry) => entry.time === time && entry.available)) setTime(null);

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
      toast('Please select a time slot', 'error', { key: 'reserve' });
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
        `Table held for you: confirm before the timer runs out.\n${restaurant.name} · ${formatDateShort(date)} · ${formatTime12h(time)} · ${partyLabel(partySize)}`,
        'success',
        { key: 'reserve' },
      );
      navigate(holdPath(reservation));
    } catch (error) {
      toast(errorMessage(error, { server: 'Failed to create reservation', network: 'Failed to create reservation. Please try again.' }), 'error', {
        key: 'reserve',
      });
      if (error instanceof ApiError && error.status === 401) {
        setCustomerToken(null);
        navigate(loginPath(returnTo));
        return;
      }
      void availability.refetch();
    }
  }

  const summaryDate = formatDateShort(date);
  const summaryTime = time ? formatTime12h(time) : null;
  const chosenDeposit = time ? availability.data?.find((entry) => entry.time === time)?.deposit : undefined;
  const summaryParty = partyLabel(partySize);
  // Before a time is chosen the note must not promise "no deposit" under times that ask one.
  const someAskDeposit = (availability.data ?? []).some((entry) => entry.deposit);

  return (
    <div className="booking">
      {holdExpired ? (
        <Alert tone="warning" title="Your hold expired">
          The table went back to others before it was confirmed; nothing is taken. Your day and party are kept: pick a time to try again.
        </Alert>
      ) : null}
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
        {chosenDeposit
          ? `We hold the table while you confirm. This time asks: ${slotDepositLabel(chosenDeposit)}, shown in full before you confirm.`
          : time || !someAskDeposit
            ? 'We hold the table while you confirm. No deposit required.'
            : 'We hold the table while you confirm. Times marked with a deposit ask it per guest, shown in full before you confirm.'}
      </p>
      <ReserveBar
        time={time}
        summaryDate={summaryDate}
        summaryTime={summaryTime}
        summaryParty={summaryParty}
        noTimeFree={noTimeFree}
        hasJoinedWaitlist={joinedFor === `${date} ${partySize}`}
        isReserving={create.isPending}
        onReserve={reserve}
        onWaitlist={onWaitlistBar}
      />
    </div>
  );
}
