import { Button, ButtonLink } from '#web/components/ui/Button.tsx';

/** The fixed thumb bar: what is chosen so far, and Reserve Now, Join waitlist or See waitlist. */
export function ReserveBar({
  time,
  summaryDate,
  summaryTime,
  summaryParty,
  noTimeFree,
  hasJoinedWaitlist,
  isReserving,
  onReserve,
  onWaitlist,
}: {
  time: string | null;
  summaryDate: string;
  /** The chosen time in 12-hour form, or null before one is picked. */
  summaryTime: string | null;
  summaryParty: string;
  noTimeFree: boolean;
  /** The diner has just joined the waitlist for this date and party size. */
  hasJoinedWaitlist: boolean;
  isReserving: boolean;
  onReserve: () => void;
  onWaitlist: () => void;
}) {
  return (
    <div className="reserve-bar">
      <div className="reserve-bar__inner">
        <div className="reserve-bar__summary" aria-live="polite">
          <span className="reserve-bar__label">
            {time ? 'Your table' : noTimeFree && hasJoinedWaitlist ? 'On the waitlist' : noTimeFree ? 'Fully booked' : 'Pick a time'}
          </span>
          {/* Date and time each stay whole; on a narrow phone the time wraps under the date, never cut off. */}
          <span className="reserve-bar__value reserve-bar__value--when">
            <span className="reserve-bar__part">{summaryDate}</span>
            {summaryTime ? (
              <>
                {' · '}
                <span className="reserve-bar__part">{summaryTime}</span>
              </>
            ) : null}
          </span>
          <span className="reserve-bar__value reserve-bar__value--sub">{summaryParty}</span>
        </div>
        {noTimeFree && hasJoinedWaitlist ? (
          <ButtonLink className="reserve-bar__button" variant="dark" to="/waitlist">
            See waitlist
          </ButtonLink>
        ) : noTimeFree ? (
          <Button className="reserve-bar__button" variant="dark" onClick={onWaitlist}>
            Join waitlist
          </Button>
        ) : (
          <Button className="reserve-bar__button" onClick={onReserve} disabled={isReserving}>
            {isReserving ? 'Reserving…' : 'Reserve Now'}
          </Button>
        )}
      </div>
    </div>
  );
}
