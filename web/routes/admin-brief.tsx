import { useEffect } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { describeRequest, guestTagLabels, occasionLabels, requestPickLabels } from '#common/domain/guests.ts';
import { formatDateShort, formatTime12h, isIsoDate, todayInKolkata } from '#common/domain/time.ts';
import { errorMessage, readToken } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { SkeletonRows } from '#web/components/ui/SkeletonRows.tsx';
import { useTonightsBrief } from '#web/features/guests/api.ts';
import { tableLabel } from '#web/features/guests/table-label.ts';
import '#web/features/guests/brief.css';

/** /admin/{restaurantId}/brief?date=: tonight's brief for the shift, made to print (decision 264). */
export default function BriefScreen() {
  if (!readToken('restaurant')) return <Navigate to="/restaurant-login" replace />;
  return <Brief />;
}

function Brief() {
  const { restaurantId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('date') ?? '';
  const date = isIsoDate(asked) ? asked : todayInKolkata();
  const brief = useTonightsBrief(date);

  useEffect(() => {
    document.title = `Brief for ${formatDateShort(date)} · Tablefair`;
  }, [date]);

  const covers = brief.data?.arrivals.reduce((sum, arrival) => sum + arrival.partySize, 0) ?? 0;
  return (
    <main className="brief" id="main">
      <header className="brief__head">
        <div>
          <p className="brief__eyebrow">{brief.data?.restaurantName ?? 'Tonight’s brief'}</p>
          <h1 className="brief__title">Brief for {formatDateShort(date)}</h1>
          {brief.data ? (
            <p className="brief__summary">
              {brief.data.arrivals.length} {brief.data.arrivals.length === 1 ? 'booking' : 'bookings'} · {covers} {covers === 1 ? 'guest' : 'guests'}
            </p>
          ) : null}
        </div>
        <div className="brief__tools">
          <label className="brief__date">
            Date
            <input
              className="field__control"
              type="date"
              value={date}
              onChange={(event) => event.target.value && setSearch({ date: event.target.value }, { replace: true })}
            />
          </label>
          <Button onClick={() => window.print()}>Print</Button>
          <Link className="brief__back" to={`/admin/${encodeURIComponent(restaurantId)}?tab=guests`}>
            Back to guests
          </Link>
        </div>
      </header>
      {brief.isPending ? (
        <SkeletonRows count={2} height={40} className="brief__loading" />
      ) : brief.isError ? (
        <p role="alert" className="brief__note">
          {errorMessage(brief.error, { server: 'The brief could not load. Try again.', network: 'No connection. Check it and try again.' })}{' '}
          <Button size="sm" variant="secondary" onClick={() => void brief.refetch()}>
            Try again
          </Button>
        </p>
      ) : brief.data.arrivals.length === 0 ? (
        <p className="brief__note">No arrivals booked for this date.</p>
      ) : (
        <table className="brief__table" data-testid="brief-table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Guest</th>
              <th scope="col">Party</th>
              <th scope="col">Table</th>
              <th scope="col">Tags</th>
              <th scope="col">Requests and notes</th>
            </tr>
          </thead>
          <tbody>
            {brief.data.arrivals.map((arrival) => (
              <tr key={arrival.reservationId} className={arrival.allergy ? 'brief__row--allergy' : undefined} data-testid="brief-arrival">
                <td className="brief__time">{formatTime12h(arrival.time)}</td>
                <th scope="row" className="brief__guest">
                  {arrival.name}
                  <span className="brief__visits">
                    {arrival.visits === 0 ? 'First visit' : `${arrival.visits} ${arrival.visits === 1 ? 'visit' : 'visits'}`}
                  </span>
                </th>
                <td className="brief__party">{arrival.partySize}</td>
                <td className="brief__tablename">{tableLabel(arrival)}</td>
                <td>{arrival.tags.map((tag) => guestTagLabels[tag]).join(', ') || '—'}</td>
                <td className="brief__requests">
                  {arrival.allergy ? <strong className="brief__allergy">⚠ Allergy</strong> : null}
                  {arrival.request ? (
                    <span title={describeRequest(arrival.request)}>
                      {[
                        arrival.request.occasion ? occasionLabels[arrival.request.occasion] : null,
                        ...arrival.request.picks.map((pick) => requestPickLabels[pick]),
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                      {arrival.request.note ? <q className="brief__words">{arrival.request.note}</q> : null}
                    </span>
                  ) : null}
                  {arrival.note ? <span className="brief__staff-note">Note: {arrival.note}</span> : null}
                  {!arrival.allergy && !arrival.request && !arrival.note ? '—' : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
