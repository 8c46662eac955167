import { useId, useState, type FormEvent } from 'react';
import type { BookingRequest, DinerReservation } from '#common/contract/reservations.ts';
import {
  describeRequest,
  occasionLabels,
  occasions,
  requestPickLabels,
  requestPicks,
  SPECIAL_REQUEST_MAX,
  type Occasion,
  type RequestPick,
} from '#common/domain/guests.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { SelectField, TextAreaField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useNow } from '#web/components/ui/use-now.ts';
import { useBookingRequest } from './api.ts';

const EMPTY: BookingRequest = { occasion: null, picks: [], note: '' };
const FALLBACKS = { server: 'Your request could not be saved. Please try again.', network: 'No connection: your request was not saved.' };

/**
 * What the diner tells the restaurant for one booking (decision 260): an occasion, quick picks and
 * a request of at most 200 characters. Editable until the booking's cut-off; removable at any time.
 * `withToken`: the hold screen works with the id alone, /me with the diner's token.
 */
export function BookingRequestPanel({ reservation, withToken, compact = false }: { reservation: DinerReservation; withToken: boolean; compact?: boolean }) {
  const current = reservation.request ?? null;
  const now = useNow(30_000);
  const editable = reservation.requestEditableUntil ? now.getTime() < Date.parse(reservation.requestEditableUntil) : false;
  const [editing, setEditing] = useState(false);
  const { save, remove } = useBookingRequest(withToken);
  const toast = useToast();
  const titleId = useId();

  async function onRemove() {
    try {
      await remove.mutateAsync(reservation.id);
      toast('Your request was removed.', 'info', { key: 'request' });
    } catch (error) {
      toast(errorMessage(error, FALLBACKS), 'error', { key: 'request' });
    }
  }

  return (
    <section className={`booking-request${compact ? ' booking-request--compact' : ''}`} aria-labelledby={titleId} data-testid="booking-request">
      <h2 id={titleId} className="booking-request__title">
        Tell {reservation.restaurant.name}
      </h2>
      {editing ? (
        <RequestForm
          initial={current ?? EMPTY}
          busy={save.isPending}
          onCancel={() => setEditing(false)}
          onSave={async (request) => {
            try {
              await save.mutateAsync({ id: reservation.id, request });
              setEditing(false);
              toast('Your request was saved.', 'success', { key: 'request' });
            } catch (error) {
              toast(errorMessage(error, FALLBACKS), 'error', { key: 'request' });
            }
          }}
        />
      ) : (
        <>
          <p className="booking-request__text">
            {current ? describeRequest(current) : editable ? 'An occasion, an allergy, a high chair? Let the restaurant know.' : 'Nothing told.'}
          </p>
          <div className="booking-request__actions">
            {editable && (
              <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
                {current ? 'Change request' : 'Add a request'}
              </Button>
            )}
            {current && (
              <Button size="sm" variant="ghost" onClick={() => void onRemove()} disabled={remove.isPending}>
                Remove what I told them
              </Button>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function RequestForm({
  initial,
  busy,
  onSave,
  onCancel,
}: {
  initial: BookingRequest;
  busy: boolean;
  onSave: (request: BookingRequest) => Promise<void>;
  onCancel: () => void;
}) {
  const [occasion, setOccasion] = useState<Occasion | ''>(initial.occasion ?? '');
  const [picks, setPicks] = useState<RequestPick[]>([...initial.picks]);
  const [note, setNote] = useState(initial.note);
  const picksId = useId();

  function toggle(pick: RequestPick) {
    setPicks((now) => (now.includes(pick) ? now.filter((p) => p !== pick) : [...now, pick]));
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void onSave({ occasion: occasion || null, picks, note });
  }

  return (
    <form className="booking-request__form" onSubmit={onSubmit}>
      <SelectField label="Occasion" value={occasion} onChange={(event) => setOccasion(event.target.value as Occasion | '')}>
        <option value="">No occasion</option>
        {occasions.map((value) => (
          <option key={value} value={value}>
            {occasionLabels[value]}
          </option>
        ))}
      </SelectField>
      <fieldset className="booking-request__picks">
        <legend id={picksId}>Quick picks</legend>
        {requestPicks.map((pick) => (
          <label key={pick} className="pill-toggle check-pill">
            <input type="checkbox" checked={picks.includes(pick)} onChange={() => toggle(pick)} />
            {requestPickLabels[pick]}
          </label>
        ))}
      </fieldset>
      <TextAreaField
        label="Special request"
        hint={`${note.length}/${SPECIAL_REQUEST_MAX} · name any allergy here`}
        maxLength={SPECIAL_REQUEST_MAX}
        rows={3}
        value={note}
        onChange={(event) => setNote(event.target.value)}
      />
      <div className="booking-request__actions">
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? 'Saving…' : 'Save request'}
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
