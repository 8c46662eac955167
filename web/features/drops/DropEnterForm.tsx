import { useState } from 'react';
import type { DropDetail } from '#common/contract/drops.ts';
import { formatInstantKolkata as formatInstant } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { SelectField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useEnterDrop } from './api.ts';
import { PhoneVerification } from './PhoneVerification.tsx';
import { DROP_FALLBACKS } from './rules.ts';

/** Entering a drop: when it opens, phone verification first, then the party size. */
export function DropEnterForm({ drop }: { drop: DropDetail }) {
  const enter = useEnterDrop(drop.id);
  const [partySize, setPartySize] = useState(Math.min(2, drop.capacity));
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();

  if (drop.phase === 'upcoming')
    return (
      <p className="drop__note">Entries open {formatInstant(drop.entryOpensAt)}. Come back then — entering early or late in the window makes no difference.</p>
    );
  if (drop.phase !== 'open') return <p className="drop__note">Entries are closed for this drop.</p>;
  if (drop.phoneVerified === false) {
    return <PhoneVerification intro="Drops are for people, not scripts: verify your phone once to enter. One phone enters once per drop." />;
  }

  async function onEnter() {
    setError(null);
    try {
      await enter.mutateAsync(partySize);
      toast('You are in the draw. We will tell you the result here and by email.', 'success');
    } catch (caught) {
      setError(errorMessage(caught, DROP_FALLBACKS));
    }
  }

  const sizes = Array.from({ length: Math.min(drop.capacity, 20) }, (_, index) => index + 1);
  return (
    <div className="drop__enter">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <SelectField label="Party size" value={partySize} onChange={(event) => setPartySize(Number(event.target.value))}>
        {sizes.map((size) => (
          <option key={size} value={size}>
            {size} {size === 1 ? 'guest' : 'guests'}
          </option>
        ))}
      </SelectField>
      <Button block onClick={() => void onEnter()} disabled={enter.isPending}>
        {enter.isPending ? 'Entering…' : 'Enter the drop'}
      </Button>
      <p className="drop__fine">One entry per account and per phone. The draw is random and recorded; you can check it afterwards.</p>
    </div>
  );
}
