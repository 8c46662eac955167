import { useEffect, useState } from 'react';
import type { DropDetail, DropDrawAudit } from '#common/contract/drops.ts';
import { formatInstantKolkata as formatInstant } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Alert, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useDrawAudit } from './api.ts';
import { DROP_FALLBACKS, drawCheckSummary, verifyDraw } from './rules.ts';

/** "Check the draw": the seed, the algorithm and where the diner's entry fell, read when opened and checked in the browser. */
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
          <DrawCheck audit={audit.data} />
          <p>
            The order was drawn with <code>{audit.data.algorithm}</code> from this seed, whose SHA-256 was published before anyone could enter. Anyone can
            recompute it with <code>drawOrder(seed, entryIds)</code> and compare.
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

/** The check, recomputed here with WebCrypto: the seed against its commitment, the order against drawOrder. */
function DrawCheck({ audit }: { audit: DropDrawAudit }) {
  const [summary, setSummary] = useState<{ text: string; ok: boolean } | null>(null);
  useEffect(() => {
    let current = true;
    verifyDraw(audit)
      .then((check) => current && setSummary(drawCheckSummary(check, audit.committedAt)))
      .catch(() => current && setSummary({ text: 'This browser could not recompute the draw.', ok: false }));
    return () => {
      current = false;
    };
  }, [audit]);
  return (
    <p className={summary && !summary.ok ? 'drop__check drop__check--bad' : 'drop__check'} data-testid="draw-check" role="status">
      {summary ? summary.text : 'Checking the draw in your browser…'}
    </p>
  );
}

/**
 * When the seed was fixed, on the same IST clock as the drop's window: "before entries opened"
 * only when it was (a drop created while its entries were already open says when it was made).
 */
export function sealedWords(drop: { committedAt: string | null; entryOpensAt: string }): string {
  if (!drop.committedAt) return 'The draw’s secret seed was fixed when the drop was created, before anyone could enter.';
  const before = Date.parse(drop.committedAt) <= Date.parse(drop.entryOpensAt);
  return `The draw’s secret seed was fixed on ${formatInstant(drop.committedAt)}, ${before ? 'before entries opened' : 'when the drop was created, before the entries closed'}.`;
}

/** Before the draw: the seed's fingerprint, public since the drop was created, and the entry list fixed at the close. */
export function DrawCommitment({
  drop,
}: {
  drop: Pick<DropDetail, 'seedCommitment' | 'committedAt' | 'entryOpensAt' | 'entriesClosedAt' | 'closedEntryCount' | 'entriesHash'>;
}) {
  if (!drop.seedCommitment) return null;
  return (
    <details className="drop__audit">
      <summary>How the draw is kept honest</summary>
      <div className="drop__audit-body">
        <p>{sealedWords(drop)} Its SHA-256 is public now; the seed itself is revealed after the draw, so you can check it was not changed.</p>
        <p className="drop__seed">
          SHA-256 of the seed <code data-testid="seed-commitment">{drop.seedCommitment}</code>
        </p>
        {drop.entriesClosedAt && drop.entriesHash ? (
          <p className="drop__seed">
            Entries fixed {formatInstant(drop.entriesClosedAt)}: {(drop.closedEntryCount ?? 0).toLocaleString('en-IN')} entries, SHA-256 of the sorted ids{' '}
            <code>{drop.entriesHash}</code>
          </p>
        ) : null}
      </div>
    </details>
  );
}
