import { useId, useState, type FormEvent } from 'react';
import { SLOT_CAPACITY_MAX, SLOT_CAPACITY_MIN, SLOT_INTERVAL_MAX, SLOT_INTERVAL_MIN, type AdminSlot, type StaffSlotStatus } from '#common/contract/portal.ts';
import { formatDateShort, formatTime12h, todayInKolkata } from '#common/domain/time.ts';
import { ApiError } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import { NumberField, TextField } from '#web/components/ui/Field.tsx';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { errorMessage } from '#web/api/client.ts';
import { useAddSlots, useAdminSlots, useEditSlot, useSetSlotStatus } from './api.ts';
import { bulkFormErrors, bulkTimes, describeBulk, type BulkForm } from './bookings.ts';
import { AdminPanel } from './AdminPanel.tsx';

/** The spec's defaults: 18:00 to 22:00, every 30 minutes, 4 covers. */
const DEFAULT_BULK: BulkForm = { start: '18:00', end: '22:00', interval: '30', capacity: '4' };

function SlotRow({
  slot,
  busy,
  onStatus,
  onCapacity,
  onDelete,
}: {
  slot: AdminSlot;
  busy: boolean;
  onStatus: (status: StaffSlotStatus) => void;
  onCapacity: (capacity: number) => void;
  onDelete: () => void;
}) {
  const id = useId();
  const [capacity, setCapacity] = useState(String(slot.capacity));
  const typed = Number(capacity);
  const changed = capacity.trim() !== '' && Number.isInteger(typed) && typed !== slot.capacity;
  const share = Math.min(100, Math.round((slot.coversBooked / Math.max(1, slot.capacity)) * 100));
  return (
    <li className={`slot-row slot-row--${slot.status}`} data-testid="slot-row" data-slot-time={slot.time}>
      <div className="slot-row__time">
        {formatTime12h(slot.time)}
        {slot.status === 'cutoff' ? <span className="slot-row__cutoff">Cut off</span> : null}
      </div>
      <div className="slot-row__covers">
        <span className="slot-row__covers-text">
          {slot.coversBooked}/{slot.capacity} <span className="slot-row__covers-unit">covers</span>
        </span>
        <span className="slot-row__bar" aria-hidden="true">
          <span className="slot-row__fill" style={{ width: `${share}%` }} />
        </span>
      </div>
      <label className="visually-hidden" htmlFor={id}>
        Status for {formatTime12h(slot.time)}
      </label>
      <select
        id={id}
        className="slot-row__select"
        value={slot.staffStatus}
        // aria-disabled, not disabled: a disabled select would drop the keyboard focus to <body>.
        aria-disabled={busy || undefined}
        onChange={(event) => {
          if (!busy) onStatus(event.target.value as StaffSlotStatus);
        }}
      >
        <option value="available">available</option>
        <option value="full">full</option>
      </select>
      <div className="slot-row__edit">
        <label htmlFor={`${id}-capacity`}>Capacity</label>
        <input
          id={`${id}-capacity`}
          className="slot-row__capacity"
          type="number"
          inputMode="numeric"
          min={SLOT_CAPACITY_MIN}
          max={SLOT_CAPACITY_MAX}
          value={capacity}
          aria-label={`Capacity for ${formatTime12h(slot.time)}`}
          onChange={(event) => setCapacity(event.target.value)}
        />
        <Button size="sm" variant="secondary" aria-disabled={!changed || busy || undefined} onClick={() => changed && !busy && onCapacity(typed)}>
          Save
        </Button>
        <Button
          size="sm"
          variant="secondary"
          aria-label={`Delete ${formatTime12h(slot.time)}`}
          aria-disabled={busy || undefined}
          onClick={() => !busy && onDelete()}
        >
          Delete
        </Button>
      </div>
    </li>
  );
}

