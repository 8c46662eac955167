import { useRef, type KeyboardEvent } from 'react';
import type { AdminRestaurant } from '#common/contract/portal.ts';
import { BackOfficeHeader } from '#web/components/layout/BackOfficeHeader.tsx';

export type AdminTab = 'dashboard' | 'drops' | 'deposits' | 'profile';
export const ADMIN_TABS: { id: AdminTab; label: string }[] = [
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'drops', label: 'Drops' },
  { id: 'deposits', label: 'Deposits' },
  { id: 'profile', label: 'Profile' },
];
const TABS = ADMIN_TABS;

/** Restaurant name, 'Restaurant Admin', the Dashboard/Drops/Profile switch (Drops: decision 045), the Live dot and Logout. */
export function AdminHeader({
  restaurant,
  tab,
  onTab,
  connected,
  onLogout,
}: {
  restaurant: AdminRestaurant;
  tab: AdminTab;
  onTab: (tab: AdminTab) => void;
  connected: boolean;
  onLogout: () => void;
}) {
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = TABS.findIndex((t) => t.id === tab);
    let next = index;
    if (event.key === 'ArrowRight') next = (index + 1) % TABS.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + TABS.length) % TABS.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = TABS.length - 1;
    else return;
    event.preventDefault();
    onTab(TABS[next].id);
    tabRefs.current[next]?.focus();
  }

  return (
    <BackOfficeHeader
      title={
        <>
          <span className="emoji" aria-hidden="true">
            {restaurant.emoji}
          </span>{' '}
          {restaurant.name}
        </>
      }
      role="Restaurant Admin"
      tabs={
        <div className="admin-tabs" role="tablist" aria-label="Admin sections" onKeyDown={onKeyDown}>
          {TABS.map((item, index) => (
            <button
              key={item.id}
              ref={(element) => {
                tabRefs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`admin-tab-${item.id}`}
              aria-selected={tab === item.id}
              aria-controls={`admin-panel-${item.id}`}
              tabIndex={tab === item.id ? 0 : -1}
              className="admin-tabs__tab"
              onClick={() => onTab(item.id)}
            >
              {item.label}
            </button>
          ))}
        </div>
      }
      status={
        <span
          className={`live-indicator${connected ? ' live-indicator--on' : ''}`}
          title={connected ? 'Bookings appear here as diners book' : 'Reconnecting; the page still refreshes every 30 seconds'}
        >
          <span className="live-indicator__dot" aria-hidden="true" />
          Live
          <span className="visually-hidden">{connected ? ': bookings appear as diners book' : ': reconnecting, refreshing every 30 seconds'}</span>
        </span>
      }
      onLogout={onLogout}
    />
  );
}
