import { useDeferredValue, useId, useState } from 'react';
import { lastVisitWindows, type GuestListQuery } from '#common/contract/guests.ts';
import { guestTagLabels, guestTags, type GuestTag } from '#common/domain/guests.ts';
import { formatDateShort, todayInKolkata } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { SearchInput, SelectField } from '#web/components/ui/Field.tsx';
import { SkeletonRows } from '#web/components/ui/SkeletonRows.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { AdminPanel } from '#web/features/portal/AdminPanel.tsx';
import { downloadGuestsCsv, useGuestList } from './api.ts';
import { GuestCard } from './GuestCard.tsx';
import './guests.css';

const LIST_FALLBACKS = { server: 'The guest list could not load. Try again.', network: 'No connection. Check it and try again.' };

/** The portal's Guests tab (decision 263): search, filters, the CSV, each guest's card, and tonight's brief. */
export function GuestsPanel({ restaurantId }: { restaurantId: string }) {
  const [text, setText] = useState('');
  const [tag, setTag] = useState<GuestTag | ''>('');
  const [lastVisit, setLastVisit] = useState<(typeof lastVisitWindows)[number] | ''>('');
  const [minVisits, setMinVisits] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const searchId = useId();
  const toast = useToast();
  const q = useDeferredValue(text.trim());
  const query: GuestListQuery = {
    q: q || undefined,
    tag: tag || undefined,
    lastVisitWithin: lastVisit || undefined,
    minVisits: minVisits ? Number(minVisits) : undefined,
  };
  const list = useGuestList(query);

  let body;
  if (list.isPending) {
    body = <SkeletonRows count={2} height={52} className="guest-list__loading" />;
  } else if (list.isError) {
    body = (
      <div className="guest-list__note" role="alert">
        {errorMessage(list.error, LIST_FALLBACKS)}
        <Button size="sm" variant="secondary" onClick={() => void list.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (list.data.guests.length === 0) {
    body = <p className="guest-list__note">No guest matches. Guests appear here once they book with you.</p>;
  } else {
    body = (
      <ul className="guest-list__items" data-testid="guest-list">
        {list.data.guests.map((guest) => (
          <li key={guest.guestId} className="guest-list__item" data-testid="guest-list-item">
            <button
              type="button"
              className="guest-list__row"
              aria-expanded={open === guest.guestId}
              aria-controls={`guest-${guest.guestId}`}
              onClick={() => setOpen((now) => (now === guest.guestId ? null : guest.guestId))}
            >
              <span className="guest-list__who">
                <strong>{guest.name}</strong>
                <span className="guest-list__contact">{[guest.phone, guest.email].filter(Boolean).join(' · ')}</span>
              </span>
              <span className="guest-list__facts">
                {guest.visits} {guest.visits === 1 ? 'visit' : 'visits'}
                {guest.lastVisit ? ` · last ${formatDateShort(guest.lastVisit)}` : ''}
                {guest.noShows > 0 ? ` · ${guest.noShows} no-show${guest.noShows === 1 ? '' : 's'}` : ''}
              </span>
              <span className="guest-list__tags">
                {guest.allergy ? <span className="guest-flag guest-flag--allergy">Allergy</span> : null}
                {guest.tags
                  .filter((t) => t !== 'allergy')
                  .map((t) => (
                    <span key={t} className="guest-flag">
                      {guestTagLabels[t]}
                    </span>
                  ))}
              </span>
            </button>
            <div id={`guest-${guest.guestId}`} hidden={open !== guest.guestId}>
              {open === guest.guestId ? <GuestCard guestId={guest.guestId} /> : null}
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <AdminPanel
      className="guest-list"
      title="Guests"
      count={list.data?.guests.length}
      aside={
        <span className="guest-list__links">
          <ButtonLink size="sm" variant="secondary" to={`/admin/${encodeURIComponent(restaurantId)}/brief?date=${todayInKolkata()}`}>
            Tonight’s brief
          </ButtonLink>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => downloadGuestsCsv(query).catch((error: unknown) => toast(error instanceof Error ? error.message : String(error), 'error'))}
          >
            Export CSV
          </Button>
        </span>
      }
    >
      <form className="guest-list__filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label className="field__label" htmlFor={searchId}>
            Search
          </label>
          <SearchInput id={searchId} value={text} onChange={(event) => setText(event.target.value)} placeholder="Name, phone or email" />
        </div>
        <SelectField label="Tag" value={tag} onChange={(event) => setTag(event.target.value as GuestTag | '')}>
          <option value="">Any tag</option>
          {guestTags.map((value) => (
            <option key={value} value={value}>
              {guestTagLabels[value]}
            </option>
          ))}
        </SelectField>
        <SelectField label="Last visit" value={lastVisit} onChange={(event) => setLastVisit(event.target.value as (typeof lastVisitWindows)[number] | '')}>
          <option value="">Any time</option>
          {lastVisitWindows.map((days) => (
            <option key={days} value={days}>
              Within {days} days
            </option>
          ))}
        </SelectField>
        <SelectField label="Visits" value={minVisits} onChange={(event) => setMinVisits(event.target.value)}>
          <option value="">Any number</option>
          <option value="1">1 or more</option>
          <option value="3">3 or more</option>
          <option value="10">10 or more</option>
        </SelectField>
      </form>
      <div aria-live="polite" aria-busy={list.isFetching || undefined}>
        {body}
        {list.data?.truncated ? <p className="guest-list__note">Showing the first 200. Search or filter to narrow it down; the CSV has them all.</p> : null}
      </div>
    </AdminPanel>
  );
}
