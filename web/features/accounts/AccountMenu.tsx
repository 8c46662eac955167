import { Link } from 'react-router';
import { ButtonLink } from '#web/components/ui/Button.tsx';
import { useCurrentDiner } from './session.ts';

/** The header's account area: Log in when signed out, the diner's name and profile link when signed in. */
export function AccountMenu() {
  const { diner, isSignedIn } = useCurrentDiner();
  if (!isSignedIn) {
    return (
      <ButtonLink to="/login" variant="secondary" size="sm">
        Log in
      </ButtonLink>
    );
  }
  return (
    <Link to="/me" className="btn btn--ghost btn--sm" aria-label="My Profile">
      <span aria-hidden="true">👤</span> {diner?.name ?? 'Profile'}
    </Link>
  );
}
