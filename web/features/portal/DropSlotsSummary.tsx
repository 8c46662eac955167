import { useLayoutEffect, useRef, useState } from 'react';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import type { TimedDropDetail } from './drops-api.ts';
import { groupDropSlots } from './drops-format.ts';
import { AdminPanel } from './AdminPanel.tsx';

/** The drop's slots by day with their covers booked; long drops scroll inside the panel. */
export function DropSlotsSummary({ drop }: { drop: TimedDropDetail }) {
  const days = groupDropSlots(drop.slots);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element) setScrolls(element.scrollHeight > element.clientHeight + 1);
  }, [days.length, drop.slots.length]);
  const hidden = drop.phase === 'upcoming' || drop.phase === 'open' || drop.phase === 'closed';
  return (
    <AdminPanel className="drop-slots" heading="h3" title="Slots" count={drop.slotCount} note={hidden ? 'Hidden until the release' : 'Offered down the line'}>
      {/* Long drops scroll inside the panel; then the region takes the focus so the keyboard can scroll it too. */}
      <div className="drop-slots__scroll" ref={scrollRef} tabIndex={scrolls ? 0 : undefined} role="region" aria-labelledby="drop-slots-title">
        <ul className="drop-slots__days">
          {days.map((day) => (
            <li key={day.date} className="drop-slots__day">
              <span className="drop-slots__date">{formatDateShort(day.date)}</span>
              <ul className="drop-slots__times">
                {day.slots.map((slot) => {
                  const share = Math.min(100, Math.round((slot.coversBooked / Math.max(1, slot.capacity)) * 100));
                  return (
                    <li key={slot.id} className="drop-slot" data-testid="drop-slot">
                      <span className="drop-slot__time">{formatTime12h(slot.time)}</span>
                      <span className="drop-slot__covers">
                        {slot.coversBooked}/{slot.capacity}
                        <span className="visually-hidden"> covers booked</span>
                      </span>
                      <span className="drop-slot__bar" aria-hidden="true">
                        <span className="drop-slot__fill" style={{ width: `${share}%` }} />
                      </span>
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
        </ul>
      </div>
    </AdminPanel>
  );
}
