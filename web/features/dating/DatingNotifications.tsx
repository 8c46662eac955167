import { useId, useState } from 'react';
import { Switch } from '#web/features/notifications/NotificationsCard.tsx';
import { PushRefused, refusalText } from '#web/features/notifications/push.ts';
import { datingErrorMessage } from './api.ts';
import { useChooseDatingPush, useDatingPush, useSubscribeDatingBrowser, useUnsubscribeDatingBrowser, type DatingPushDevice } from './push.ts';
import '#web/features/notifications/notifications.css';
import './notifications.css';

/** Why this device cannot take notifications, in the house's words; null when it can. */
function blockedText(device: DatingPushDevice | undefined): string | null {
  if (device === 'unsupported' || device === 'denied') return refusalText(new PushRefused(device));
  return null;
}

/**
 * "Tell me when my date answers" on "Your dates" (decisions 219, 227): a notification on this device
 * when a plan is proposed, accepted, booked or called off. Nothing when push is not offered at all;
 * a plain line once it is on.
 */
export function DatingPushOptIn() {
  const push = useDatingPush();
  const subscribe = useSubscribeDatingBrowser();
  if (!push.data || !push.data.preferences.pushEnabled) return null;
  const { device, preferences } = push.data;
  if (device === 'on' && preferences.push) {
    return (
      <p className="d-push d-push--on" role="status">
        <span className="emoji" aria-hidden="true">
          ✅
        </span>{' '}
        Notifications are on for this device: you’ll hear the moment your date answers.
      </p>
    );
  }
  const blocked = blockedText(device);
  return (
    <div className="d-push">
      <span className="d-push__icon emoji" aria-hidden="true">
        📲
      </span>
      <div className="d-push__words">
        <p className="d-push__title">Tell me when my date answers</p>
        <p className="d-push__text">
          {blocked ??
            (preferences.push
              ? 'A notification on this device when a plan is proposed, accepted, booked or called off — no need to keep checking.'
              : 'Date-plan notifications are turned off in your settings below.')}
        </p>
        {subscribe.isError ? (
          <p className="d-push__error" role="alert">
            {subscribe.error instanceof PushRefused ? refusalText(subscribe.error) : datingErrorMessage(subscribe.error, refusalText(subscribe.error))}
          </p>
        ) : null}
      </div>
      {blocked || !preferences.push ? null : (
        <button type="button" className="btn d-btn--primary d-push__action" disabled={subscribe.isPending} onClick={() => subscribe.mutate()}>
          {subscribe.isPending ? 'Turning on…' : 'Notify me'}
        </button>
      )}
    </div>
  );
}

/**
 * The Notifications setting of the dating profile: this device on or off, and date-plan
 * notifications on or off on every device of the member. Date plans never go by text or email
 * (decision 227), so there is nothing else to choose.
 */
export function DatingNotificationSettings() {
  const titleId = useId();
  const push = useDatingPush();
  const subscribe = useSubscribeDatingBrowser();
  const unsubscribe = useUnsubscribeDatingBrowser();
  const choose = useChooseDatingPush();
  const [error, setError] = useState<string | null>(null);
  // A press while a change is on its way is ignored rather than the switch disabled: a disabled
  // switch would drop the keyboard focus.
  const busy = subscribe.isPending || unsubscribe.isPending || choose.isPending;

  let body;
  if (push.isPending) body = <p className="d-muted">Checking notifications on this device…</p>;
  else if (!push.data) body = <p className="d-muted">{datingErrorMessage(push.error, 'Your notification settings aren’t showing right now.')}</p>;
  else if (!push.data.preferences.pushEnabled) body = <p className="d-muted">Notifications are not available on Tablefair right now.</p>;
  else {
    const { device, preferences } = push.data;
    const blocked = blockedText(device);
    const others = Math.max(0, preferences.pushDevices - (device === 'on' ? 1 : 0));
    body = (
      <ul className="my-notifications__channels d-notify__rows">
        <li className="my-notifications__channel">
          <span className="my-notifications__icon emoji" aria-hidden="true">
            📲
          </span>
          <div className="my-notifications__words">
            <span className="my-notifications__name">This device</span>
            <span className="my-notifications__note">
              {blocked ?? 'A notification here when your date answers, the table is booked or a plan is called off.'}
              {others > 0 ? ` Also on ${others === 1 ? 'one other device' : `${others} other devices`}.` : ''}
            </span>
          </div>
          <div className="my-notifications__control">
            {blocked ? (
              <span className="my-notifications__unavailable">{device === 'denied' ? 'Blocked' : 'Not supported'}</span>
            ) : (
              <Switch
                label="Notifications on this device"
                on={device === 'on'}
                onChange={(on) => {
                  if (busy) return;
                  setError(null);
                  const failed = (failure: unknown) =>
                    setError(failure instanceof PushRefused ? refusalText(failure) : datingErrorMessage(failure, refusalText(failure)));
                  if (on) subscribe.mutate(undefined, { onError: failed });
                  else unsubscribe.mutate(undefined, { onError: failed });
                }}
              />
            )}
          </div>
        </li>
        <li className="my-notifications__channel">
          <span className="my-notifications__icon emoji" aria-hidden="true">
            💌
          </span>
          <div className="my-notifications__words">
            <span className="my-notifications__name">Date-plan news</span>
            <span className="my-notifications__note">On every device you turned on. Off means you see changes only here, on Your dates.</span>
          </div>
          <div className="my-notifications__control">
            <Switch
              label="Date-plan news"
              on={preferences.push}
              onChange={(on) => {
                if (busy) return;
                setError(null);
                choose.mutate(
                  { push: on },
                  { onError: (failure) => setError(datingErrorMessage(failure, 'We could not save your choice. Please try again.')) },
                );
              }}
            />
          </div>
        </li>
      </ul>
    );
  }
  return (
    <section className="d-card d-app__card d-notify" aria-labelledby={titleId}>
      <h2 id={titleId} className="d-app__card-title">
        Notifications
      </h2>
      <p className="d-notify__intro">Only news about your date plans — never marketing, never a text or email about your dates.</p>
      {body}
      {error ? (
        <p className="d-push__error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
