import { useId, useState, type FormEvent } from 'react';
import type { GuestCard as GuestCardData } from '#common/contract/guests.ts';
import { describeRequest, GUEST_NOTE_MAX, guestTagLabels, guestTags, type GuestTag } from '#common/domain/guests.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { ApiError, errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import { TextAreaField } from '#web/components/ui/Field.tsx';
import { useGuestCard, useSaveGuestNotes, type GuestRef } from './api.ts';
import './guests.css';

const SAVE_FALLBACKS = { server: 'The note could not be saved. Please try again.', network: 'No connection: the note was not saved.' };

/**
 * The guest card (decisions 261, 262): who is coming, as this restaurant knows them. Visits here
 * (count and last), no-shows and late cancels here, what the diner told the restaurant, and the
 * restaurant's own tags and note, which staff edit here. Self-contained: give it a booking's id
 * (the bookings list, the floor) or a guest's id (the guest list).
 */
export function GuestCard(props: GuestRef & { headingLevel?: 'h3' | 'h4' }) {
  const { headingLevel: Heading = 'h3', ...ref } = props;
  const card = useGuestCard(ref);
  const titleId = useId();

  if (card.isPending) {
    return (
      <div className="guest-card guest-card--loading" aria-busy="true" aria-label="Loading the guest card">
        <Skeleton height={18} />
        <Skeleton height={48} />
      </div>
    );
  }
  if (card.isError) {
    const missing = card.error instanceof ApiError && card.error.status === 404;
    return (
      <div className="guest-card guest-card--error" role="alert">
        {missing ? 'No guest card for this booking.' : 'The guest card could not load.'}
        {!missing ? (
          <Button size="sm" variant="secondary" onClick={() => void card.refetch()}>
            Try again
          </Button>
        ) : null}
      </div>
    );
  }
  const guest = card.data;
  return (
    <section className="guest-card" aria-labelledby={titleId} data-testid="guest-card">
      <Heading id={titleId} className="guest-card__name">
        {guest.name}
        {guest.allergy ? <span className="guest-flag guest-flag--allergy">Allergy</span> : null}
      </Heading>
      <dl className="guest-card__history">
        <div>
          <dt>Visits here</dt>
          <dd>{guest.visits}</dd>
        </div>
        <div>
          <dt>Last visit</dt>
          <dd>{guest.lastVisit ? formatDateShort(guest.lastVisit) : 'First time'}</dd>
        </div>
        <div>
          <dt>No-shows</dt>
          <dd className={guest.noShows > 0 ? 'guest-card__warn' : undefined}>{guest.noShows}</dd>
        </div>
        <div>
          <dt>Late cancels</dt>
          <dd className={guest.lateCancels > 0 ? 'guest-card__warn' : undefined}>{guest.lateCancels}</dd>
        </div>
      </dl>
      <div className="guest-card__requests">
        <p className="guest-card__label">The diner told you</p>
        {guest.requests.length === 0 ? (
          <p className="guest-card__empty">Nothing yet.</p>
        ) : (
          <ul>
            {guest.requests.map((item) => (
              <li key={item.reservationId} data-testid="guest-request">
                <span className="guest-card__when">
                  {formatDateShort(item.slot.date)}, {formatTime12h(item.slot.time)}:
                </span>{' '}
                {describeRequest(item.request)}
              </li>
            ))}
          </ul>
        )}
      </div>
      <GuestNotesForm key={guest.guestId} guest={guest} />
    </section>
  );
}

/** The restaurant's own tags and note, kept inside the restaurant. */
function GuestNotesForm({ guest }: { guest: GuestCardData }) {
  const [tags, setTags] = useState<GuestTag[]>(guest.tags);
  const [note, setNote] = useState(guest.note);
  const [message, setMessage] = useState<string | null>(null);
  const save = useSaveGuestNotes();
  const changed = note !== guest.note || tags.join() !== guest.tags.join();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    try {
      await save.mutateAsync({ guestId: guest.guestId, body: { tags, note } });
      setMessage('Saved.');
    } catch (error) {
      setMessage(errorMessage(error, SAVE_FALLBACKS));
    }
  }

  return (
    <form className="guest-card__notes" onSubmit={(event) => void onSubmit(event)}>
      <fieldset className="guest-card__tags">
        <legend className="guest-card__label">Tags (only your restaurant sees them)</legend>
        {guestTags.map((tag) => (
          <label key={tag} className="pill-toggle check-pill">
            <input
              type="checkbox"
              checked={tags.includes(tag)}
              onChange={() => setTags((now) => (now.includes(tag) ? now.filter((t) => t !== tag) : guestTags.filter((t) => t === tag || now.includes(t))))}
            />
            {guestTagLabels[tag]}
          </label>
        ))}
      </fieldset>
      <TextAreaField
        label="Staff note"
        hint={`${note.length}/${GUEST_NOTE_MAX} · only your restaurant sees it`}
        maxLength={GUEST_NOTE_MAX}
        rows={2}
        value={note}
        onChange={(event) => setNote(event.target.value)}
      />
      <div className="guest-card__save">
        <Button type="submit" size="sm" variant="secondary" disabled={save.isPending || !changed}>
          {save.isPending ? 'Saving…' : 'Save tags and note'}
        </Button>
        <span role="status" className="guest-card__status">
          {message}
        </span>
      </div>
    </form>
  );
}
