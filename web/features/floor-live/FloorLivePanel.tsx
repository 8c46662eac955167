import { useRef, useState, type FormEvent, type RefObject } from 'react';
import type { FloorLive, FloorParty, LiveTable } from '#common/contract/floor-live.ts';
import { tableStateLabels } from '#common/domain/floor-live.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Alert, EmptyState, Skeleton } from '#web/components/ui/Feedback.tsx';
import { NumberField, SelectField, TextField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { AdminPanel } from '#web/features/portal/AdminPanel.tsx';
import { useFloorAction, useFloorLive, type FloorAction } from './api.ts';
import { partyActions, partyLabel, partyStatusText, tableStateText, timelineBox, timeOf } from './floor-live-view.ts';
import './floor-live.css';
import { GuestCard } from '#web/features/guests/GuestCard.tsx';

const WALK_IN_TABLE_ID = 'floor-walk-in-table';
const FAILED = { server: 'That did not work. Try again.', network: 'No connection. Try again when you are back online.' };

/**
 * The host view (decision 245): every table's state now, the selected party's actions, a walk-in
 * form, and the day per table (a timeline on a laptop, a list on a phone). Changes made on another
 * screen arrive through the portal's live stream.
 */
export function FloorLivePanel() {
  const floor = useFloorLive();
  const action = useFloorAction();
  const toast = useToast();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [walkInTable, setWalkInTable] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const selectedRef = useRef<HTMLHeadingElement>(null);

  const data = floor.data;
  const selected = data?.parties.find((party) => party.assignmentId === selectedId) ?? null;

  function run(next: FloorAction, done: string) {
    action.mutate(next, {
      onSuccess: () => {
        setAnnouncement(done);
        toast(done, 'success', { key: 'floor-live' });
      },
      onError: (error) => toast(errorMessage(error, FAILED), 'error', { key: 'floor-live' }),
    });
  }

  function select(party: FloorParty) {
    setSelectedId(party.assignmentId);
    window.requestAnimationFrame(() => selectedRef.current?.focus());
  }

  if (floor.isError && !data) {
    return (
      <Alert tone="error" title="The floor could not be loaded">
        Check your connection; it is tried again every 30 seconds.
      </Alert>
    );
  }
  if (!data) {
    return (
      <AdminPanel className="floor-now" title="Tables now">
        <Skeleton height={120} />
      </AdminPanel>
    );
  }
  if (data.tables.length === 0) {
    return (
      <AdminPanel className="floor-now" title="Tables now">
        <EmptyState title="No tables yet">Add your tables on the Floor tab, then seat your guests here.</EmptyState>
      </AdminPanel>
    );
  }

  const busy = action.isPending;
  const now = new Date(data.now);
  return (
    <div className="floor-live">
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <AdminPanel className="floor-now" title="Tables now" note={`${data.tables.filter((table) => table.state === 'free').length} free`}>
        <ul className="floor-now__tables">
          {data.tables.map((table) => (
            <TableCard
              key={table.id}
              table={table}
              party={data.parties.find((party) => party.assignmentId === table.assignmentId) ?? null}
              onSelect={select}
              onWalkIn={() => {
                setWalkInTable(table.id);
                window.requestAnimationFrame(() => document.getElementById(WALK_IN_TABLE_ID)?.focus());
              }}
            />
          ))}
        </ul>
      </AdminPanel>

      {selected ? (
        <PartyActions
          key={selected.assignmentId}
          party={selected}
          tables={data.tables}
          now={now}
          busy={busy}
          headingRef={selectedRef}
          onAction={run}
          onClose={() => setSelectedId(null)}
        />
      ) : null}

      <WalkInForm tables={data.tables} tableId={walkInTable} onTable={setWalkInTable} busy={busy} onAction={run} />

      <Timeline data={data} now={now} selectedId={selectedId} onSelect={select} />
    </div>
  );
}

function TableCard({
  table,
  party,
  onSelect,
  onWalkIn,
}: {
  table: LiveTable;
  party: FloorParty | null;
  onSelect: (party: FloorParty) => void;
  onWalkIn: () => void;
}) {
  return (
    <li className={`floor-table floor-table--${table.state}`} data-testid="floor-table" data-table={table.name} data-state={table.state}>
      <div className="floor-table__head">
        <span className="floor-table__name">{table.name}</span>
        <span className="floor-table__seats">{table.minCovers === table.maxCovers ? table.maxCovers : `${table.minCovers}–${table.maxCovers}`} seats</span>
      </div>
      <span className={`floor-badge floor-badge--${table.state}`}>{tableStateLabels[table.state]}</span>
      <span className="floor-table__text">{tableStateText(table)}</span>
      <div className="floor-table__actions">
        {party ? (
          <Button size="sm" variant="secondary" onClick={() => onSelect(party)} aria-label={`${partyLabel(party)} at ${table.name}: actions`}>
            {partyLabel(party)}
          </Button>
        ) : null}
        {table.state === 'free' ? (
          <Button size="sm" variant="ghost" onClick={onWalkIn} aria-label={`Walk-in at ${table.name}`}>
            Walk-in
          </Button>
        ) : null}
      </div>
    </li>
  );
}

function PartyActions({
  party,
  tables,
  now,
  busy,
  headingRef,
  onAction,
  onClose,
}: {
  party: FloorParty;
  tables: LiveTable[];
  now: Date;
  busy: boolean;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onAction: (action: FloorAction, done: string) => void;
  onClose: () => void;
}) {
  const [tableId, setTableId] = useState(party.tableIds[0] ?? '');
  const moves = partyActions(party, now);
  const chosen = tables.find((table) => table.id === tableId);
  const atOwnTable = party.tableIds.length > 0 && party.tableIds.includes(tableId);
  const label = partyLabel(party);
  return (
    <section className="admin-panel floor-party" aria-labelledby="floor-party-title" data-testid="floor-party">
      <div className="admin-panel__head">
        <h2 id="floor-party-title" className="admin-panel__title floor-party__title" tabIndex={-1} ref={headingRef}>
          {label}
        </h2>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
      <p className="floor-party__facts">
        {timeOf(party.startsAt)}–{timeOf(party.endsAt)} · {party.tableNames.join(' + ') || 'No table'} · {partyStatusText(party)}
      </p>
      {moves.seat || moves.move ? (
        <SelectField label="Table" value={tableId} onChange={(event) => setTableId(event.target.value)}>
          {tables.map((table) => (
            <option key={table.id} value={table.id}>
              {table.name} ({tableStateLabels[table.state].toLowerCase()})
            </option>
          ))}
        </SelectField>
      ) : null}
      <div className="floor-party__actions">
        {moves.accept ? (
          <Button
            size="sm"
            aria-disabled={busy || undefined}
            onClick={() => !busy && onAction({ kind: 'accept', reservationId: party.reservationId! }, `${label}: accepted.`)}
          >
            Accept
          </Button>
        ) : null}
        {moves.seat ? (
          <Button
            size="sm"
            aria-disabled={busy || undefined}
            onClick={() =>
              !busy &&
              onAction(
                { kind: 'seat', reservationId: party.reservationId!, body: atOwnTable ? {} : { tableIds: [tableId] } },
                `${label}: seated at ${chosen?.name ?? 'the table'}.`,
              )
            }
          >
            Seat at {chosen?.name ?? 'table'}
          </Button>
        ) : null}
        {moves.move && !moves.seat ? (
          <Button
            size="sm"
            variant="secondary"
            aria-disabled={busy || atOwnTable || undefined}
            onClick={() =>
              !busy &&
              !atOwnTable &&
              onAction({ kind: 'move', assignmentId: party.assignmentId, body: { tableIds: [tableId] } }, `${label}: moved to ${chosen?.name}.`)
            }
          >
            Move to {chosen?.name ?? 'table'}
          </Button>
        ) : null}
        {moves.finish ? (
          <Button
            size="sm"
            variant="dark"
            aria-disabled={busy || undefined}
            onClick={() => !busy && onAction({ kind: 'finish', assignmentId: party.assignmentId }, `${label}: finished.`)}
          >
            Finish
          </Button>
        ) : null}
        {moves.noShow ? (
          <Button
            size="sm"
            variant="danger"
            aria-disabled={busy || undefined}
            onClick={() => !busy && onAction({ kind: 'noShow', reservationId: party.reservationId! }, `${label}: marked as a no-show.`)}
          >
            No-show
          </Button>
        ) : null}
      </div>
      {moves.noShowFrom ? <p className="floor-party__hint">No-show can be marked from {moves.noShowFrom}.</p> : null}
      {party.status === 'HELD' ? <p className="floor-party__hint">The diner is still confirming.</p> : null}
      {/* Who is coming (decision 261): a booking's guest card; a walk-in has none. */}
      {party.reservationId ? <GuestCard reservationId={party.reservationId} headingLevel="h3" /> : null}
    </section>
  );
}

function WalkInForm({
  tables,
  tableId,
  onTable,
  busy,
  onAction,
}: {
  tables: LiveTable[];
  tableId: string;
  onTable: (id: string) => void;
  busy: boolean;
  onAction: (action: FloorAction, done: string) => void;
}) {
  const [partySize, setPartySize] = useState('2');
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const free = tables.filter((table) => table.state === 'free');
  const chosen = free.find((table) => table.id === tableId) ?? free[0];
  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !chosen) return;
    const size = Number(partySize);
    onAction(
      {
        kind: 'walkIn',
        body: { tableIds: [chosen.id], partySize: size, ...(name.trim() ? { name: name.trim() } : {}), ...(phone.trim() ? { phone: phone.trim() } : {}) },
      },
      `Walk-in of ${size} seated at ${chosen.name}.`,
    );
    setName('');
    setPhone('');
  }
  return (
    <AdminPanel className="floor-walk-in" title="Seat a walk-in">
      {free.length === 0 ? (
        <p className="floor-party__hint">No table is free right now.</p>
      ) : (
        <form className="floor-walk-in__form" onSubmit={submit}>
          <SelectField label="Free table" value={chosen?.id ?? ''} onChange={(event) => onTable(event.target.value)} id={WALK_IN_TABLE_ID}>
            {free.map((table) => (
              <option key={table.id} value={table.id}>
                {table.name} ({table.maxCovers} seats)
              </option>
            ))}
          </SelectField>
          <NumberField label="Party size" min={1} max={40} required value={partySize} onChange={(event) => setPartySize(event.target.value)} />
          <TextField label="Name (optional)" value={name} maxLength={80} autoComplete="off" onChange={(event) => setName(event.target.value)} />
          <TextField label="Phone (optional)" type="tel" value={phone} maxLength={24} autoComplete="off" onChange={(event) => setPhone(event.target.value)} />
          <Button type="submit" aria-disabled={busy || undefined}>
            Seat walk-in
          </Button>
        </form>
      )}
    </AdminPanel>
  );
}

