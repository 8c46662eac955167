import { useNavigate } from 'react-router';
import { BrandMark } from '#web/components/layout/SiteLayout.tsx';
import { StaffSignInForm, type Credentials } from '#web/features/accounts/StaffSignInForm.tsx';
import { logInModerator, MODERATION_PATH } from '#web/features/moderation/api.ts';
import '#web/components/layout/backoffice.css';
import '#web/features/moderation/moderation.css';

/** The demo's moderator (server/db/seed/moderator.ts). */
const DEMO_MODERATOR = { username: 'moderator', password: 'moderate1234' };

/** /moderation/login: Tablefair staff sign in to the moderation list; on success, /moderation. */
export default function ModerationLoginScreen() {
  const navigate = useNavigate();
  async function signIn(credentials: Credentials) {
    await logInModerator(credentials);
    navigate(MODERATION_PATH);
  }

  return (
    <main id="main" className="moderation-login">
      <div className="moderation-login__inner">
        <div className="moderation-login__brand">
          <BrandMark />
          <span>Tablefair</span>
        </div>
        <p className="staff-login__eyebrow">For Tablefair staff</p>
        <h1>Moderator sign-in</h1>
        <p className="staff-login__lede">Review what dating members report about each other: dismiss a report, or suspend a member.</p>
        <StaffSignInForm title="Moderator sign-in · Tablefair" toastKey="moderator-login" signIn={signIn} demo={DEMO_MODERATOR} />
      </div>
    </main>
  );
}
