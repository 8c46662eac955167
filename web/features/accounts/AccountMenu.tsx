import { Link, useLocation } from 'react-router';
import { useDisclosure } from '#web/components/layout/use-disclosure.ts';
import { ButtonLink } from '#web/components/ui/Button.tsx';
import { firstName, useCurrentDiner, useSignOut } from './session.ts';

/**
 * The header's account area: Log in when signed out; when signed in, a menu with the
 * diner's name, My Profile and Sign Out (a disclosure: a button that shows a list).
 */
export function AccountMenu() {
  const { diner, isSignedIn } = useCurrentDiner();
  const signOut = useSignOut();
  const location = useLocation();
  const { open, close, toggle, rootRef, triggerRef, panelId } = useDisclosure();

  if (!isSignedIn) {
    if (location.pathname === '/login') return null;
    return (
      <ButtonLink to="/login" variant="secondary" size="sm" className="account-login">
        Log in
      </ButtonLink>
    );
  }

  const name = firstName(diner);
  return (
    <div className="account-menu" ref={rootRef}>
      <button ref={triggerRef} type="button" className="account-menu__trigger" aria-expanded={open} aria-controls={panelId} onClick={toggle}>
        <span className="account-menu__avatar" aria-hidden="true">
          {name ? name.charAt(0) : '·'}
        </span>
        <span className="account-menu__name">{name || 'Account'}</span>
        <span className="visually-hidden"> · account menu</span>
        <svg className="account-menu__chevron" viewBox="0 0 12 12" aria-hidden="true">
          <path d="M2 4.5 6 8.5 10 4.5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      <div className="account-menu__list" id={panelId} hidden={!open}>
        {diner ? (
          <div className="account-menu__who">
            <strong>{diner.name || diner.username}</strong>@{diner.username}
          </div>
        ) : null}
        <Link className="account-menu__item" to="/me">
          <span className="emoji" aria-hidden="true">
            👤
          </span>{' '}
          My Profile
        </Link>
        <button
          type="button"
          className="account-menu__item"
          onClick={() => {
            close();
            void signOut();
          }}
        >
          <span className="emoji" aria-hidden="true">
            ↩
          </span>{' '}
          Sign Out
        </button>
      </div>
    </div>
  );
}