/** Slot Management: a date (default today in Kolkata), the bulk-add form and the date's slots. */
export function SlotsPanel() {
  const [date, setDate] = useState(() => todayInKolkata());
  const [form, setForm] = useState(DEFAULT_BULK);
  const [errors, setErrors] = useState<Partial<Record<keyof BulkForm, string>>>({});
  const bulkId = useId();
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const slots = useAdminSlots(date);
  const addSlots = useAddSlots();
  const setStatus = useSetSlotStatus();
  const preview = describeBulk(bulkTimes(form.start, form.end, Number(form.interval)));

  function update(field: keyof BulkForm, value: string) {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setResult(null);
  }

  /** A bulk-add field's id, value, error and change handler. */
  const bound = (field: keyof BulkForm) => ({
    id: `${bulkId}-${field}`,
    value: form[field],
    error: errors[field],
    onChange: (event: { target: { value: string } }) => update(field, event.target.value),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (addSlots.isPending) return;
    setResult(null);
    // The form's own bounds and words, beside the field, before the server is asked.
    const found = bulkFormErrors(date, form);
    setErrors(found);
    const firstInvalid = (Object.keys(DEFAULT_BULK) as (keyof BulkForm)[]).find((field) => found[field]);
    if (firstInvalid) {
      document.getElementById(`${bulkId}-${firstInvalid}`)?.focus();
      return;
    }
    addSlots.mutate(
      { date, start: form.start, end: form.end, interval: Number(form.interval), capacity: Number(form.capacity) },
      {
        onSuccess: ({ created, skipped, past }) => {
          const parts = [`Added ${created} ${created === 1 ? 'slot' : 'slots'}`];
          if (skipped) parts.push(`${skipped} already existed`);
          if (past) parts.push(`${past} already started`);
          setResult({ tone: 'success', text: `${parts.join('; ')}.` });
        },
        // Logged as the spec says ('Failed to add slots'); the server's reason is shown so the form can be fixed.
        onError: (error) =>
          setResult({
            tone: 'error',
            text: error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Slots could not be added. Please try again.',
          }),
      },
    );
  }

  const editSlot = useEditSlot();
  const [deleting, setDeleting] = useState<AdminSlot | null>(null);
  const busySlotId = setStatus.isPending ? setStatus.variables?.id : editSlot.isPending ? editSlot.variables?.id : undefined;
  /** A capacity change or a delete; a refusal (bookings would be lost) is said in the server's sentence. */
  function edit(slot: AdminSlot, capacity: number | null) {
    editSlot.mutate(
      { id: slot.id, capacity },
      {
        onSuccess: () =>
          setSlotNotice({
            tone: 'success',
            text: capacity === null ? `${formatTime12h(slot.time)} deleted.` : `${formatTime12h(slot.time)} now seats ${capacity}.`,
          }),
        onError: (error) =>
          setSlotNotice({
            tone: 'error',
            text: errorMessage(error, { server: 'The slot could not be changed', network: 'The slot could not be changed. Please try again.' }),
          }),
        onSettled: () => setDeleting(null),
      },
    );
  }
  const [slotNotice, setSlotNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  // A slot's status change, said politely (the select keeps the focus).
  const [slotNews, setSlotNews] = useState('');

  return (
    <AdminPanel className="slots" title="Slot Management">
      <div className="slots__date">
        <TextField label="Date" type="date" value={date} onChange={(event) => event.target.value && setDate(event.target.value)} />
      </div>
      <form className="slots__bulk" onSubmit={onSubmit} noValidate aria-labelledby="bulk-title">
        <h3 id="bulk-title" className="slots__subtitle">
          Add slots for {formatDateShort(date)}
        </h3>
        <div className="slots__bulk-grid">
          <TextField label="Start" type="time" {...bound('start')} />
          <TextField label="End" type="time" {...bound('end')} />
          <NumberField label="Interval (min)" min={SLOT_INTERVAL_MIN} max={SLOT_INTERVAL_MAX} {...bound('interval')} />
          <NumberField label="Capacity (covers)" min={SLOT_CAPACITY_MIN} max={SLOT_CAPACITY_MAX} {...bound('capacity')} />
        </div>
        <div className="slots__bulk-foot">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus to <body>. */}
          <Button type="submit" aria-disabled={addSlots.isPending || undefined}>
            {addSlots.isPending ? 'Adding…' : 'Add slots'}
          </Button>
          <p className="slots__preview">{preview}</p>
        </div>
        <p className={`slots__result${result ? ` slots__result--${result.tone}` : ''}`} role="status">
          {result?.text}
        </p>
      </form>
      <h3 className="slots__subtitle slots__list-title">
        {formatDateShort(date)}
        {slots.data && slots.data.length > 0 ? <span className="bookings__day-count">{slots.data.length}</span> : null}
      </h3>
      {slots.isPending ? (
        <div className="slots__loading" aria-hidden="true">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height={40} />
          ))}
        </div>
      ) : !slots.data || slots.data.length === 0 ? (
        <p className="bookings__empty">No slots found for this date</p>
      ) : (
        <ul className="slots__list">
          {slots.data.map((slot) => (
            <SlotRow
              key={`${slot.id}-${slot.capacity}`}
              onCapacity={(capacity) => edit(slot, capacity)}
              onDelete={() => setDeleting(slot)}
              slot={slot}
              busy={busySlotId === slot.id}
              onStatus={(status) =>
                setStatus.mutate(
                  { id: slot.id, status },
                  {
                    onSuccess: () => setSlotNews(`${formatTime12h(slot.time)} is now ${status}.`),
                    onError: () => setSlotNews(`${formatTime12h(slot.time)} could not be changed. Try again.`),
                  },
                )
              }
            />
          ))}
        </ul>
      )}
      <p className={`slots__result${slotNotice ? ` slots__result--${slotNotice.tone}` : ''}`} role="status" data-testid="slot-notice">
        {slotNotice?.text}
      </p>
      <p className="visually-hidden" role="status">
        {slotNews}
      </p>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this time"
        confirmLabel={editSlot.isPending ? 'Deleting…' : 'Yes, delete'}
        cancelLabel="Keep it"
        busy={editSlot.isPending}
        onConfirm={() => deleting && edit(deleting, null)}
        onCancel={() => setDeleting(null)}
      >
        <p>
          {deleting
            ? `${formatTime12h(deleting.time)} on ${formatDateShort(deleting.date)} will no longer be offered. A time with bookings cannot be deleted.`
            : null}
        </p>
      </ConfirmDialog>
    </AdminPanel>
  );
}
