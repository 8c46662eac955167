import type { AdminRestaurant } from '#common/contract/portal.ts';
import { BackOfficeHeader } from '#web/components/layout/BackOfficeHeader.tsx';
import { useTabKeys } from '#web/components/ui/use-tab-keys.ts';

export type AdminTab = 'dashboard' | 'floor' | 'drops' | 'deposits' | 'profile';
export const ADMIN_TABS: { id: AdminTab; label: string }[] = [
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'floor', label: 'Floor' },
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
  const { tabRefs, onKeyDown } = useTabKeys(
    TABS.map((item) => item.id),
    tab,
    onTab,
  );

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
