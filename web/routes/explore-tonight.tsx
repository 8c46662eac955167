import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, EmptyState } from '#web/components/ui/Feedback.tsx';
import { Button } from '#web/components/ui/Button.tsx';
import { SelectField } from '#web/components/ui/Field.tsx';
import { errorMessage } from '#web/api/client.ts';
import { useAvailableToday } from '#web/features/discovery/api.ts';
import { ExploreCard, ExploreSkeleton } from '#web/features/discovery/ExploreTonight.tsx';
import { NoTablesToday } from '#web/features/discovery/NoTablesToday.tsx';
import {
  applyExploreFilters,
  cuisineOptions,
  DEFAULT_PARTY_SIZE,
  neighborhoodOptions,
  PARTY_SIZE_CHOICES,
  readExploreFilters,
  writeExploreFilters,
  type ExploreFilters,
} from '#web/features/discovery/explore.ts';
import '#web/features/discovery/explore.css';

/** How long the filters must stay put before the result count is announced. */
const SUMMARY_SETTLE_MS = 1000;

/** `value`, once it has not changed for `ms`. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Every restaurant with a table in the next 24 hours, filtered for the diner's evening. */
export default function ExploreTonightScreen() {
  const [params, setParams] = useSearchParams();
  // The screen's own state answers at once; the address follows it so the view can be shared.
  const [filters, setFilters] = useState<ExploreFilters>(() => readExploreFilters(params));
  const tonight = useAvailableToday();

  useEffect(() => {
    document.title = 'Explore Tonight · Tablefair';
  }, []);
  useEffect(() => {
    const next = writeExploreFilters(filters);
    if (next.toString() !== new URLSearchParams(window.location.search).toString()) setParams(next, { replace: true, preventScrollReset: true });
  }, [filters, setParams]);

  const entries = useMemo(() => tonight.data ?? [], [tonight.data]);
  const hoods = useMemo(() => neighborhoodOptions(entries), [entries]);
  const cuisines = useMemo(() => cuisineOptions(entries), [entries]);
  const results = useMemo(() => applyExploreFilters(entries, filters), [entries, filters]);
  const summary =
    results.length === 0
      ? 'No tables match these filters.'
      : `${results.length} ${results.length === 1 ? 'restaurant has' : 'restaurants have'} a table for ${filters.partySize}`;
  // Announced once the filters have settled, not for every option passed while arrowing through a select.
  const settledSummary = useSettled(tonight.isSuccess && entries.length > 0 ? summary : '', SUMMARY_SETTLE_MS);
  const isFiltered = Boolean(filters.neighborhood || filters.cuisine || filters.partySize !== DEFAULT_PARTY_SIZE);

  const update = (change: Partial<ExploreFilters>) => setFilters((current) => ({ ...current, ...change }));
  const clear = () => setFilters(readExploreFilters(new URLSearchParams()));

  let body;
  if (tonight.isPending) {
    body = (
      <>
        <p className="explore-summary" role="status">
          Finding free tables…
        </p>
        <ExploreSkeleton />
      </>
    );
  } else if (tonight.isError) {
    body = (
      <div className="explore-error">
        <Alert tone="error" title="We couldn’t load tonight’s tables.">
          {errorMessage(tonight.error, { server: 'The server could not answer. Please try again.', network: 'Check your connection and try again.' })}
        </Alert>
        <Button onClick={() => tonight.refetch()} disabled={tonight.isFetching}>
          {tonight.isFetching ? 'Trying again…' : 'Try again'}
        </Button>
      </div>
    );
  } else if (entries.length === 0) {
    body = <NoTablesToday />;
  } else {
    body = (
      <>
        <p className={results.length === 0 ? 'visually-hidden' : 'explore-summary'}>{summary}</p>
        {results.length === 0 ? (
          <EmptyState icon="🔍" title="No tables match">
            <p>Try a smaller party, another neighbourhood or any cuisine.</p>
            <Button variant="secondary" onClick={clear}>
              Clear filters
            </Button>
          </EmptyState>
        ) : (
          <ul className="explore-list">
            {results.map((entry) => (
              <ExploreCard key={entry.restaurant.id} entry={entry} partySize={filters.partySize} />
            ))}
          </ul>
        )}
      </>
    );
  }

  return (
    <div className="container page explore">
      <header className="explore__head">
        <p className="explore__eyebrow">
          <span className="emoji" aria-hidden="true">
            🌙
          </span>{' '}
          Tonight in Bengaluru
        </p>
        <h1>Explore Tonight</h1>
        <p className="explore__lede">Free tables in the next 24 hours. Tap a time to book it.</p>
      </header>

      <form className="explore-filters" role="search" aria-label="Filter tables" onSubmit={(event) => event.preventDefault()}>
        <div className="explore-filters__selects">
          <SelectField label="Neighbourhood" value={filters.neighborhood} onChange={(event) => update({ neighborhood: event.target.value })}>
            <option value="">Anywhere</option>
            {filters.neighborhood && !hoods.some((hood) => hood.value === filters.neighborhood) ? (
              <option value={filters.neighborhood}>{filters.neighborhood}</option>
            ) : null}
            {hoods.map((hood) => (
              <option key={hood.value} value={hood.value}>
                {hood.value}
              </option>
            ))}
          </SelectField>
          <SelectField label="Cuisine" value={filters.cuisine} onChange={(event) => update({ cuisine: event.target.value })}>
            <option value="">Any cuisine</option>
            {filters.cuisine && !cuisines.some((cuisine) => cuisine.value === filters.cuisine) ? (
              <option value={filters.cuisine}>{filters.cuisine}</option>
            ) : null}
            {cuisines.map((cuisine) => (
              <option key={cuisine.value} value={cuisine.value}>
                {cuisine.value}
              </option>
            ))}
          </SelectField>
        </div>
        <fieldset className="explore-party">
          <legend className="field__label">Party size</legend>
          <div className="explore-party__options">
            {PARTY_SIZE_CHOICES.map((size) => (
              <label key={size} className="explore-party__option">
                <input type="radio" name="party" value={size} checked={filters.partySize === size} onChange={() => update({ partySize: size })} />
                <span>
                  {size} <span className="explore-party__unit">guests</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        {isFiltered ? (
          <button type="button" className="explore-filters__clear" onClick={clear}>
            Clear filters
          </button>
        ) : null}
      </form>
      <p className="visually-hidden" role="status">
        {settledSummary}
      </p>

      {body}
    </div>
  );
}
