import { LoadingScreen, Skeleton } from '#web/components/ui/Feedback.tsx';

/** The date, party size and time picker while the calendar loads. */
export function BookingSkeleton() {
  return (
    <div className="booking" aria-hidden="true">
      <Skeleton width={60} height={14} />
      <div className="date-row">
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} width={64} height={76} radius="var(--radius-lg)" />
        ))}
      </div>
      <Skeleton width={90} height={14} />
      <Skeleton width="70%" height={44} radius="var(--radius-pill)" />
      <Skeleton width={50} height={14} />
      <div className="time-grid">
        {Array.from({ length: 8 }, (_, index) => (
          <Skeleton key={index} height={44} radius="var(--radius-md)" />
        ))}
      </div>
    </div>
  );
}

/** The whole restaurant page while it loads. */
export function RestaurantSkeleton() {
  return (
    <LoadingScreen className="restaurant" label="Loading the restaurant…">
      <div className="restaurant__layout container" aria-hidden="true">
        <Skeleton className="restaurant__hero hero-image" height="auto" radius="var(--radius-xl)" />
        <div className="restaurant__intro">
          <Skeleton width="65%" height={34} />
          <Skeleton width="35%" height={18} />
          <Skeleton width="80%" height={16} />
        </div>
        <div className="restaurant__booking">
          <BookingSkeleton />
        </div>
      </div>
    </LoadingScreen>
  );
}
