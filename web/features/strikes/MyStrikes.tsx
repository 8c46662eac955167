import { useState, type FormEvent } from 'react';
import { disputeStrikeBody, type MyStrike } from '#common/contract/strikes.ts';
import { formatDateShort, formatInstantKolkata, formatTime12h } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { TextAreaField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useDisputeStrike, useMyStrikes } from './api.ts';
import './strikes.css';

const disputeWords: Record<NonNullable<MyStrike['dispute']>['status'], string> = {
  open: 'Disputed: the restaurant will decide',
  upheld: 'Dispute upheld: this strike was removed',
  rejected: 'Dispute rejected by the restaurant',
};

/** /me: the diner's no-show strikes, any block, and a dispute form for each strike still open to one. Hidden when there are none. */
export function MyStrikes() {
  const strikes = useMyStrikes();
  if (!strikes.data || strikes.data.strikes.length === 0) return null;
  const { blockMessage, limit, windowDays } = strikes.data;
  return (
    <section className="my-strikes card card--padded" aria-labelledby="my-strikes-title">
      <h2 id="my-strikes-title">No-shows</h2>
      {blockMessage ? (
        <p className="my-strikes__block" role="status">
          {blockMessage}
        </p>
      ) : (
        <p className="my-strikes__note">
          {limit} no-shows in {windowDays} days pause new bookings. You can dispute a no-show for 14 days.
        </p>
      )}
      <ul className="my-strikes__list">
        {strikes.data.strikes.map((strike) => (
          <StrikeItem key={strike.id} strike={strike} />
        ))}
      </ul>
    </section>
  );
}

function StrikeItem({ strike }: { strike: MyStrike }) {
  const toast = useToast();
  const dispute = useDisputeStrike();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = disputeStrikeBody.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0].message.replace(/^reason:?\s*/, '').replace(/^./, (first) => first.toUpperCase()));
      return;
    }
    setError(null);
    try {
      await dispute.mutateAsync({ id: strike.id, reason: parsed.data.reason });
      toast('Dispute sent to the restaurant', 'success', { key: 'dispute' });
      setOpen(false);
    } catch (failure) {
      toast(
        errorMessage(failure, { server: 'Could not send the dispute', network: 'Could not reach the server. Check your connection and try again.' }),
        'error',
        {
          key: 'dispute',
        },
      );
    }
  }

  return (
    <li className="my-strike">
      <p className="my-strike__what">
        <strong>
          {strike.restaurant.emoji} {strike.restaurant.name}
        </strong>{' '}
        · {formatDateShort(strike.slot.date)}, {formatTime12h(strike.slot.time)}
        {strike.counts ? null : <span className="my-strike__removed"> · no longer counts</span>}
      </p>
      {strike.dispute ? (
        <p className="my-strike__dispute">
          {disputeWords[strike.dispute.status]}
          {/* React escapes the reason as typed. */}
          <span className="my-strike__reason">“{strike.dispute.reason}”</span>
        </p>
      ) : null}
      {strike.canDispute && !open ? (
        <Button type="button" variant="secondary" onClick={() => setOpen(true)}>
          Dispute this no-show
        </Button>
      ) : null}
      {strike.canDispute && open ? (
        <form className="my-strike__form" onSubmit={onSubmit} noValidate>
          <TextAreaField
            label="What happened?"
            hint={`Open until ${formatInstantKolkata(strike.disputeUntil)}`}
            value={reason}
            maxLength={1000}
            rows={3}
            onChange={(event) => setReason(event.target.value)}
            error={error}
          />
          <div className="my-strike__actions">
            <Button type="submit" disabled={dispute.isPending}>
              {dispute.isPending ? 'Sending…' : 'Send dispute'}
            </Button>
            <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
              Not now
            </Button>
          </div>
        </form>
      ) : null}
    </li>
  );
}
