import { Link } from 'react-router';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import { dietLabels, formatCostForTwo } from '#common/domain/restaurant-profile.ts';
import type { MapRestaurant } from './map-filters.ts';

/** The small-screen list under the map: it follows the active filter. */
export function MapCardList({
  restaurants,
  loading,
  failed,
  onShowAll,
}: {
  restaurants: MapRestaurant[];
  loading: boolean;
  failed: boolean;
  onShowAll?: () => void;
}) {
  return (
    <section id="map-list" className="map-list" aria-labelledby="map-list-title" tabIndex={-1}>
      <div className="map-list__head">
        <h2 id="map-list-title">Available Restaurants</h2>
        {!loading && !failed ? <span className="map-list__count">{restaurants.length}</span> : null}
      </div>
      {loading ? (
        <ul className="map-list__items" aria-hidden="true">
          {Array.from({ length: 4 }, (_, index) => (
            <li key={index} className="map-card map-card--skeleton">
              <Skeleton width={44} height={44} radius="50%" className="map-skeleton" />
              <div className="map-card__text">
                <Skeleton width="60%" height={18} className="map-skeleton" />
                <Skeleton width="35%" height={14} className="map-skeleton" />
              </div>
            </li>
          ))}
        </ul>
      ) : failed ? null : restaurants.length === 0 ? (
        <div className="map-list__empty">
          <p>No restaurants match this filter.</p>
          {onShowAll ? (
            <button type="button" className="pill-toggle map-filter" onClick={onShowAll}>
              Show all restaurants
            </button>
          ) : null}
        </div>
      ) : (
        <ul className="map-list__items">
          {restaurants.map((restaurant) => {
            const href = `/r/${encodeURIComponent(restaurant.slug)}`;
            return (
              <li key={restaurant.id} className="map-card" data-testid="map-card" data-slug={restaurant.slug}>
                <span className={`map-card__emoji${restaurant.hot ? ' map-card__emoji--hot' : ''}`} aria-hidden="true">
                  <span className="emoji">{restaurant.emoji}</span>
                </span>
                <div className="map-card__text">
                  <h3 className="map-card__name">
                    <Link to={href} className="map-card__link">
                      {restaurant.name}
                    </Link>
                  </h3>
                  <p className="map-card__hood">
                    {restaurant.neighborhood}
                    {restaurant.hot ? <span className="map-card__hot"> · Hot spot</span> : null}
                  </p>
                  {restaurant.diet || restaurant.costForTwo !== null ? (
                    <p className="map-card__facts">
                      {[restaurant.diet ? dietLabels[restaurant.diet] : null, restaurant.costForTwo !== null ? formatCostForTwo(restaurant.costForTwo) : null]
                        .filter(Boolean)
                        .join(' · ')}
                    </p>
                  ) : null}
                </div>
                <Link to={href} className="btn btn--primary btn--sm map-card__reserve" aria-label={`Reserve at ${restaurant.name}`}>
                  Reserve
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
