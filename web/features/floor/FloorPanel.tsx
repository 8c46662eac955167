import { useState } from 'react';
import type { AdminFloor, FloorSettingsBody } from '#common/contract/floor.ts';
import { bookingIntervals, floorSectionLabels, floorSections, weekdays, type FloorSection, type Shift } from '#common/domain/floor.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Alert, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { AdminPanel } from '#web/features/portal/AdminPanel.tsx';
import { useFloor, useSaveFloorSettings, useSaveTables } from './floor-api.ts';
import { fieldNumber, ListEditor, type ListField } from './ListEditor.tsx';
import './floor.css';

const FAILED = { server: 'The floor could not be saved. Try again.', network: 'Could not reach the server. Check your connection and try again.' };

interface TableDraft {
  key: string;
  id?: string;
  name: string;
  section: FloorSection;
  minCovers: number;
  maxCovers: number;
  onlineBookable: boolean;
}
interface CombinationDraft {
  key: string;
  tables: string;
  minCovers: number;
  maxCovers: number;
}

const TABLE_FIELDS: ListField<TableDraft>[] = [
  { kind: 'text', field: 'name', label: 'Name', maxLength: 40 },
  { kind: 'select', field: 'section', label: 'Section', options: floorSections.map((section) => ({ value: section, label: floorSectionLabels[section] })) },
  { kind: 'number', field: 'minCovers', label: 'Min', max: 40 },
  { kind: 'number', field: 'maxCovers', label: 'Max', max: 40 },
  { kind: 'check', field: 'onlineBookable', label: 'Online' },
];
const COMBINATION_FIELDS: ListField<CombinationDraft>[] = [
  { kind: 'text', field: 'tables', label: 'Tables' },
  { kind: 'number', field: 'minCovers', label: 'Min', max: 80 },
  { kind: 'number', field: 'maxCovers', label: 'Max', max: 80 },
];

let draftCount = 0;
const nextKey = () => `draft-${++draftCount}`;

/** The Floor tab (decision 240): tables by section, which tables join, service hours, turn times and pacing. */
export function FloorPanel() {
  const floor = useFloor();
  if (floor.isPending) {
    return (
      <AdminPanel className="floor-tables" title="Tables">
        <Skeleton height={160} radius="var(--radius-md)" />
      </AdminPanel>
    );
  }
  if (floor.isError) {
    return (
      <AdminPanel className="floor-tables" title="Tables">
        <Alert tone="error">Your floor could not be loaded. It will be tried again in a moment.</Alert>
      </AdminPanel>
    );
  }
  return (
    <>
      <TablesEditor key={`tables-${JSON.stringify(floor.data.tables)}-${JSON.stringify(floor.data.combinations)}`} floor={floor.data} />
      <SettingsEditor key={`settings-${JSON.stringify(floor.data.settings)}`} settings={floor.data.settings} />
    </>
  );
}

