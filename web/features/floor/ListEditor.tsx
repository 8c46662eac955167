import { Button } from '#web/components/ui/Button.tsx';

/** One editable column of a row: its field, its label, and the control that edits it. */
export type ListField<Row> =
  | { kind: 'text'; field: keyof Row & string; label: string; maxLength?: number }
  | { kind: 'number'; field: keyof Row & string; label: string; max: number }
  | { kind: 'select'; field: keyof Row & string; label: string; options: readonly { value: string; label: string }[] }
  | { kind: 'check'; field: keyof Row & string; label: string };

interface ListEditorProps<Row extends { key: string }> {
  rows: readonly Row[];
  fields: readonly ListField<Row>[];
  onChange: (key: string, patch: Partial<Row>) => void;
  onRemove: (key: string) => void;
  /** The Remove button's accessible name for a row (its position among `rows` is given too). */
  removeLabel: (row: Row, index: number) => string;
  /** The row whose first field takes the focus (one just added). */
  focusKey?: string | null;
}

/** A number field's value as typed; an emptied field reads 0, which the floor's contract refuses where 0 is not allowed ("must be at least 1"). */
export const fieldNumber = (value: string) => (value === '' ? 0 : Number(value));

/**
 * Rows of labelled fields with a Remove button each, as the Floor tab's tables and joined tables are
 * edited (decision 240): the caller keeps the rows and says which fields they have.
 */
export function ListEditor<Row extends { key: string }>({ rows, fields, onChange, onRemove, removeLabel, focusKey }: ListEditorProps<Row>) {
  const patch = (row: Row, field: keyof Row & string, value: unknown) => onChange(row.key, { [field]: value } as Partial<Row>);
  return (
    <ul className="floor-rows">
      {rows.map((row, index) => (
        <li key={row.key} className="floor-row">
          {fields.map((spec, position) => {
            const value = row[spec.field];
            if (spec.kind === 'check') {
              return (
                <label key={spec.field} className="floor-cell floor-cell--check">
                  <input type="checkbox" checked={Boolean(value)} onChange={(event) => patch(row, spec.field, event.target.checked)} />
                  <span>{spec.label}</span>
                </label>
              );
            }
            const cellClass = spec.kind === 'number' ? 'floor-cell floor-cell--number' : spec.kind === 'text' ? 'floor-cell floor-cell--name' : 'floor-cell';
            return (
              <label key={spec.field} className={cellClass}>
                <span>{spec.label}</span>
                {spec.kind === 'select' ? (
                  <select value={String(value)} onChange={(event) => patch(row, spec.field, event.target.value)}>
                    {spec.options.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                ) : spec.kind === 'number' ? (
                  <input
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={spec.max}
                    value={Number(value)}
                    onChange={(event) => patch(row, spec.field, fieldNumber(event.target.value))}
                  />
                ) : (
                  <input
                    value={String(value)}
                    maxLength={spec.maxLength}
                    autoFocus={position === 0 && row.key === focusKey}
                    onChange={(event) => patch(row, spec.field, event.target.value)}
                  />
                )}
              </label>
            );
          })}
          <Button variant="ghost" size="sm" aria-label={removeLabel(row, index)} onClick={() => onRemove(row.key)}>
            Remove
          </Button>
        </li>
      ))}
    </ul>
  );
}
