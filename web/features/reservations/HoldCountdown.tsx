import { countdownAnnouncement, countdownText } from './rules.ts';

/**
 * The hold's countdown: a ring that empties and the time left, ticking every second.
 * Screen readers hear it through a polite live region that changes once a minute.
 * `settled` names how the hold left HELD while the screen is still up (confirmed or cancelled a
 * moment ago): the countdown stops and says so, and never claims the hold expired.
 */
export function HoldCountdown({
  secondsLeft,
  totalSeconds,
  settled = null,
}: {
  secondsLeft: number;
  totalSeconds: number;
  settled?: 'confirmed' | 'cancelled' | null;
}) {
  if (settled) return <SettledCountdown settled={settled} />;
  const fraction = totalSeconds > 0 ? Math.min(1, Math.max(0, secondsLeft / totalSeconds)) : 0;
  const radius = 52;
  const circumference = 2 * Math.PI * radius;
  const tone = secondsLeft <= 0 ? 'over' : secondsLeft <= 60 ? 'last' : 'calm';
  return (
    <div className={`countdown countdown--${tone}`}>
      <svg className="countdown__ring" viewBox="0 0 120 120" aria-hidden="true">
        <circle className="countdown__track" cx="60" cy="60" r={radius} />
        <circle
          className="countdown__progress"
          cx="60"
          cy="60"
          r={radius}
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - fraction)}
          transform="rotate(-90 60 60)"
        />
      </svg>
      <div className="countdown__text" role="timer">
        <span className="countdown__time" data-testid="hold-countdown">
          {countdownText(secondsLeft)}
        </span>{' '}
        <span className="countdown__caption">{secondsLeft > 0 ? 'left to confirm' : 'hold ended'}</span>
      </div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {countdownAnnouncement(secondsLeft)}
      </p>
    </div>
  );
}

/** The stopped countdown after a confirm or cancel: the outcome, not the time; the toast announces it. */
function SettledCountdown({ settled }: { settled: 'confirmed' | 'cancelled' }) {
  return (
    <div className="countdown countdown--calm" data-settled={settled}>
      <svg className="countdown__ring" viewBox="0 0 120 120" aria-hidden="true">
        <circle className="countdown__track" cx="60" cy="60" r={52} />
      </svg>
      <div className="countdown__text">
        <span className="countdown__time" data-testid="hold-countdown" aria-hidden="true">
          {settled === 'confirmed' ? '✓' : '–'}
        </span>{' '}
        <span className="countdown__caption">{settled === 'confirmed' ? 'confirmed' : 'hold cancelled'}</span>
      </div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true" />
    </div>
  );
}