function TablesEditor({ floor }: { floor: AdminFloor }) {
  const save = useSaveTables();
  const toast = useToast();
  const [tables, setTables] = useState<TableDraft[]>(() => floor.tables.map((table) => ({ ...table, key: table.id })));
  const [combinations, setCombinations] = useState<CombinationDraft[]>(() =>
    floor.combinations.map((combination) => ({
      key: combination.id,
      tables: combination.tableNames.join(' + '),
      minCovers: combination.minCovers,
      maxCovers: combination.maxCovers,
    })),
  );
  /** The table just added: its name field takes the focus, wherever its section puts it. */
  const [added, setAdded] = useState<string | null>(null);
  const change = (key: string, patch: Partial<TableDraft>) => setTables((all) => all.map((table) => (table.key === key ? { ...table, ...patch } : table)));
  const changeCombination = (key: string, patch: Partial<CombinationDraft>) =>
    setCombinations((all) => all.map((combination) => (combination.key === key ? { ...combination, ...patch } : combination)));
  const seats = tables.reduce((sum, table) => sum + (table.onlineBookable ? table.maxCovers : 0), 0);

  function onSave() {
    save.mutate(
      {
        tables: tables.map(({ id, name, section, minCovers, maxCovers, onlineBookable }) => ({
          ...(id ? { id } : {}),
          name,
          section,
          minCovers,
          maxCovers,
          onlineBookable,
        })),
        combinations: combinations.map((combination) => ({
          tableNames: combination.tables
            .split('+')
            .map((name) => name.trim())
            .filter(Boolean),
          minCovers: combination.minCovers,
          maxCovers: combination.maxCovers,
        })),
      },
      {
        onSuccess: () => toast('Your floor is saved. Diners are offered what your tables seat.', 'success', { key: 'floor' }),
        onError: (error) => toast(errorMessage(error, FAILED), 'error', { key: 'floor' }),
      },
    );
  }

  return (
    <>
      <AdminPanel className="floor-tables" title="Tables" count={tables.length} note={`${seats} seats online`}>
        {tables.length === 0 ? (
          <p className="floor-empty">No tables yet: diners are offered your slots’ covers. Add your tables so each party is given one that seats it.</p>
        ) : null}
        {floorSections.map((section) => {
          const inSection = tables.filter((table) => table.section === section);
          if (inSection.length === 0) return null;
          return (
            <div key={section} className="floor-section">
              <h3 className="floor-section__title">{floorSectionLabels[section]}</h3>
              <ListEditor
                rows={inSection}
                fields={TABLE_FIELDS}
                onChange={change}
                onRemove={(key) => setTables((all) => all.filter((other) => other.key !== key))}
                removeLabel={(table) => `Remove table ${table.name}`}
                focusKey={added}
              />
            </div>
          );
        })}
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            const key = nextKey();
            setAdded(key);
            setTables((all) => [...all, { key, name: `T${all.length + 1}`, section: 'indoor', minCovers: 1, maxCovers: 2, onlineBookable: true }]);
          }}
        >
          Add a table
        </Button>
      </AdminPanel>

      <AdminPanel className="floor-combinations" title="Tables that join" count={combinations.length}>
        <p className="floor-hint">
          Name the tables with a + between them (T8 + T9). A party is given the table or joined tables with the fewest seats that seat it, a single table first.
        </p>
        <ListEditor
          rows={combinations}
          fields={COMBINATION_FIELDS}
          onChange={changeCombination}
          onRemove={(key) => setCombinations((all) => all.filter((other) => other.key !== key))}
          removeLabel={(_combination, index) => `Remove joined tables ${index + 1}`}
        />
        <div className="floor-actions">
          <Button variant="secondary" size="sm" onClick={() => setCombinations((all) => [...all, { key: nextKey(), tables: '', minCovers: 3, maxCovers: 4 }])}>
            Add joined tables
          </Button>
          <Button onClick={onSave} disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save tables'}
          </Button>
        </div>
      </AdminPanel>
    </>
  );
}

