import { useState } from 'react';
import type { RestaurantDetail } from '#common/contract/restaurants.ts';
import { COVER_SIZES } from '#common/domain/restaurant-profile.ts';
import { PhotoAtWidth } from '#web/components/ui/PhotoAtWidth.tsx';
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
  // A hero photo the staff set themselves leads the gallery: the portal says it is live on this page at once.
  const hasOwnHero = restaurant.heroImageUrl !== photos[0]!.src && !isAppHeroImage(restaurant);
  const slides = hasOwnHero ? photos.length + 1 : photos.length;
  const index = Math.min(chosen, slides - 1);
  const photo = hasOwnHero ? (index === 0 ? null : photos[index - 1]!) : photos[index]!;
  return (
    <section className={['restaurant-gallery', className].filter(Boolean).join(' ')} aria-label={`Photos of ${restaurant.name}`}>
      <div className="restaurant-gallery__main">
        {photo ? (
          <img
            key={photo.id}
            src={photo.src}
            srcSet={photo.srcSet}
            sizes={COVER_SIZES}
            width={photo.width}
            height={photo.height}
            alt={photo.alt || `${restaurant.name}, photo ${index + 1} of ${slides}`}
            fetchPriority={index === 0 ? 'high' : 'auto'}
            decoding={index === 0 ? 'sync' : 'async'}
            onError={() => setCoverFailed(true)}
          />
        ) : (
          <HeroImage restaurant={restaurant} />
        )}
        {slides > 1 ? (
          <span className="restaurant-gallery__count" aria-hidden="true">
            {index + 1} / {slides}
          </span>
        ) : null}
      </div>
      {slides > 1 ? (
        <ul className="restaurant-gallery__thumbs">
          {hasOwnHero ? (
            <li>
              <button
                type="button"
                className="restaurant-gallery__thumb"
                aria-pressed={index === 0}
                aria-label={`Show photo 1 of ${slides}`}
                onClick={() => setChosen(0)}
              >
                <img src={restaurant.heroImageUrl} width={120} height={63} alt="" loading="lazy" decoding="async" />
              </button>
            </li>
          ) : null}
          {photos.map((thumb, photoIndex) => {
            const slide = hasOwnHero ? photoIndex + 1 : photoIndex;
            return (
              <li key={thumb.id}>
                <button
                  type="button"
                  className="restaurant-gallery__thumb"
                  aria-pressed={slide === index}
                  aria-label={`Show photo ${slide + 1} of ${slides}${thumb.alt ? `: ${thumb.alt}` : ''}`}
                  onClick={() => setChosen(slide)}
                >
                  <PhotoAtWidth photo={thumb} width={120} alt="" loading="lazy" decoding="async" />
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}

/** The app's own drawn hero (no photo of the staff's): its endpoint without a version. */
function isAppHeroImage(restaurant: RestaurantDetail): boolean {
  return restaurant.heroImageUrl === `/api/restaurant/${encodeURIComponent(restaurant.id)}/hero-image`;
}
