import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { BookingSearchResponse } from '#common/contract/booking-search.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { apiRequest, errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { SearchInput } from '#web/components/ui/Field.tsx';
import { SkeletonRows } from '#web/components/ui/SkeletonRows.tsx';
import { AdminPanel } from './AdminPanel.tsx';
import { adminKeys } from './api.ts';
import { staffStatusLabels } from './bookings.ts';

/** How long typing must pause before the search runs. */
const SETTLE_MS = 300;

/** Find a booking (decision 236): guest name, phone or booking code, any date, as staff type. */
export function BookingSearchPanel() {
  const inputId = useId();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setQuery(text.trim()), SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);
  const isReady = query.length >= 2;
  const search = useQuery({
    queryKey: adminKeys.bookingSearch(query),
    enabled: isReady,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    queryFn: ({ signal }) => apiRequest<BookingSearchResponse>(`/api/admin/bookings/search?q=${encodeURIComponent(query)}`, { auth: 'restaurant', signal }),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setQuery(text.trim());
  }

  let body;
  if (!isReady) {
    body = <p className="booking-search__note">Type a guest’s name, 4 digits of their phone, or the booking code they were given (like 3F9A-1C2B).</p>;
  } else if (search.isPending) {
    body = <SkeletonRows count={2} height={52} className="booking-search__loading" />;
  } else if (search.isError) {
    body = (
      <div className="booking-search__note booking-search__note--error" role="alert">
        {errorMessage(search.error, { server: 'The search failed. Try again.', network: 'No connection. Check it and try again.' })}
        <Button size="sm" variant="secondary" onClick={() => void search.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (search.data.results.length === 0) {
    body = <p className="booking-search__note">No booking matches “{query}”. Check the spelling, or try their phone number.</p>;
  } else {
    body = (
      <ul className="booking-search__results" data-testid="booking-search-results">
        {search.data.results.map((hit) => (
          <li key={hit.id} className="booking-search__hit" data-testid="booking-search-hit">
            <span className="booking-search__code">{hit.code}</span>
            <span className="booking-search__who">
              <strong>{hit.user.name}</strong>
              <span className="booking-search__contact">{[hit.user.phone, hit.user.email].filter(Boolean).join(' · ')}</span>
            </span>
            <span className="booking-search__when">
              {formatDateShort(hit.slot.date)}, {formatTime12h(hit.slot.time)} · {hit.partySize} {hit.partySize === 1 ? 'guest' : 'guests'}
            </span>
            <span className={`badge badge--${hit.status}`}>{staffStatusLabels[hit.status]}</span>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <AdminPanel className="booking-search" title="Find a booking">
      <form className="booking-search__form" role="search" onSubmit={onSubmit}>
        <label className="visually-hidden" htmlFor={inputId}>
          Guest name, phone or booking code
        </label>
        <SearchInput
          id={inputId}
          className="booking-search__input"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Name, phone or booking code"
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      <div aria-live="polite" aria-busy={search.isFetching || undefined}>
        {isReady && search.isSuccess ? (
          <p className="visually-hidden">
            {search.data.results.length} {search.data.results.length === 1 ? 'booking' : 'bookings'} found
          </p>
        ) : null}
        {body}
        {search.data?.truncated ? <p className="booking-search__note">Showing the first 50. Type more of the name or number to narrow it down.</p> : null}
      </div>
    </AdminPanel>
  );
}
