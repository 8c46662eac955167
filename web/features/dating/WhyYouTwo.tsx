import type { DatingShared } from '#common/contract/dating.ts';
import { eveningWindows } from '#common/domain/dating-match.ts';
import { cuisineChoices, firstDateChoices, labelOf } from '#common/domain/dating-profile.ts';

const DAY_NAMES: Record<string, string> = { MON: 'Mon', TUE: 'Tue', WED: 'Wed', THU: 'Thu', FRI: 'Fri', SAT: 'Sat', SUN: 'Sun' };

/** "FRI_LATE" → "Fri 8–10:30 pm". */
export function eveningLabel(code: string): string {
  const [day, window] = code.split('_');
  return `${DAY_NAMES[day] ?? day} ${eveningWindows.find((candidate) => candidate.value === window)?.label ?? ''}`.trim();
}

/** At most four, then how many more: a week of shared evenings stays one short line. */
function fewOf(values: string[], shown = 4): string[] {
  return values.length <= shown ? values : [...values.slice(0, shown), `${values.length - shown} more`];
}

/** "Why you two" (decision 254): what two members share, one line per kind, nothing when they share nothing. */
export function WhyYouTwo({ shared, headingLevel = 4 }: { shared: DatingShared; headingLevel?: 3 | 4 }) {
  const lines = [
    ['Cuisines', shared.cuisines.map((value) => labelOf(cuisineChoices, value))],
    ['Dates', shared.dateTypes.map((value) => labelOf(firstDateChoices, value))],
    ['Neighbourhoods', shared.neighbourhoods],
    ['Evenings', fewOf(shared.evenings.map(eveningLabel))],
  ].filter(([, values]) => values.length > 0) as [string, string[]][];
  if (lines.length === 0) return null;
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="d-why">
      <Heading className="d-why__title">Why you two</Heading>
      <dl className="d-why__list">
        {lines.map(([label, values]) => (
          <div key={label} className="d-why__row">
            <dt>{label}</dt>
            <dd>{values.join(', ')}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
