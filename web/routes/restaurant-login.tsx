import { Link, useNavigate } from 'react-router';
import type { StaffLoginResponse } from '#common/contract/accounts.ts';
import { apiRequest, writeToken } from '#web/api/client.ts';
import { StaffSignInForm, type Credentials } from '#web/features/accounts/StaffSignInForm.tsx';
import '#web/components/layout/backoffice.css';

/** One of the seeded staff accounts (username = the restaurant's slug). */
const DEMO_STAFF = { username: 'toit-tandoor', password: 'staff1234', restaurant: 'Toit & Tandoor' };

/** /restaurant/login and /restaurant-login: staff sign-in; on success, /admin/{restaurantId}. */
export default function RestaurantLoginScreen() {
  const navigate = useNavigate();
  async function signIn(credentials: Credentials) {
    const { token, restaurantId } = await apiRequest<StaffLoginResponse>('/api/auth/restaurant-login', { method: 'POST', body: credentials });
    writeToken('restaurant', token);
    navigate(`/admin/${restaurantId}`);
  }

  return (
    <div className="container container--narrow page staff-login">
      <p className="staff-login__eyebrow">For restaurants</p>
      <h1>Restaurant sign-in</h1>
      <p className="staff-login__lede">Manage tonight’s bookings, open or close times and keep your public page up to date.</p>
      <StaffSignInForm
        title="Restaurant sign-in · Tablefair"
        toastKey="staff-login"
        signIn={signIn}
        demo={DEMO_STAFF}
        forgotPath="/restaurant-login/forgot"
        demoIntro={
          <p>
            Try the portal as <strong>{DEMO_STAFF.restaurant}</strong>:
          </p>
        }
      />
      <p className="staff-login__diner">
        Booking a table? <Link to="/login">Diner sign-in</Link>
      </p>
    </div>
  );
}
