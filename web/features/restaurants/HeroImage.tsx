import { useState } from 'react';

/**
 * The restaurant's hero picture. If its address fails, the app's own hero-image
 * endpoint is tried, then a drawn placeholder with the emoji (spec section 8).
 */
export function HeroImage({ restaurant, className }: { restaurant: { id: string; name: string; emoji: string; heroImageUrl: string }; className?: string }) {
  const fallback = `/api/restaurant/${encodeURIComponent(restaurant.id)}/hero-image`;
  const sources = restaurant.heroImageUrl && restaurant.heroImageUrl !== fallback ? [restaurant.heroImageUrl, fallback] : [fallback];
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState(false);

  if (attempt >= sources.length) {
    return (
      <div className={['hero-image', 'hero-image--placeholder', className].filter(Boolean).join(' ')} role="img" aria-label={`${restaurant.name}`}>
        <span className="emoji" aria-hidden="true">
          {restaurant.emoji}
        </span>
      </div>
    );
  }
  return (
    <div className={['hero-image', loaded ? 'hero-image--loaded' : '', className].filter(Boolean).join(' ')}>
      <img
        key={sources[attempt]}
        src={sources[attempt]}
        alt={`${restaurant.name}`}
        width={1200}
        height={630}
        decoding="async"
        fetchPriority="high"
        onLoad={() => setLoaded(true)}
        onError={() => {
          setLoaded(false);
          setAttempt((value) => value + 1);
        }}
      />
    </div>
  );
}
