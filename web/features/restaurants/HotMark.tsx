/** "🔥 Hot" beside a restaurant that is in demand; `lead` is text shown before it in the same style (e.g. " · "). */
export function HotMark({ className, lead }: { className: string; lead?: string }) {
  return (
    <span className={className}>
      {lead}
      <span className="emoji" aria-hidden="true">
        🔥
      </span>{' '}
      Hot
    </span>
  );
}
