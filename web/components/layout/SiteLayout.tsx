import type { ReactNode } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { useDisclosure } from './use-disclosure.ts';
import './layout.css';

export function BrandMark() {
  return (
    <svg className="brand__mark" viewBox="0 0 64 64" aria-hidden="true">
      <rect width="64" height="64" rx="14" fill="var(--color-ink)" />
      <circle cx="32" cy="32" r="17" fill="none" stroke="var(--color-accent)" strokeWidth="5" />
      <circle cx="32" cy="32" r="7" fill="var(--color-accent)" />
    </svg>
  );
}

const SECTIONS = [
  { to: '/explore-tonight', label: 'Tonight' },
  { to: '/map', label: 'Map' },
  { to: '/drops', label: 'Drops' },
  { to: '/dating', label: 'Dating' },
];

/** On phones the sections fold into a menu: a button that shows them; a tap on a link closes it. */
function MobileNav() {
  const { open, close, toggle, rootRef, triggerRef, panelId } = useDisclosure();
  return (
    <div className="mobile-nav" ref={rootRef}>
      <button ref={triggerRef} type="button" className="mobile-nav__toggle" aria-expanded={open} aria-controls={panelId} onClick={toggle}>
        <svg viewBox="0 0 20 20" aria-hidden="true">
          <path d="M3 5.5h14M3 10h14M3 14.5h14" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
        <span className="visually-hidden">Menu</span>
      </button>
      <nav
        id={panelId}
        className="mobile-nav__panel"
        aria-label="Main"
        hidden={!open}
        onClick={(event) => (event.target as HTMLElement).closest('a') && close()}
      >
        {SECTIONS.map((section) => (
          <NavLink key={section.to} to={section.to}>
            {section.label}
          </NavLink>
        ))}
      </nav>
    </div>
  );
}

/** The brand, linking home (site header, map). */
export function BrandLink({ className }: { className: string }) {
  return (
    <Link to="/" className={className} aria-label="Tablefair home">
      <BrandMark />
      <span>Tablefair</span>
    </Link>
  );
}

/** Header with the brand, the main sections, and a slot for the account area. */
export function SiteHeader({ end }: { end?: ReactNode }) {
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <BrandLink className="brand" />
        <nav className="site-nav" aria-label="Main">
          {SECTIONS.map((section) => (
            <NavLink key={section.to} to={section.to}>
              {section.label}
            </NavLink>
          ))}
        </nav>
        <div className="site-header__end">
          {end}
          <MobileNav />
        </div>
      </div>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <div>
          <strong>Tablefair</strong> · Fair tables in Bengaluru. No bots, no resale.
        </div>
        <nav className="site-footer__links" aria-label="Footer">
          <Link to="/map">Map</Link>
          <Link to="/dating">Dating</Link>
          <Link to="/restaurant-login">Restaurant sign-in</Link>
        </nav>
      </div>
    </footer>
  );
}

/** The diner product's frame: skip link, header, main landmark, footer. */
export function SiteLayout({ headerEnd }: { headerEnd?: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader end={headerEnd} />
      <main id="main" className="site-main">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}
