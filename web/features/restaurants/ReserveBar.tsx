import { Button, ButtonLink } from '#web/components/ui/Button.tsx';

/** The fixed thumb bar: what is chosen so far, and Reserve Now, Join waitlist or See waitlist. */
export function ReserveBar({
  time,
  summaryDate,
  summaryParty,
  noTimeFree,
  hasJoinedWaitlist,
  isReserving,
  onReserve,
  onWaitlist,
}: {
  time: string | null;
  summaryDate: string;
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
          <span className="reserve-bar__value">{summaryDate}</span>
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
