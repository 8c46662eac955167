import { useState } from 'react';
import type { RestaurantDetail } from '#common/contract/restaurants.ts';
import { COVER_SIZES } from '#common/domain/restaurant-profile.ts';
import { HeroImage } from './HeroImage.tsx';

/**
 * The restaurant's photos (decision 234): the chosen one large (the cover first, fetched at once,
 * the size the screen needs), the others as thumbnails to pick from, loaded as they scroll in.
 * Without photos, the hero image as before.
 */
export function RestaurantGallery({ restaurant, className }: { restaurant: RestaurantDetail; className?: string }) {
  const [chosen, setChosen] = useState(0);
  // A cover that does not load (offline, a deleted file) gives way to the hero image and its drawn placeholder.
  const [coverFailed, setCoverFailed] = useState(false);
  const photos = restaurant.photos;
  if (photos.length === 0 || coverFailed) return <HeroImage restaurant={restaurant} className={className} />;
  const photo = photos[Math.min(chosen, photos.length - 1)]!;
  return (
    <section className={['restaurant-gallery', className].filter(Boolean).join(' ')} aria-label={`Photos of ${restaurant.name}`}>
      <div className="restaurant-gallery__main">
        <img
          key={photo.id}
          src={photo.src}
          srcSet={photo.srcSet}
          sizes={COVER_SIZES}
          width={photo.width}
          height={photo.height}
          alt={photo.alt || `${restaurant.name}, photo ${chosen + 1} of ${photos.length}`}
          fetchPriority={chosen === 0 ? 'high' : 'auto'}
          decoding={chosen === 0 ? 'sync' : 'async'}
          onError={() => setCoverFailed(true)}
        />
        {photos.length > 1 ? (
          <span className="restaurant-gallery__count" aria-hidden="true">
            {chosen + 1} / {photos.length}
          </span>
        ) : null}
      </div>
      {photos.length > 1 ? (
        <ul className="restaurant-gallery__thumbs">
          {photos.map((thumb, index) => (
            <li key={thumb.id}>
              <button
                type="button"
                className="restaurant-gallery__thumb"
                aria-pressed={index === chosen}
                aria-label={`Show photo ${index + 1} of ${photos.length}${thumb.alt ? `: ${thumb.alt}` : ''}`}
                onClick={() => setChosen(index)}
              >
                <img
                  src={thumb.srcSet.split(', ')[0]!.split(' ')[0]}
                  width={120}
                  height={Math.round((thumb.height * 120) / thumb.width)}
                  alt=""
                  loading="lazy"
                  decoding="async"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
