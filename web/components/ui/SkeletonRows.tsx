import { Skeleton } from './Feedback.tsx';

/** A list while it loads: `count` full-width grey rows, hidden from screen readers like each skeleton. */
export function SkeletonRows({ count, height, className }: { count: number; height: number | string; className: string }) {
  return (
    <div aria-hidden="true" className={className}>
      {Array.from({ length: count }, (_, row) => (
        <Skeleton key={row} height={height} />
      ))}
    </div>
  );
}
