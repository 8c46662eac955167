import { Button } from '#web/components/ui/Button.tsx';
import { useSubscribeThisBrowser, useThisBrowserPush } from './api.ts';
import { PushRefused, refusalText } from './push.ts';
import './notifications.css';

/**
 * "Tell me the moment a table frees": the opt-in where it matters (decision 212), after joining a
 * waitlist or entering a drop. Says plainly when this browser cannot or may not show notifications.
 */
export function PushOptIn({ what }: { what: string }) {
  const device = useThisBrowserPush();
  const subscribe = useSubscribeThisBrowser();
  if (device.isPending)
    return <div className="push-opt-in push-opt-in--loading" role="status" aria-busy="true" aria-label="Checking notifications on this device" />;
  if (device.data === 'on') {
    return (
      <p className="push-opt-in push-opt-in--on" role="status">
        <span className="emoji" aria-hidden="true">
          ✅
        </span>{' '}
        Notifications are on for this device: you’ll hear the moment {what}.
      </p>
    );
  }
  const blocked = device.data === 'unsupported' || device.data === 'denied';
  return (
    <div className="push-opt-in">
      <span className="push-opt-in__icon emoji" aria-hidden="true">
        📲
      </span>
      <div className="push-opt-in__words">
        <p className="push-opt-in__title">Tell me the moment a table frees</p>
        <p className="push-opt-in__text">
          {blocked
            ? refusalText(new PushRefused(device.data === 'denied' ? 'denied' : 'unsupported'))
            : `A notification on this device the moment ${what} — it is held for you for only a few minutes.`}
        </p>
        {subscribe.isError ? (
          <p className="push-opt-in__error" role="alert">
            {refusalText(subscribe.error)}
          </p>
        ) : null}
      </div>
      {blocked ? null : (
        <Button variant="dark" size="sm" className="push-opt-in__action" disabled={subscribe.isPending} onClick={() => subscribe.mutate()}>
          {subscribe.isPending ? 'Turning on…' : 'Notify me'}
        </Button>
      )}
    </div>
  );
}