function Timeline({ data, now, selectedId, onSelect }: { data: FloorLive; now: Date; selectedId: string | null; onSelect: (party: FloorParty) => void }) {
  const opensAt = data.opensAt ?? data.now;
  const closesAt = data.closesAt ?? data.now;
  const nowBox = timelineBox({ startsAt: now.toISOString(), endsAt: now.toISOString() }, opensAt, closesAt);
  return (
    <AdminPanel className="floor-timeline" title="Today, table by table" note={`${timeOf(opensAt)} – ${timeOf(closesAt)}`}>
      <ul className="floor-timeline__tables">
        {data.tables.map((table) => {
          const parties = data.parties.filter((party) => party.tableIds.includes(table.id));
          return (
            <li key={table.id} className="floor-timeline__row">
              <span className="floor-timeline__table">{table.name}</span>
              <div className="floor-timeline__track">
                <span className="floor-timeline__now" ref={(element) => element?.style.setProperty('--start', `${nowBox.left}%`)} aria-hidden="true" />
                {parties.length === 0 ? <span className="floor-timeline__empty">Nothing booked</span> : null}
                <ol className="floor-timeline__parties">
                  {parties.map((party) => {
                    const box = timelineBox(party, opensAt, closesAt);
                    return (
                      <li
                        key={party.assignmentId}
                        className={`floor-timeline__party floor-timeline__party--${party.finishedAt ? 'finished' : party.kind === 'walkIn' ? 'SEATED' : party.status}`}
                        ref={(element) => {
                          element?.style.setProperty('--start', `${box.left}%`);
                          element?.style.setProperty('--width', `${box.width}%`);
                        }}
                      >
                        <button
                          type="button"
                          className="floor-timeline__button"
                          aria-pressed={selectedId === party.assignmentId}
                          onClick={() => onSelect(party)}
                        >
                          <span className="floor-timeline__time">{timeOf(party.startsAt)}</span>{' '}
                          <span className="floor-timeline__who">{partyLabel(party)}</span>{' '}
                          <span className="floor-timeline__status">{partyStatusText(party)}</span>
                        </button>
                      </li>
                    );
                  })}
                </ol>
              </div>
            </li>
          );
        })}
      </ul>
    </AdminPanel>
  );
}
