import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { SiteHeader } from '#web/components/layout/SiteLayout.tsx';
import { AccountMenu } from '#web/features/accounts/AccountMenu.tsx';
import { useRestaurants } from '#web/features/discovery/api.ts';
import { MapCardList } from '#web/features/discovery/MapCardList.tsx';
import { MapFilterBar } from '#web/features/discovery/MapFilterBar.tsx';
import { MapRefinementBar } from '#web/features/discovery/MapRefinementBar.tsx';
import {
  applyMapFilter,
  applyMapRefinements,
  categoryOptions,
  NO_REFINEMENTS,
  toMapRestaurants,
  type MapFilter,
  type MapRefinements,
} from '#web/features/discovery/map-filters.ts';
import RestaurantMap from '#web/features/discovery/RestaurantMap.tsx';
import '#web/components/ui/ui.css';
import '#web/features/discovery/map.css';

const ALL: MapFilter = { kind: 'all' };

/** The live map: a dark island inside the light product (decision 060). */
export default function MapScreen() {
  const restaurants = useRestaurants();
  const [filter, setFilter] = useState<MapFilter>(ALL);
  const [refinements, setRefinements] = useState<MapRefinements>(NO_REFINEMENTS);

  useEffect(() => {
    document.title = 'Find Tables on the Map · Tablefair';
  }, []);

  const failed = restaurants.isError;
  const loading = restaurants.isPending;
  // The spec: on a load failure the list stays empty.
  const mappable = useMemo(() => (failed ? [] : toMapRestaurants(restaurants.data ?? [])), [failed, restaurants.data]);
  const categories = useMemo(() => categoryOptions(mappable), [mappable]);
  const visible = useMemo(() => applyMapRefinements(applyMapFilter(mappable, filter), refinements), [mappable, filter, refinements]);
  const isFiltered = filter.kind !== 'all' || refinements.pureVeg || refinements.cost !== null;

  let subtitle;
  if (failed) {
    subtitle = (
      <p className="map-hero__status map-hero__status--error" role="alert">
        Failed to load restaurants from API
        <button type="button" className="map-hero__retry" onClick={() => restaurants.refetch()}>
          Try again
        </button>
      </p>
    );
  } else {
    subtitle = (
      <p className="map-hero__status" role="status">
        {loading
          ? 'Loading restaurants…'
          : !isFiltered
            ? `${mappable.length} restaurants on the map`
            : `Showing ${visible.length} of ${mappable.length} restaurants`}
      </p>
    );
  }

  return (
    <div className="map-page">
      <a className="skip-link" href="#map">
        Skip to the map
      </a>
      {/* The site's own header: its sections and the account menu, as on every diner page. */}
      <SiteHeader end={<AccountMenu />} />
      <div className="map-hero">
        <div className="map-hero__inner">
          <p className="map-hero__eyebrow">
            <span className="map-hero__live" aria-hidden="true" /> Live map · Bengaluru
          </p>
          <h1 className="map-hero__title">Find Tables on the Map</h1>
          <p className="map-hero__pitch">Real-time availability, no bots, fair access — with identity verification and queue fairness.</p>
          {subtitle}
          <div className="map-hero__actions">
            <a href="#map" className="btn btn--primary">
              View Map
            </a>
            <Link to="/" className="btn map-hero__home">
              Back to Home
            </Link>
          </div>
        </div>
      </div>

      <main className="map-main">
        <section id="map" className="map-section" aria-label="Map" tabIndex={-1}>
          <MapFilterBar categories={categories} value={filter} onChange={setFilter} />
          <MapRefinementBar value={refinements} onChange={setRefinements} />
          <p className="map-legend">
            <span className="map-legend__dot map-legend__dot--hot" aria-hidden="true" /> Hot spot
            <span className="map-legend__dot" aria-hidden="true" /> Restaurant
          </p>
          {/* One Tab stop per marker follows: a keyboard user can go straight to the same restaurants as a list. */}
          <a
            className="map-section__skip"
            href="#map-list"
            onClick={(event) => {
              // Moved by hand: the router's navigation would leave the focus on <body>.
              event.preventDefault();
              document.getElementById('map-list')?.focus();
            }}
          >
            Skip the map’s markers to the restaurant list
          </a>
          <RestaurantMap restaurants={visible} loading={loading} />
        </section>
        <MapCardList
          restaurants={visible}
          loading={loading}
          failed={failed}
          onShowAll={
            isFiltered
              ? () => {
                  setFilter(ALL);
                  setRefinements(NO_REFINEMENTS);
                }
              : undefined
          }
        />
      </main>
    </div>
  );
}
