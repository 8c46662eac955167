import { isSameFilter, type CategoryOption, type MapFilter } from './map-filters.ts';

/** All, one button per category in the data (emoji + capitalised name), Hot Spots. */
export function MapFilterBar({ categories, value, onChange }: { categories: CategoryOption[]; value: MapFilter; onChange: (filter: MapFilter) => void }) {
  const options: { filter: MapFilter; label: string; emoji?: string }[] = [
    { filter: { kind: 'all' }, label: 'All' },
    ...categories.map((category) => ({ filter: { kind: 'category', category: category.value } as MapFilter, label: category.label, emoji: category.emoji })),
    { filter: { kind: 'hot' }, label: 'Hot Spots', emoji: '🔥' },
  ];
  return (
    <div className="map-filters" role="group" aria-label="Show restaurants">
      {options.map((option) => {
        const pressed = isSameFilter(option.filter, value);
        return (
          <button
            key={option.label}
            type="button"
            className={`pill-toggle map-filter${option.filter.kind === 'hot' ? ' map-filter--hot' : ''}`}
            aria-pressed={pressed}
            onClick={() => onChange(option.filter)}
          >
            {option.emoji ? (
              <span className="emoji" aria-hidden="true">
                {option.emoji}
              </span>
            ) : null}
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
