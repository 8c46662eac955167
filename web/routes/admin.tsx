import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError, apiRequest, readToken, writeToken } from '#web/api/client.ts';
import { Spinner } from '#web/components/ui/Feedback.tsx';
import { ADMIN_TABS, AdminHeader, type AdminTab } from '#web/features/portal/AdminHeader.tsx';
import { adminKeys, useAdminRestaurant } from '#web/features/portal/api.ts';
import { Dashboard } from '#web/features/portal/Dashboard.tsx';
import { DatePartnerPanel } from '#web/features/portal/DatePartnerPanel.tsx';
import { DepositsPanel } from '#web/features/portal/DepositsPanel.tsx';
import { DropsPanel } from '#web/features/portal/DropsPanel.tsx';
import { FloorPanel } from '#web/features/floor/FloorPanel.tsx';
import { useLiveUpdates } from '#web/features/portal/live.ts';
import { ProfilePanel } from '#web/features/portal/ProfilePanel.tsx';
import '#web/components/layout/backoffice.css';
import '#web/features/portal/portal.css';

const LOGIN_PATH = '/restaurant-login';

/** The tab named in the address (?tab=drops, ?tab=profile); the Dashboard otherwise. */
function tabOf(value: string | null): AdminTab {
  return ADMIN_TABS.find((item) => item.id === value)?.id ?? 'dashboard';
}

/** /admin/{restaurantId}: the restaurant's live dashboard, drops and profile (spec section 2, Restaurant admin; drops: decision 045). */
export default function AdminScreen() {
  const hasToken = Boolean(readToken('restaurant'));
  if (!hasToken) return <Navigate to={LOGIN_PATH} replace />;
  return <SignedInAdmin />;
}

function SignedInAdmin() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { restaurantId } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = tabOf(searchParams.get('tab'));
  const restaurant = useAdminRestaurant();

  const leave = useCallback(
    (revoke: boolean) => {
      if (revoke) void apiRequest('/api/auth/logout', { method: 'POST', auth: 'restaurant' }).catch(() => undefined);
      writeToken('restaurant', null);
      queryClient.removeQueries({ queryKey: adminKeys.all });
      navigate(LOGIN_PATH, { replace: true });
    },
    [navigate, queryClient],
  );

  const { connected } = useLiveUpdates({ onUnauthorized: () => leave(false) });

  // Loading the restaurant failed: back to sign-in (an expired token is forgotten).
  useEffect(() => {
    if (!restaurant.isError) return;
    if (restaurant.error instanceof ApiError && restaurant.error.status === 401) writeToken('restaurant', null);
    queryClient.removeQueries({ queryKey: adminKeys.all });
    navigate(LOGIN_PATH, { replace: true });
  }, [restaurant.isError, restaurant.error, navigate, queryClient]);

  // The server decides which restaurant the token belongs to; the address follows it.
  useEffect(() => {
    if (restaurant.data && restaurantId !== restaurant.data.id) {
      navigate(`/admin/${restaurant.data.id}${window.location.search}`, { replace: true });
    }
  }, [restaurant.data, restaurantId, navigate]);

  useEffect(() => {
    document.title = restaurant.data ? `${restaurant.data.name} · Restaurant Admin · Tablefair` : 'Restaurant Admin · Tablefair';
  }, [restaurant.data]);

  const setTab = useCallback(
    (next: AdminTab) => setSearchParams(next === 'dashboard' ? {} : { tab: next }, { replace: true, preventScrollReset: true }),
    [setSearchParams],
  );

  if (!restaurant.data) {
    return (
      <main className="admin-loading" id="main">
        <Spinner label="Loading your restaurant…" />
      </main>
    );
  }

  return (
    <div className="admin">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AdminHeader restaurant={restaurant.data} tab={tab} onTab={setTab} connected={connected} onLogout={() => leave(true)} />
      <main id="main" className="admin-main">
        <div id="admin-panel-dashboard" role="tabpanel" aria-labelledby="admin-tab-dashboard" hidden={tab !== 'dashboard'}>
          {tab === 'dashboard' ? <Dashboard /> : null}
        </div>
        <div id="admin-panel-floor" role="tabpanel" aria-labelledby="admin-tab-floor" hidden={tab !== 'floor'}>
          {tab === 'floor' ? <FloorPanel /> : null}
        </div>
        <div id="admin-panel-drops" role="tabpanel" aria-labelledby="admin-tab-drops" hidden={tab !== 'drops'}>
          {tab === 'drops' ? <DropsPanel /> : null}
        </div>
        <div id="admin-panel-deposits" role="tabpanel" aria-labelledby="admin-tab-deposits" hidden={tab !== 'deposits'}>
          {tab === 'deposits' ? <DepositsPanel /> : null}
        </div>
        <div id="admin-panel-profile" role="tabpanel" aria-labelledby="admin-tab-profile" hidden={tab !== 'profile'}>
          {tab === 'profile' ? (
            <>
              <ProfilePanel key={restaurant.data.id} restaurant={restaurant.data} onSaved={() => setTab('dashboard')} />
              <DatePartnerPanel />
            </>
          ) : null}
        </div>
      </main>
    </div>
  );
}
