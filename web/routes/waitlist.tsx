import { useEffect } from 'react';
import { ComingSoon } from '#web/components/layout/ComingSoon.tsx';

/** /waitlist: placeholder until the waitlist lands. */
export default function WaitlistScreen() {
  useEffect(() => {
    document.title = 'Waitlist · Tablefair';
  }, []);
  return (
    <ComingSoon icon="🔔" eyebrow="Waitlist" title="The waitlist is coming soon">
      <p>Soon you’ll be able to join the waitlist for a full evening and hear the moment a table frees up — first come, first served, with no bots in line.</p>
    </ComingSoon>
  );
}
