import type { RestaurantDetail } from '#common/contract/restaurants.ts';
import { childrenLabels, dietExplanations, dietLabels, formatCostForTwo, smokingLabels } from '#common/domain/restaurant-profile.ts';
import { largestPhotoUrl, PhotoAtWidth } from '#web/components/ui/PhotoAtWidth.tsx';
import { safeExternalUrl } from './RestaurantFacts.tsx';

/** What a diner decides by, first: veg or not, cost for two, where it is (decision 233). */
export function RestaurantAtAGlance({ restaurant }: { restaurant: RestaurantDetail }) {
  const directions = safeExternalUrl(restaurant.directionsUrl);
  if (!restaurant.diet && restaurant.costForTwo === null && !restaurant.address) return null;
  return (
    <section className="restaurant-glance" aria-label="At a glance">
      <ul className="restaurant-glance__facts">
        {restaurant.diet ? (
          <li className={`restaurant-glance__diet restaurant-glance__diet--${restaurant.diet}`} title={dietExplanations[restaurant.diet]}>
            <span className="restaurant-glance__mark" aria-hidden="true" />
            {dietLabels[restaurant.diet]}
          </li>
        ) : null}
        {restaurant.costForTwo !== null ? <li>{formatCostForTwo(restaurant.costForTwo)}</li> : null}
      </ul>
      {restaurant.address ? (
        <div className="restaurant-glance__where">
          <address>{restaurant.address}</address>
          {directions ? (
            <a className="btn btn--secondary btn--sm" href={directions.href} target="_blank" rel="noopener noreferrer">
              Get directions<span className="visually-hidden"> (opens maps)</span>
            </a>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/**
 * Opening hours, the menu and the house rules. The hours come from the floor's service hours per
 * weekday; until a restaurant has them the answer carries null and the page says so plainly.
 */
export function RestaurantAbout({ restaurant }: { restaurant: RestaurantDetail }) {
  const menuLink = safeExternalUrl(restaurant.menu.url);
  const rules = [
    restaurant.houseRules.dressCode ? { term: 'Dress code', value: restaurant.houseRules.dressCode } : null,
    restaurant.houseRules.children ? { term: 'Children', value: childrenLabels[restaurant.houseRules.children] } : null,
    restaurant.houseRules.smoking ? { term: 'Smoking', value: smokingLabels[restaurant.houseRules.smoking] } : null,
  ].filter((rule): rule is { term: string; value: string } => rule !== null);
  return (
    <div className="restaurant-about">
      <section className="restaurant-about__block" aria-labelledby="hours-title" data-testid="opening-hours">
        <h2 id="hours-title" className="restaurant__section-title">
          Opening hours
        </h2>
        {restaurant.openingHours ? (
          <dl className="details-list">
            {restaurant.openingHours.map((day) => (
              <div key={day.weekday}>
                <dt>{WEEKDAYS[day.weekday]}</dt>
                <dd>{day.ranges.length ? day.ranges.map((range) => `${range.opens}–${range.closes}`).join(', ') : 'Closed'}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="restaurant-about__none">Not listed yet. The times you can book are in the booking panel.</p>
        )}
      </section>
      {restaurant.menu.photos.length > 0 || menuLink ? (
        <section className="restaurant-about__block" aria-labelledby="menu-title">
          <h2 id="menu-title" className="restaurant__section-title">
            Menu
          </h2>
          {restaurant.menu.photos.length > 0 ? (
            <ul className="restaurant-about__menu">
              {restaurant.menu.photos.map((page, index) => (
                <li key={page.id}>
                  <a href={largestPhotoUrl(page)} target="_blank" rel="noopener">
                    <PhotoAtWidth photo={page} width={160} alt={page.alt || `Menu, page ${index + 1}`} loading="lazy" decoding="async" />
                    <span className="visually-hidden"> (opens the full page)</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          {menuLink ? (
            <p className="restaurant-about__menu-link">
              <a href={menuLink.href} target="_blank" rel="noopener noreferrer">
                Open the full menu<span aria-hidden="true"> ↗</span>
              </a>
            </p>
          ) : null}
        </section>
      ) : null}
      {rules.length > 0 ? (
        <section className="restaurant-about__block" aria-labelledby="rules-title">
          <h2 id="rules-title" className="restaurant__section-title">
            House rules
          </h2>
          <dl className="details-list">
            {rules.map((rule) => (
              <div key={rule.term}>
                <dt>{rule.term}</dt>
                <dd>{rule.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
    </div>
  );
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
