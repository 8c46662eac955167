import { useEffect } from 'react';
import { ComingSoon } from '#web/components/layout/ComingSoon.tsx';

/** /drops: placeholder until timed drops land (spec section 2). */
export default function DropsScreen() {
  useEffect(() => {
    document.title = 'Drops · Tablefair';
  }, []);
  return (
    <ComingSoon icon="⏱️" eyebrow="Drops" title="Citywide drops will appear here">
      <p>The city’s most wanted tables will be released here at set times, for everyone at once. Join the queue in the drop window and a fair draw decides — not the fastest script.</p>
    </ComingSoon>
  );
}
