import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import '#web/components/ui/ui.css';
import './dating.css';

/** Two seats at one table: the dating section's mark, plum and rose. */
export function DatingMark() {
  return (
    <svg className="dating-brand__mark" viewBox="0 0 64 64" aria-hidden="true">
      <rect width="64" height="64" rx="16" fill="var(--color-plum)" />
      <circle cx="25" cy="32" r="12" fill="none" stroke="var(--color-rose)" strokeWidth="5" />
      <circle cx="39" cy="32" r="12" fill="none" stroke="var(--color-dating-bg)" strokeWidth="5" />
    </svg>
  );
}

/** The dating header: its own brand (so people see they moved to the other product) and the actions. */
export function DatingHeader({ children }: { children?: ReactNode }) {
  return (
    <header className="dating-header">
      <div className="dating-header__inner">
        <Link to="/dating" className="dating-brand">
          <DatingMark />
          <span className="dating-brand__name">Tablefair</span> <span className="dating-brand__tag">Dating</span>
        </Link>
        <nav className="dating-header__end" aria-label="Account">
          {children}
        </nav>
      </div>
    </header>
  );
}

/** A header link to log in or sign up: ghost beside another action, primary where it is the one to take. */
export function DatingAuthLink({ to, primary = false }: { to: 'login' | 'signup'; primary?: boolean }) {
  return (
    <Link to={`/dating/${to}`} className={`btn ${primary ? 'd-btn--primary' : 'd-btn--ghost'}`}>
      {to === 'login' ? 'Log in' : 'Sign up'}
    </Link>
  );
}

export function DatingFooter({ isMember = false }: { isMember?: boolean }) {
  return (
    <footer className="dating-footer">
      <div className="dating-footer__inner">
        <p>
          <strong>Tablefair Dating</strong> · Real dates in Bengaluru. Neighborhood-first, with privacy and respect.
        </p>
        <nav className="dating-footer__links" aria-label="Footer">
          <Link to="/dating">Dating home</Link>
          {isMember ? (
            <Link to="/dating/app">Your profile</Link>
          ) : (
            <>
              <Link to="/dating/login">Log in</Link>
              <Link to="/dating/signup">Sign up</Link>
            </>
          )}
          <Link to="/">Tablefair reservations</Link>
        </nav>
      </div>
    </footer>
  );
}

/** The dating section's frame: skip link, header, main landmark, footer, on the plum-and-rose theme. */
export function DatingPage({
  title,
  header,
  children,
  isMember = false,
  className,
}: {
  /** The tab's title: each dating page has its own. */
  title: string;
  header?: ReactNode;
  children: ReactNode;
  isMember?: boolean;
  className?: string;
}) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <div className={['dating', className].filter(Boolean).join(' ')}>
      <a className="skip-link" href="#dating-main">
        Skip to content
      </a>
      <DatingHeader>{header}</DatingHeader>
      <main id="dating-main" className="dating-main">
        {children}
      </main>
      <DatingFooter isMember={isMember} />
    </div>
  );
}
