import { useEffect, useRef, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import './layout.css';

/** How long a new page may take to show its h1 (a skeleton first, then the content) before its title is announced instead. */
const HEADING_WAIT_MS = 4000;

/**
 * Tells a screen reader that a new page has opened: once the new page shows its h1, focus moves
 * there (tabIndex -1, without scrolling, so Back still lands where the diner was); a page with no
 * h1 has its title announced in a polite live region. Only a new path counts: a changed query
 * (a filter, a tab) is the same page. The first page of a visit is left alone.
 */
function PageAnnouncer() {
  const { pathname } = useLocation();
  const isFirstPage = useRef(true);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (isFirstPage.current) {
      isFirstPage.current = false;
      return;
    }
    const focusedAtStart = document.activeElement;
    const startedAt = performance.now();
    let frame = 0;
    const announce = () => {
      // The diner (or the page itself) has moved focus meanwhile: leave it there.
      const active = document.activeElement;
      if (active !== focusedAtStart && active !== document.body && active !== null) return;
      const heading = document.querySelector<HTMLElement>('h1');
      if (heading) {
        setAnnouncement('');
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
        return;
      }
      if (performance.now() - startedAt > HEADING_WAIT_MS) {
        setAnnouncement(document.title);
        return;
      }
      frame = requestAnimationFrame(announce);
    };
    frame = requestAnimationFrame(announce);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);

  return (
    <p className="visually-hidden" aria-live="polite" aria-atomic="true">
      {announcement}
    </p>
  );
}

/**
 * What the root shows while the first page's own chunk loads (the server has already asked for it
 * with a modulepreload): nothing, as before, but said out loud so React Router knows it is meant.
 */
export function FirstPageLoading() {
  return null;
}

/**
 * The root of every route (the diner's site, the map, the staff portal, dating): a new page opens
 * at its top and Back/Forward return to where the diner was (ScrollRestoration), and the new page
 * is announced.
 */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
      <PageAnnouncer />
    </>
  );
}
