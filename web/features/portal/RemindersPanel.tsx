import { errorMessage } from '#web/api/client.ts';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { AdminPanel } from './AdminPanel.tsx';
import { useReminderSetting, useUpdateReminderSetting } from './api.ts';

/**
 * The restaurant's reminder setting (decision 150): on by default, so diners are reminded a
 * day and two hours ahead and can confirm or release their table in one tap.
 */
export function RemindersPanel() {
  const setting = useReminderSetting();
  const update = useUpdateReminderSetting();
  const toast = useToast();
  const on = update.isPending ? update.variables.remindersOn : setting.data?.remindersOn;

  function onChange(remindersOn: boolean) {
    update.mutate(
      { remindersOn },
      {
        onSuccess: (saved) =>
          toast(saved.remindersOn ? 'Reminders are on.' : 'Reminders are off. Diners get no reminder before their bookings.', 'success', { key: 'reminders' }),
        onError: (error) =>
          toast(
            errorMessage(error, {
              server: 'The setting could not be saved. Try again.',
              network: 'Could not reach the server. Check your connection and try again.',
            }),
            'error',
            { key: 'reminders' },
          ),
      },
    );
  }

  return (
    <AdminPanel className="reminders-panel" title="Reminders">
      {setting.isPending ? (
        <Skeleton height={48} radius="var(--radius-md)" />
      ) : setting.isError ? (
        <p className="reminders-setting__hint">The setting could not be loaded. It will be tried again in a moment.</p>
      ) : (
        <label className="reminders-setting">
          <input type="checkbox" checked={Boolean(on)} disabled={update.isPending} onChange={(event) => onChange(event.target.checked)} />
          <span className="reminders-setting__text">
            <span className="reminders-setting__label">Remind diners before their booking</span>
            <span className="reminders-setting__hint">
              A day and two hours ahead, by email and text. Diners confirm or release the table in one tap; released tables go to your waitlist.
            </span>
          </span>
        </label>
      )}
    </AdminPanel>
  );
}
