import { useState } from 'react';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { fetchDrawAudit, type TimedDropDetail } from './drops-api.ts';
import { formatInstant } from './drops-format.ts';
import { AdminPanel } from './AdminPanel.tsx';

type AuditCheck = { state: 'idle' } | { state: 'checking' } | { state: 'done'; matches: boolean; count: number } | { state: 'failed'; message: string };

/** The draw's seed, how to audit it, and a check that recomputes the order in this browser. */
export function DropDrawPanel({ drop }: { drop: TimedDropDetail }) {
  const [check, setCheck] = useState<AuditCheck>({ state: 'idle' });
  const [copied, setCopied] = useState(false);
  const auditPath = `/api/drops/${drop.id}/draw`;

  async function runCheck() {
    setCheck({ state: 'checking' });
    try {
      const [audit, { drawOrder }] = await Promise.all([fetchDrawAudit(drop.id), import('#common/domain/draw.ts')]);
      // The entry ids as the portal lists them, not the audit's own list: two sources, one order.
      const recomputed = await drawOrder(
        audit.seed,
        drop.entries.map((entry) => entry.id),
      );
      const byPosition = [...drop.entries]
        .filter((entry) => entry.position !== null)
        .sort((a, b) => a.position! - b.position!)
        .map((entry) => entry.id);
      const matches = audit.seed === drop.seed && recomputed.join() === audit.order.join() && byPosition.join() === audit.order.join();
      setCheck({ state: 'done', matches, count: audit.order.length });
    } catch (error) {
      setCheck({
        state: 'failed',
        message: errorMessage(error, { server: 'The draw could not be read.', network: 'No connection: the draw could not be read.' }),
      });
    }
  }

  async function copySeed() {
    if (!drop.seed) return;
    try {
      await navigator.clipboard.writeText(drop.seed);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }

  return (
    <AdminPanel className="drop-draw" heading="h3" title="The draw" note={drop.drawnAt ? formatInstant(drop.drawnAt) : null}>
      {drop.seed ? (
        <>
          <p className="drop-draw__label" id="drop-seed-label">
            Seed
          </p>
          <div className="drop-draw__seed-row">
            <code className="drop-draw__seed" aria-labelledby="drop-seed-label" data-testid="drop-seed">
              {drop.seed}
            </code>
            <Button variant="secondary" size="sm" onClick={copySeed} className="drop-draw__copy">
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
          <p className="drop-draw__note">
            To audit, anyone can read{' '}
            <a href={auditPath} target="_blank" rel="noopener">
              GET {auditPath}
            </a>
            : the seed, the algorithm and every entry id in drawn order. Running <code>drawOrder(seed, entryIds)</code> (common/domain/draw.ts) on the same ids
            gives the same order.
          </p>
          <div className="drop-draw__check">
            <Button variant="secondary" size="sm" onClick={runCheck} disabled={check.state === 'checking'}>
              {check.state === 'checking' ? 'Checking…' : 'Check the draw in this browser'}
            </Button>
            <p className="drop-draw__result" role="status">
              {check.state === 'done'
                ? check.matches
                  ? `✓ Recomputed from the seed: the ${check.count} ${check.count === 1 ? 'entry is' : 'entries are'} in exactly the published order.`
                  : '✗ The recomputed order differs from the published one. Please report this to Tablefair.'
                : check.state === 'failed'
                  ? check.message
                  : ''}
            </p>
          </div>
        </>
      ) : (
        <p className="drop-draw__note">
          The draw runs at the release, {formatInstant(drop.releaseAt)}. Its seed is made at that moment, so nobody (staff included) can know the order
          beforehand. It will appear here, and at <code>GET {auditPath}</code> for anyone to check.
        </p>
      )}
    </AdminPanel>
  );
}
