import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import type { RestaurantDetail } from '#common/contract/restaurants.ts';
import { ApiError } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { EmptyState } from '#web/components/ui/Feedback.tsx';
import { useAvailabilityCalendar, useRestaurant } from '#web/features/restaurants/api.ts';
import { BookingPanel } from '#web/features/restaurants/BookingPanel.tsx';
import { RestaurantAbout, RestaurantAtAGlance } from '#web/features/restaurants/RestaurantAbout.tsx';
import { RestaurantGallery } from '#web/features/restaurants/RestaurantGallery.tsx';
import { RestaurantDetails, RestaurantIntro } from '#web/features/restaurants/RestaurantFacts.tsx';
import { BookingSkeleton, RestaurantSkeleton } from '#web/features/restaurants/RestaurantSkeletons.tsx';
import '#web/features/restaurants/restaurant.css';

/** /r/{slug} and /restaurant/{id}: the restaurant, and the date, party size and time picker. */
export default function RestaurantScreen() {
  const { slug, id } = useParams();
  const key = slug ?? id ?? '';
  const restaurant = useRestaurant(key);
  const calendar = useAvailabilityCalendar(key);

  useEffect(() => {
    document.title = restaurant.data ? `${restaurant.data.name} · Tablefair` : 'Restaurant · Tablefair';
  }, [restaurant.data]);

  if (restaurant.isError) {
    const missing = restaurant.error instanceof ApiError && (restaurant.error.status === 404 || restaurant.error.status === 400);
    return (
      <div className="container page">
        <EmptyState icon={missing ? '🍽️' : '⚠️'} title={<h1>{missing ? 'Restaurant not found' : 'This restaurant could not load'}</h1>}>
          <p>{missing ? 'The link may be old, or the restaurant has left Tablefair.' : 'Check your connection and try again.'}</p>
          <p className="restaurant-empty__actions">
            {missing ? null : (
              <Button variant="secondary" onClick={() => void restaurant.refetch()}>
                Try again
              </Button>
            )}
            <ButtonLink to="/explore-tonight">Find a table today</ButtonLink>
            <ButtonLink to="/" variant="ghost">
              Back to home
            </ButtonLink>
          </p>
        </EmptyState>
      </div>
    );
  }
  if (restaurant.isPending) return <RestaurantSkeleton />;
  return <RestaurantPage restaurant={restaurant.data} calendar={calendar} />;
}

function RestaurantPage({ restaurant, calendar }: { restaurant: RestaurantDetail; calendar: ReturnType<typeof useAvailabilityCalendar> }) {
  return (
    <div className="restaurant">
      <div className="restaurant__layout container">
        <RestaurantGallery restaurant={restaurant} className="restaurant__hero" />
        <div className="restaurant__intro-block">
          <RestaurantIntro restaurant={restaurant} />
          <RestaurantAtAGlance restaurant={restaurant} />
        </div>
        <div className="restaurant__more">
          <RestaurantAbout restaurant={restaurant} />
          <RestaurantDetails restaurant={restaurant} />
        </div>
        <aside className="restaurant__booking" aria-labelledby="booking-title">
          <h2 id="booking-title" className="restaurant__booking-title">
            Book a table
          </h2>
          {calendar.isPending ? (
            <BookingSkeleton />
          ) : calendar.isError ? (
            <div className="picker__note">
              <p>We couldn’t load this restaurant’s availability.</p>
              <Button variant="secondary" onClick={() => void calendar.refetch()}>
                Try again
              </Button>
            </div>
          ) : calendar.data.firstAvailableDate === null ? (
            <>
              <div className="restaurant__none">
                <EmptyState icon="🗓️" title="No availability">
                  <p>Nothing is free here in the next 30 days. Pick a date below and join the waitlist: when a table frees up, we hold it for you.</p>
                  <Link className="btn btn--secondary" to="/">
                    ← Back
                  </Link>
                </EmptyState>
              </div>
              <BookingPanel restaurant={restaurant} calendar={calendar.data} />
            </>
          ) : (
            <BookingPanel restaurant={restaurant} calendar={calendar.data} />
          )}
        </aside>
      </div>
    </div>
  );
}
