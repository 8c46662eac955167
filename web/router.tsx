import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { FirstPageLoading, RootLayout } from './components/layout/RootLayout.tsx';
import { SiteLayout } from './components/layout/SiteLayout.tsx';
import { AccountMenu } from './features/accounts/AccountMenu.tsx';
import { RouteError } from './routes/route-error.tsx';

/** Each screen is its own lazily loaded chunk, one file per route, so a screen's code loads only when it is opened. */
function screen(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

/**
 * One root for every page (the diner's site, the map, the staff portal, dating): scroll
 * restoration, the new page's announcement, and the fallback while the first page's chunk loads.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <FirstPageLoading />,
    errorElement: <RouteError />,
    children: [
      {
        element: <SiteLayout headerEnd={<AccountMenu />} />,
        errorElement: <RouteError />,
        children: [
          { path: '/', ...screen(() => import('./routes/home.tsx')) },
          { path: '/login', ...screen(() => import('./routes/login.tsx')) },
          { path: '/login/forgot', ...screen(() => import('./routes/forgot-password.tsx')) },
          { path: '/confirm-email', ...screen(() => import('./routes/confirm-email.tsx')) },
          { path: '/signup', ...screen(() => import('./routes/signup.tsx')) },
          { path: '/me', ...screen(() => import('./routes/me.tsx')) },
          { path: '/profile', ...screen(() => import('./routes/me.tsx')) },
          { path: '/r/:slug', ...screen(() => import('./routes/restaurant.tsx')) },
          { path: '/restaurant/:id', ...screen(() => import('./routes/restaurant.tsx')) },
          { path: '/r/:slug/hold/:reservationId', ...screen(() => import('./routes/hold.tsx')) },
          { path: '/hold/:id', ...screen(() => import('./routes/hold.tsx')) },
          { path: '/drops', ...screen(() => import('./routes/drops.tsx')) },
          { path: '/drops/:id', ...screen(() => import('./routes/drop-detail.tsx')) },
          { path: '/waitlist', ...screen(() => import('./routes/waitlist.tsx')) },
          { path: '/dev/mailbox', ...screen(() => import('./routes/dev-mailbox.tsx')) },
          { path: '/reminder/:token', ...screen(() => import('./routes/reminder-link.tsx')) },
          { path: '/explore-tonight', ...screen(() => import('./routes/explore-tonight.tsx')) },
          { path: '/restaurant/login', ...screen(() => import('./routes/restaurant-login.tsx')) },
          { path: '/restaurant-login', ...screen(() => import('./routes/restaurant-login.tsx')) },
          { path: '/restaurant-login/forgot', ...screen(() => import('./routes/restaurant-forgot-password.tsx')) },
          { path: '*', ...screen(() => import('./routes/not-found.tsx')) },
        ],
      },
      // The sandbox gateway's page: a stand-in for the bank's, so it has none of the site's chrome.
      { path: '/pay/sandbox/:id', errorElement: <RouteError />, ...screen(() => import('./routes/pay-sandbox.tsx')) },
      { path: '/map', errorElement: <RouteError />, ...screen(() => import('./routes/map.tsx')) },
      { path: '/admin/:restaurantId/brief', errorElement: <RouteError />, ...screen(() => import('./routes/admin-brief.tsx')) },
      { path: '/admin/:restaurantId', errorElement: <RouteError />, ...screen(() => import('./routes/admin.tsx')) },
      // Tablefair's own moderators (decision 185): the moderation list of reported dating members.
      { path: '/moderation/login', errorElement: <RouteError />, ...screen(() => import('./routes/moderation-login.tsx')) },
      { path: '/moderation', errorElement: <RouteError />, ...screen(() => import('./routes/moderation.tsx')) },
      { path: '/dating', errorElement: <RouteError />, ...screen(() => import('./routes/dating-landing.tsx')) },
      { path: '/dating/login', errorElement: <RouteError />, ...screen(() => import('./routes/dating-login.tsx')) },
      { path: '/dating/login/forgot', errorElement: <RouteError />, ...screen(() => import('./routes/dating-forgot-password.tsx')) },
      { path: '/dating/signup', errorElement: <RouteError />, ...screen(() => import('./routes/dating-signup.tsx')) },
      { path: '/dating/app', errorElement: <RouteError />, ...screen(() => import('./routes/dating-app.tsx')) },
      { path: '/dating/share/:token', errorElement: <RouteError />, ...screen(() => import('./routes/dating-share.tsx')) },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
