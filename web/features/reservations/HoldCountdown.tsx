import { countdownAnnouncement, countdownText } from './rules.ts';

/**
 * The hold's countdown: a ring that empties and the time left, ticking every second.
 * Screen readers hear it through a polite live region that changes once a minute.
 */
export function HoldCountdown({ secondsLeft, totalSeconds }: { secondsLeft: number; totalSeconds: number }) {
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
