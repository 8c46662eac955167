import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { endSentence } from '#common/domain/sentences.ts';
import { Link, useNavigate } from 'react-router';
import type { WaitlistEntry } from '#common/contract/waitlist.ts';
import { formatDateShort, formatTime12h, todayInKolkata, toKolkata } from '#common/domain/time.ts';
import { ApiError, errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { SelectField } from '#web/components/ui/Field.tsx';
import { loginPath } from '#web/features/accounts/return-path.ts';
import { setCustomerToken, useCustomerToken } from '#web/features/accounts/session.ts';
import { PushOptIn } from '#web/features/notifications/PushOptIn.tsx';
import { useJoinWaitlist } from './api.ts';
import { defaultWindow, partyText, validateWindow, windowLabel, windowOptions, type TimeWindow } from './rules.ts';
import './waitlist.css';

/** The form's id, so the restaurant page's thumb bar can submit it. */
export const JOIN_WAITLIST_FORM_ID = 'join-waitlist-form';

const FALLBACKS = {
  server: 'We could not add you to the waitlist. Please try again.',
  network: 'We could not reach Tablefair. Check your connection and try again.',
};

/**
 * "Join the waitlist" on the restaurant page, for the chosen date and party size: a time window
 * (earliest to latest start), sent as POST /api/waitlist. Prominent when no time is free; a quiet
 * link under the times otherwise (a free time outside the diner's hours is no use to them).
 */
export function JoinWaitlist({
  restaurant,
  date,
  partySize,
  slotTimes,
  prominent,
  open,
  onOpenChange,
  initialWindow,
  returnPath,
  onJoined,
}: {
  restaurant: { slug: string; name: string };
  date: string;
  partySize: number;
  /** The day's slot times (taken or not), the window's choices. */
  slotTimes: readonly string[];
  prominent: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initialWindow?: TimeWindow | null;
  /** Where to come back to after signing in, keeping the window. */
  returnPath: (range: TimeWindow) => string;
  onJoined?: (entry: WaitlistEntry) => void;
}) {
  const token = useCustomerToken();
  const navigate = useNavigate();
  const join = useJoinWaitlist();
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const doneHeading = useRef<HTMLHeadingElement>(null);

  const isToday = date === todayInKolkata();
  const options = useMemo(() => windowOptions(slotTimes, { isToday, nowTime: toKolkata(new Date()).time }), [slotTimes, isToday]);
  const initial = useMemo(() => {
    if (initialWindow && options.includes(initialWindow.start) && options.includes(initialWindow.end)) return initialWindow;
    return defaultWindow(options);
  }, [options, initialWindow]);
  const [range, setRange] = useState<TimeWindow | null>(initial);
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [joined, setJoined] = useState<WaitlistEntry | null>(null);

  // The day's times arrive after the panel: take the default once they do (in the same render).
  const isRangeOffered = range !== null && options.includes(range.start) && options.includes(range.end);
  if (!isRangeOffered && range !== initial) setRange(initial);

  const wasOpen = useRef(open);
  useEffect(() => {
    if (open && !wasOpen.current) formRef.current?.querySelector('select')?.focus();
    wasOpen.current = open;
  }, [open]);
  useEffect(() => {
    if (joined) doneHeading.current?.focus();
  }, [joined]);

  const validation = range ? validateWindow(range) : null;
  const when = `${formatDateShort(date)} · ${partyText(partySize)}`;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    setServerError(null);
    if (!range || validation) return;
    if (!token) {
      navigate(loginPath(returnPath(range)));
      return;
    }
    try {
      const entry = await join.mutateAsync({ restaurantSlug: restaurant.slug, date, partySize, windowStart: range.start, windowEnd: range.end });
      setJoined(entry);
      onJoined?.(entry);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        setCustomerToken(null);
        navigate(loginPath(returnPath(range)));
        return;
      }
      setServerError(errorMessage(error, FALLBACKS));
    }
  }

  if (joined) {
    return (
      <section className="join-waitlist join-waitlist--done" aria-labelledby={titleId}>
        <div role="status">
          <h3 id={titleId} ref={doneHeading} tabIndex={-1} className="join-waitlist__title">
            <span className="emoji" aria-hidden="true">
              🔔
            </span>{' '}
            You’re on the waitlist
          </h3>
          <p className="join-waitlist__text">
            We’ll hold a table for you the moment one frees up — {partyText(joined.partySize)} on {formatDateShort(joined.date)},{' '}
            {windowLabel({ start: joined.windowStart, end: joined.windowEnd })}.{joined.placeInLine ? ` You are number ${joined.placeInLine} in line.` : ''}
          </p>
        </div>
        <PushOptIn what="a table frees" />
        <p className="join-waitlist__fine">You’ll also get an email and a message here when it’s yours to confirm.</p>
        <Link className="btn btn--secondary btn--block" to="/waitlist">
          See your waitlist
        </Link>
      </section>
    );
  }

  if (!open) {
    if (!prominent) {
      return (
        <p className="join-waitlist__quiet">
          None of these times work?{' '}
          <button type="button" className="link-button" onClick={() => onOpenChange(true)}>
            Join the waitlist
          </button>
        </p>
      );
    }
    return (
      <section className="join-waitlist" aria-labelledby={titleId}>
        <PanelTitle id={titleId}>Wait for a table</PanelTitle>
        <p className="join-waitlist__text">
          Join the waitlist for {when}. When a table frees up, the person who has waited longest gets it held in their name — no race to tap first.
        </p>
        <Button block variant="dark" onClick={() => onOpenChange(true)}>
          Join the waitlist
        </Button>
      </section>
    );
  }

  return (
    <section className="join-waitlist" aria-labelledby={titleId}>
      <PanelTitle id={titleId}>Join the waitlist</PanelTitle>
      <p className="join-waitlist__text">
        {endSentence(`${when} at ${restaurant.name}`)} Which times could you make? If a table in that window frees up, we hold it for you and let you know.
      </p>
      {options.length === 0 || !range ? (
        <p className="picker__note">No time is left to wait for on this day. Try another date.</p>
      ) : (
        <form ref={formRef} id={JOIN_WAITLIST_FORM_ID} className="join-waitlist__form" onSubmit={(event) => void onSubmit(event)} noValidate>
          <div className="join-waitlist__fields">
            <SelectField label="Earliest" value={range.start} onChange={(event) => setRange({ ...range, start: event.target.value })}>
              {options.map((time) => (
                <option key={time} value={time}>
                  {formatTime12h(time)}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Latest"
              value={range.end}
              error={touched || range.end < range.start ? validation : null}
              onChange={(event) => setRange({ ...range, end: event.target.value })}
            >
              {options.map((time) => (
                <option key={time} value={time}>
                  {formatTime12h(time)}
                </option>
              ))}
            </SelectField>
          </div>
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <div className="join-waitlist__actions">
            <Button type="submit" block disabled={join.isPending}>
              {join.isPending ? 'Joining…' : token ? 'Join the waitlist' : 'Sign in to join'}
            </Button>
            <Button variant="ghost" block onClick={() => onOpenChange(false)}>
              Not now
            </Button>
          </div>
          <p className="join-waitlist__fine">
            One table at a time goes to the longest-waiting diner whose window fits. You can leave the waitlist whenever you like.
          </p>
        </form>
      )}
    </section>
  );
}

/** The panel's heading, with its bell. */
function PanelTitle({ id, children }: { id: string; children: string }) {
  return (
    <h3 id={id} className="join-waitlist__title">
      <span className="emoji" aria-hidden="true">
        🔔
      </span>{' '}
      {children}
    </h3>
  );
}
