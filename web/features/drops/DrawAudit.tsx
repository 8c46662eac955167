import { useState } from 'react';
import { formatInstantKolkata as formatInstant } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Alert, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useDrawAudit } from './api.ts';
import { DROP_FALLBACKS } from './rules.ts';

/** "Check the draw": the seed, the algorithm and where the diner's entry fell, read when opened. */
export function DrawAudit({ dropId, myEntryId }: { dropId: string; myEntryId: string | null }) {
  const [open, setOpen] = useState(false);
  const audit = useDrawAudit(dropId, open);
  return (
    <details className="drop__audit" onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
      <summary>Check the draw</summary>
      {audit.isPending ? (
        <Skeleton height={60} />
      ) : audit.isError ? (
        <Alert tone="error">{errorMessage(audit.error, DROP_FALLBACKS)}</Alert>
      ) : (
        <div className="drop__audit-body">
          <p>
            The order was drawn with <code>{audit.data.algorithm}</code> from this seed, recorded before anyone knew the result. Anyone can recompute it with{' '}
            <code>drawOrder(seed, entryIds)</code> and compare.
          </p>
          <p className="drop__seed">
            Seed <code>{audit.data.seed}</code>
          </p>
          <p>
            {audit.data.order.length.toLocaleString('en-IN')} entries drawn {formatInstant(audit.data.drawnAt)}.
            {myEntryId && audit.data.order.includes(myEntryId) ? ` Your entry is number ${audit.data.order.indexOf(myEntryId) + 1}.` : ''}
          </p>
          <a href={`/api/drops/${encodeURIComponent(dropId)}/draw`} target="_blank" rel="noreferrer">
            The full order (JSON)
          </a>
        </div>
      )}
    </details>
  );
}
