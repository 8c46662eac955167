import { useEffect } from 'react';
import { ComingSoon } from '#web/components/layout/ComingSoon.tsx';

/** /drops/{id}: placeholder until timed drops land (spec section 2). */
export default function DropDetailScreen() {
  useEffect(() => {
    document.title = 'Drop · Tablefair';
  }, []);
  return (
    <ComingSoon icon="🎟️" eyebrow="Drop" title="Join the queue in the drop window" back={{ to: '/drops', label: 'All drops' }}>
      <p>When this drop opens, join the queue during its window. Everyone who joins in time has the same chance, and the tables are shared out fairly when the window closes.</p>
    </ComingSoon>
  );
}
