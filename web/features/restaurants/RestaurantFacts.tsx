import type { PublicRestaurant } from '#common/contract/restaurants.ts';
import { capitalise, emojiForCategory } from '#common/domain/restaurants.ts';
import { HotMark } from './HotMark.tsx';

/** Name, neighbourhood, Hot chip, cuisine tags and description. */
export function RestaurantIntro({ restaurant }: { restaurant: PublicRestaurant }) {
  return (
    <div className="restaurant__intro">
      <div className="restaurant__title-row">
        <span className="restaurant__emoji emoji" aria-hidden="true">
          {restaurant.emoji}
        </span>
        <div>
          <h1 className="restaurant__name">{restaurant.name}</h1>
          <p className="restaurant__meta">
            <span>{restaurant.neighborhood}</span>
            {restaurant.hot ? <HotMark className="chip chip--hot" /> : null}
          </p>
        </div>
      </div>
      {restaurant.cuisineTags.length > 0 ? (
        <ul className="restaurant__tags" aria-label="Cuisine">
          {restaurant.cuisineTags.map((tag) => (
            <li key={tag} className="chip">
              {tag}
            </li>
          ))}
        </ul>
      ) : null}
      {restaurant.description ? <p className="restaurant__description">{restaurant.description}</p> : null}
    </div>
  );
}

/** Category, neighbourhood, website and Instagram, links only as http(s). */
export function RestaurantDetails({ restaurant }: { restaurant: PublicRestaurant }) {
  const website = safeExternalUrl(restaurant.website);
  const instagram = safeExternalUrl(restaurant.instagramUrl);
  return (
    <section className="restaurant__details" aria-labelledby="details-title">
      <h2 id="details-title" className="restaurant__section-title">
        Details
      </h2>
      <dl className="details-list">
        <div>
          <dt>Category</dt>
          <dd>
            <span className="emoji" aria-hidden="true">
              {emojiForCategory(restaurant.category)}
            </span>{' '}
            {capitalise(restaurant.category || 'restaurant')}
          </dd>
        </div>
        <div>
          <dt>Neighborhood</dt>
          <dd>{restaurant.neighborhood}</dd>
        </div>
        <div>
          <dt>Website</dt>
          <dd>
            {website ? (
              <a href={website.href} target="_blank" rel="noopener noreferrer">
                {website.label}
              </a>
            ) : (
              <span className="details-list__none">Not listed</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Instagram</dt>
          <dd>
            {instagram ? (
              <a href={instagram.href} target="_blank" rel="noopener noreferrer">
                {instagramHandle(instagram)}
              </a>
            ) : (
              <span className="details-list__none">Not listed</span>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** Links from the restaurant's profile open only as http(s), never javascript: or data:. */
export function safeExternalUrl(value: string | null): { href: string; label: string; url: URL } | null {
  if (!value) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return { href: url.href, label: url.host.replace(/^www\./, '') + url.pathname.replace(/\/$/, ''), url };
  } catch {
    return null;
  }
}

function instagramHandle(link: { label: string; url: URL }): string {
  const handle = link.url.pathname.split('/').filter(Boolean)[0];
  return handle && /instagram\.com$/.test(link.url.host) ? `@${handle}` : link.label;
}
