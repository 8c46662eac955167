import { costBands, type CostBand } from '#common/domain/restaurant-profile.ts';
import type { MapRefinements } from './map-filters.ts';

/** Pure veg, and cost for two (decision 233): on top of the category, for the map and its list alike. */
export function MapRefinementBar({ value, onChange }: { value: MapRefinements; onChange: (next: MapRefinements) => void }) {
  const setCost = (cost: CostBand | null) => onChange({ ...value, cost });
  return (
    <div className="map-filters map-refine" role="group" aria-label="Narrow down">
      <button
        type="button"
        className="pill-toggle map-filter map-filter--veg"
        aria-pressed={value.pureVeg}
        onClick={() => onChange({ ...value, pureVeg: !value.pureVeg })}
        data-testid="filter-pure-veg"
      >
        <span className="map-veg-mark" aria-hidden="true" />
        Pure veg
      </button>
      <span className="map-refine__label" id="cost-for-two-label">
        Cost for two
      </span>
      <span className="map-refine__group" role="group" aria-labelledby="cost-for-two-label">
        <button type="button" className="pill-toggle map-filter" aria-pressed={value.cost === null} onClick={() => setCost(null)}>
          Any
        </button>
        {costBands.map((band) => (
          <button
            key={band.id}
            type="button"
            className="pill-toggle map-filter"
            aria-pressed={value.cost === band.id}
            onClick={() => setCost(value.cost === band.id ? null : band.id)}
            data-testid={`filter-cost-${band.id}`}
          >
            {band.label}
          </button>
        ))}
      </span>
    </div>
  );
}
