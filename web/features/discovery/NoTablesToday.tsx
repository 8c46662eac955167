import { ButtonLink } from '#web/components/ui/Button.tsx';
import { EmptyState } from '#web/components/ui/Feedback.tsx';

/**
 * Nothing free in the next 24 hours (spec section 8: 'No availability today'). The home page's
 * Today Near You strip and Explore Tonight read the same answer, so they say it the same way. The
 * strip also shows it when its fetch failed (spec section 8), so it does not claim every table is taken.
 */
export function NoTablesToday() {
  return (
    <EmptyState icon="🌙" title="No availability today">
      <p>Tables free up through the evening. Pick another day on a restaurant’s page, or browse the map.</p>
      <ButtonLink to="/map" variant="secondary">
        Browse the map
      </ButtonLink>
    </EmptyState>
  );
}
