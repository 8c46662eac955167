import { useId, useState, type ReactNode } from 'react';
import type { ChannelChoices, NotificationPreferences } from '#common/contract/push.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Alert, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useChooseChannels, useNotificationPreferences, useSubscribeThisBrowser, useThisBrowserPush, useUnsubscribeThisBrowser } from './api.ts';
import { refusalText } from './push.ts';
import './notifications.css';

const FALLBACKS = { server: 'We could not save your choice. Please try again.', network: 'We could not reach Tablefair. Check your connection and try again.' };

/**
 * The "Notifications" card of /me (decision 212): push on this device, WhatsApp and SMS to the
 * verified phone, each on or off; email always on, since offers and bookings must land somewhere.
 */
export function NotificationsCard() {
  const preferences = useNotificationPreferences(true);
  const titleId = useId();
  return (
    <section className="my-notifications card card--padded" aria-labelledby={titleId} aria-busy={preferences.isPending}>
      <h2 id={titleId}>Notifications</h2>
      <p className="my-notifications__intro">
        How we reach you when a table frees, a draw is done or your booking is near. Only what you asked for — never marketing.
      </p>
      {preferences.isPending ? (
        <div className="my-notifications__loading" role="status" aria-label="Loading your notification settings">
          <Skeleton height={56} />
          <Skeleton height={56} />
          <Skeleton height={56} />
        </div>
      ) : preferences.isError ? (
        <div className="my-notifications__error">
          <p>Your notification settings aren’t showing right now.</p>
          <Button variant="secondary" size="sm" onClick={() => void preferences.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <Channels preferences={preferences.data} />
      )}
    </section>
  );
}

function Channels({ preferences }: { preferences: NotificationPreferences }) {
  const choose = useChooseChannels();
  const [error, setError] = useState<string | null>(null);
  const choices: ChannelChoices = { push: preferences.push, whatsapp: preferences.whatsapp, sms: preferences.sms };
  const set = (channel: keyof ChannelChoices, on: boolean) => {
    setError(null);
    choose.mutate({ ...choices, [channel]: on }, { onError: (failure) => setError(errorMessage(failure, FALLBACKS)) });
  };
  const phoneNote = preferences.verifiedPhone ? 'To your verified phone.' : 'Verify your phone above to use this.';
  return (
    <>
      <ul className="my-notifications__channels">
        <PushRow preferences={preferences} onTurnedOn={() => (preferences.push ? undefined : set('push', true))} />
        <ChannelRow icon="💬" name="WhatsApp" note={`Offers and reminders on WhatsApp. ${phoneNote}`}>
          <Switch label="WhatsApp" on={preferences.whatsapp} disabled={choose.isPending} onChange={(on) => set('whatsapp', on)} />
        </ChannelRow>
        <ChannelRow icon="✉️" name="SMS" note={`A text when WhatsApp cannot reach you. ${phoneNote}`}>
          <Switch label="SMS" on={preferences.sms} disabled={choose.isPending} onChange={(on) => set('sms', on)} />
        </ChannelRow>
        <ChannelRow
          icon="📧"
          name="Email"
          note={
            preferences.hasEmail
              ? 'Offers, bookings and receipts always reach your email, so nothing important is lost.'
              : 'Add an email to your account to get offers there too.'
          }
        >
          <span className="my-notifications__always">Always on</span>
        </ChannelRow>
      </ul>
      {error ? <Alert tone="error">{error}</Alert> : null}
    </>
  );
}

function PushRow({ preferences, onTurnedOn }: { preferences: NotificationPreferences; onTurnedOn: () => void }) {
  const device = useThisBrowserPush();
  const subscribe = useSubscribeThisBrowser();
  const unsubscribe = useUnsubscribeThisBrowser();
  const busy = device.isPending || subscribe.isPending || unsubscribe.isPending;
  const others = Math.max(0, preferences.pushDevices - (device.data === 'on' ? 1 : 0));
  let note = 'The fastest way to hear about a table: a notification on this phone or computer, even with Tablefair closed.';
  let control: ReactNode = (
    <Switch
      label="Push on this device"
      on={device.data === 'on'}
      disabled={busy}
      onChange={(on) => (on ? subscribe.mutate(undefined, { onSuccess: onTurnedOn }) : unsubscribe.mutate())}
    />
  );
  if (!preferences.pushEnabled) {
    note = 'Notifications are not available on Tablefair right now.';
    control = <span className="my-notifications__unavailable">Unavailable</span>;
  } else if (device.data === 'unsupported') {
    note = 'This browser cannot show notifications. On an iPhone, add Tablefair to your Home Screen first.';
    control = <span className="my-notifications__unavailable">Not supported</span>;
  } else if (device.data === 'denied') {
    note = 'Blocked in this browser’s settings. Allow notifications for Tablefair (the icon beside the address), then come back.';
    control = <span className="my-notifications__unavailable">Blocked</span>;
  }
  const failure = subscribe.error ?? unsubscribe.error;
  return (
    <ChannelRow
      icon="📲"
      name="Push on this device"
      note={others > 0 ? `${note} Also on ${others === 1 ? 'one other device' : `${others} other devices`}.` : note}
    >
      {control}
      {failure ? (
        <p className="my-notifications__row-error" role="alert">
          {subscribe.error ? refusalText(subscribe.error) : 'We could not turn off notifications on this device. Please try again.'}
        </p>
      ) : null}
    </ChannelRow>
  );
}

function ChannelRow({ icon, name, note, children }: { icon: string; name: string; note: string; children: ReactNode }) {
  return (
    <li className="my-notifications__channel">
      <span className="my-notifications__icon emoji" aria-hidden="true">
        {icon}
      </span>
      <div className="my-notifications__words">
        <span className="my-notifications__name">{name}</span>
        <span className="my-notifications__note">{note}</span>
      </div>
      <div className="my-notifications__control">{children}</div>
    </li>
  );
}

/** An on/off switch: a button with role="switch", named by its label (the dating section's Notifications use it too). */
export function Switch({ label, on, disabled, onChange }: { label: string; on: boolean; disabled?: boolean; onChange: (on: boolean) => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label={label}
      className={`my-notifications__switch${on ? ' my-notifications__switch--on' : ''}`}
      disabled={disabled}
      onClick={() => onChange(!on)}
    >
      <span className="my-notifications__knob" aria-hidden="true" />
    </button>
  );
}
