import { useMemo, useState, type FormEvent } from 'react';
import { isIsoDate } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useAdminSlots } from './api.ts';
import { useCreateDrop } from './drops-api.ts';
import {
  defaultDropForm,
  describeDropSlots,
  describeTakenTimes,
  DROP_FIELDS,
  fieldOfMessage,
  humaniseDropMessage,
  validateDropForm,
  type DropField,
  type DropFormErrors,
  type DropFormValues,
} from './drops-form.ts';

/** The input id of each field, so a refusal can move the focus to it. */
export const fieldId = (field: DropField) => (field === 'times' ? 'drop-time-input' : `drop-${field}`);

/**
 * The new-drop form's state: its values, the times already taken on the first date, the errors
 * shown once submitted, and the submit that creates the drop or says why not.
 */
export function useCreateDropForm(onCreated: (id: string) => void) {
  const toast = useToast();
  const create = useCreateDrop();
  const [values, setValues] = useState<DropFormValues>(() => defaultDropForm(new Date()));
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState('');
  const takenSlots = useAdminSlots(isIsoDate(values.dateFrom) ? values.dateFrom : '');
  const taken = useMemo(() => (takenSlots.data ? takenSlots.data.map((slot) => slot.time).sort() : null), [takenSlots.data]);

  const validation = validateDropForm(values, { now: new Date(), taken: taken ? { date: values.dateFrom, times: taken } : null });
  const errors: DropFormErrors = submitted ? validation.errors : {};
  const summary = describeDropSlots(values);
  const takenNote = describeTakenTimes(values, taken ? { date: values.dateFrom, times: taken } : null);

  function update<K extends DropField>(field: K, value: DropFormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    setServerError('');
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServerError('');
    const checked = validateDropForm(values, { now: new Date(), taken: taken ? { date: values.dateFrom, times: taken } : null });
    if (!checked.body) {
      const first = DROP_FIELDS.find((field) => checked.errors[field]);
      if (first) document.getElementById(fieldId(first))?.focus();
      return;
    }
    create.mutate(checked.body, {
      onSuccess: (drop) => {
        toast(`Drop created: ${drop.slotCount} ${drop.slotCount === 1 ? 'slot' : 'slots'}, hidden until the release.`, 'success');
        onCreated(drop.id);
      },
      onError: (error) => {
        const message = errorMessage(error, {
          server: 'The drop could not be created. Please try again.',
          network: 'No connection: the drop was not created. Please try again.',
        });
        setServerError(humaniseDropMessage(message));
        // A refusal about one field (e.g. 'releaseAt must be at least 30 minutes before…') takes the focus there.
        const field = fieldOfMessage(message);
        if (field) document.getElementById(fieldId(field))?.focus();
      },
    });
  }

  return { values, update, errors, summary, takenNote, taken, serverError, onSubmit, isCreating: create.isPending };
}
