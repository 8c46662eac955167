import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
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
  // The menu remembers the page it was opened on, so it is closed on any other page.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location.pathname;
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const listId = useId();

  // Close on a click elsewhere and on Escape (focus goes back to the button).
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpenOn(null);
        trigger.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

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
    <div className="account-menu" ref={root}>
      <button
        ref={trigger}
        type="button"
        className="account-menu__trigger"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpenOn(open ? null : location.pathname)}
      >
        <span className="account-menu__avatar" aria-hidden="true">
          {name ? name.charAt(0) : '·'}
        </span>
        <span className="account-menu__name">{name || 'Account'}</span>
        <span className="visually-hidden"> · account menu</span>
        <svg className="account-menu__chevron" viewBox="0 0 12 12" aria-hidden="true">
          <path d="M2 4.5 6 8.5 10 4.5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      <div className="account-menu__list" id={listId} hidden={!open}>
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
            setOpenOn(null);
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
