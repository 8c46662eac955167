import type { AdminDropEntry } from '#common/contract/drops.ts';
import type { TimedDropDetail } from './drops-api.ts';
import { entryResultView, formatInstant, formatPhone } from './drops-format.ts';
import { AdminPanel } from './AdminPanel.tsx';

function EntryRow({ entry }: { entry: AdminDropEntry }) {
  const result = entryResultView(entry.result);
  return (
    <li className="drop-entry" data-testid="drop-entry" data-entry-id={entry.id} data-state={entry.result.state}>
      <span className="drop-entry__position">
        <span className="visually-hidden">Position </span>
        {entry.position === null ? (
          <>
            <span aria-hidden="true">—</span>
            <span className="visually-hidden">not drawn yet</span>
          </>
        ) : (
          `#${entry.position}`
        )}
      </span>
      <div className="drop-entry__who">
        <span className="drop-entry__name">{entry.diner.name}</span>
        <span className="drop-entry__contact">
          <span>@{entry.diner.username}</span>
          <a href={`tel:${entry.diner.phone}`}>{formatPhone(entry.diner.phone)}</a>
        </span>
      </div>
      <span className="drop-entry__party">
        {entry.partySize} {entry.partySize === 1 ? 'guest' : 'guests'}
      </span>
      <span className="drop-entry__at">
        <span className="drop-entry__at-key">Entered </span>
        {formatInstant(entry.enteredAt)}
      </span>
      <span className="drop-entry__result">
        <span className={`portal-drop-result portal-drop-result--${result.tone}`}>{result.label}</span>
        <span className="drop-entry__detail">{result.detail}</span>
      </span>
    </li>
  );
}

/** The drop's entries in the diner's name, in drawn order once drawn. */
export function DropEntriesPanel({ drop }: { drop: TimedDropDetail }) {
  const drawn = drop.drawnAt !== null;
  return (
    <AdminPanel
      className="drop-entries"
      heading="h3"
      title="Entries"
      count={drop.entryCount}
      note={drawn ? 'In drawn order' : 'In the order they entered; the draw decides the line'}
    >
      {drop.entries.length === 0 ? (
        <p className="bookings__empty drop-entries__empty">
          {drop.phase === 'upcoming'
            ? `No entries yet. Diners can enter from ${formatInstant(drop.entryOpensAt)}.`
            : drop.phase === 'open'
              ? 'No entries yet. Diners enter from the drop’s public page; new entries appear here within seconds.'
              : 'Nobody entered this drop.'}
        </p>
      ) : (
        <>
          <div className="drop-entry drop-entry--head" aria-hidden="true">
            <span>#</span>
            <span>Diner</span>
            <span>Party</span>
            <span>Entered</span>
            <span>Result</span>
          </div>
          <ol className="drop-entries__list">
            {drop.entries.map((entry) => (
              <EntryRow key={entry.id} entry={entry} />
            ))}
          </ol>
        </>
      )}
    </AdminPanel>
  );
}