function SettingsEditor({ settings }: { settings: FloorSettingsBody }) {
  const save = useSaveFloorSettings();
  const toast = useToast();
  const [draft, setDraft] = useState<FloorSettingsBody>(settings);
  const setShift = (day: number, name: Shift['name'], patch: Partial<Shift> | null) =>
    setDraft((current) => {
      const shifts = current.shifts.map((dayShifts, index) => {
        if (index !== day) return dayShifts;
        const others = dayShifts.filter((shift) => shift.name !== name);
        if (patch === null) return others;
        const existing =
          dayShifts.find((shift) => shift.name === name) ??
          (name === 'lunch' ? { name, start: '12:00', end: '15:00' } : { name, start: '18:00', end: '22:30' });
        return [...others, { ...existing, ...patch }].sort((a, b) => a.start.localeCompare(b.start));
      });
      return { ...current, shifts };
    });

  function onSave() {
    save.mutate(draft, {
      onSuccess: () => toast('Service hours, turn times and pacing are saved.', 'success', { key: 'floor-settings' }),
      onError: (error) => toast(errorMessage(error, FAILED), 'error', { key: 'floor-settings' }),
    });
  }

  return (
    <AdminPanel className="floor-settings" title="Service hours, turns and pacing">
      <fieldset className="floor-fieldset">
        <legend>Shifts</legend>
        <ul className="floor-rows">
          {weekdays.map((weekday, day) => (
            <li key={weekday} className="floor-row floor-row--day">
              <span className="floor-day">{weekday}</span>
              {(['lunch', 'dinner'] as const).map((name) => {
                const shift = draft.shifts[day]?.find((entry) => entry.name === name);
                return (
                  <span key={name} className="floor-shift">
                    <label className="floor-cell floor-cell--check">
                      <input type="checkbox" checked={Boolean(shift)} onChange={(event) => setShift(day, name, event.target.checked ? {} : null)} />
                      <span>{name === 'lunch' ? 'Lunch' : 'Dinner'}</span>
                    </label>
                    {shift ? (
                      <>
                        <input
                          type="time"
                          aria-label={`${weekday} ${name} from`}
                          value={shift.start}
                          onChange={(event) => setShift(day, name, { start: event.target.value })}
                        />
                        <input
                          type="time"
                          aria-label={`${weekday} ${name} until`}
                          value={shift.end}
                          onChange={(event) => setShift(day, name, { end: event.target.value })}
                        />
                      </>
                    ) : null}
                  </span>
                );
              })}
            </li>
          ))}
        </ul>
        <label className="floor-cell">
          <span>A booking every</span>
          <select value={draft.intervalMinutes} onChange={(event) => setDraft({ ...draft, intervalMinutes: Number(event.target.value) })}>
            {bookingIntervals.map((minutes) => (
              <option key={minutes} value={minutes}>
                {minutes} minutes
              </option>
            ))}
          </select>
        </label>
      </fieldset>

      <fieldset className="floor-fieldset">
        <legend>Turn times</legend>
        <ul className="floor-rows">
          {draft.turns.map((band, index) => (
            <li key={band.fromPartySize} className="floor-row">
              <span className="floor-band">
                {band.fromPartySize}
                {index + 1 < draft.turns.length ? `–${draft.turns[index + 1].fromPartySize - 1}` : '+'} guests
              </span>
              <label className="floor-cell floor-cell--number">
                <span>Minutes</span>
                <input
                  type="number"
                  inputMode="numeric"
                  min={30}
                  max={360}
                  step={5}
                  value={band.minutes}
                  onChange={(event) =>
                    setDraft({
                      ...draft,
                      turns: draft.turns.map((other, at) => (at === index ? { ...other, minutes: fieldNumber(event.target.value) } : other)),
                    })
                  }
                />
              </label>
            </li>
          ))}
        </ul>
      </fieldset>

      <fieldset className="floor-fieldset">
        <legend>Pacing in any 15 minutes</legend>
        <div className="floor-row">
          <PacingLimit
            label="Most covers"
            value={draft.pacing.maxCovers}
            onChange={(maxCovers) => setDraft({ ...draft, pacing: { ...draft.pacing, maxCovers } })}
          />
          <PacingLimit
            label="Most parties"
            value={draft.pacing.maxParties}
            onChange={(maxParties) => setDraft({ ...draft, pacing: { ...draft.pacing, maxParties } })}
          />
        </div>
      </fieldset>
      <div className="floor-actions">
        <Button onClick={onSave} disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save service hours'}
        </Button>
      </div>
    </AdminPanel>
  );
}

/** One pacing cap: an empty box means no limit, which is saved as null rather than 0. */
function PacingLimit({ label, value, onChange }: { label: string; value: number | null; onChange: (value: number | null) => void }) {
  return (
    <label className="floor-cell floor-cell--number">
      <span>{label}</span>
      <input
        type="number"
        inputMode="numeric"
        min={1}
        placeholder="No limit"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
      />
    </label>
  );
}
