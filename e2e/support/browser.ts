import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { inject } from 'vitest';

/** Debian's Chromium as installed by `apt-get install -y chromium`: the desktop browser. */
const DESKTOP_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
/** Debian's `chromium-headless-shell`: the same Blink and V8 without the desktop browser's window layer. */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/**
 * The Chromium the journeys share (or CHROMIUM_PATH): the headless shell first, for about a
 * quarter less CPU a page (docs/decisions/289-journeys-in-chromium-headless-shell.md), else the
 * desktop browser. `desktop` asks for the desktop browser only: the shell keeps notifications
 * denied whatever the context grants, so the push journeys run in the desktop browser. Under
 * CI=true a missing browser fails the run.
 */
export function findChromium(kind: 'shared' | 'desktop' = 'shared'): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, ...(kind === 'shared' ? [HEADLESS_SHELL] : []), ...DESKTOP_CHROMIUM].filter(Boolean) as string[];
  return candidates.find((path) => existsSync(path));
}

/**
 * The Chromium features Playwright turns off (its own `--disable-features`), then the address
 * bar's popups, then the spare renderer. Headless Chromium gives every window (one per context) an
 * address bar whose two popups are web pages of its own, preloaded in a renderer process that no
 * test ever shows: 20 contexts cost about a third less CPU without them
 * (docs/decisions/243-cheaper-journeys.md). Chromium also starts a spare renderer process ahead of
 * the next page, which the journeys' next page, in another context, cannot use
 * (docs/decisions/287-journeys-without-spare-renderers.md).
 * Chromium keeps the last `--disable-features` it is given, so this one repeats Playwright's list;
 * the global setup fails when Playwright's list has an entry this one lacks.
 */
export const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
  'SpareRendererForSitePerProcess',
];

// This machine has no outside network: stop Chromium from trying. Every journey stays on its own
// server's origin, so site isolation's extra process per page guards nothing here (decision 287).
export const CHROMIUM_ARGS = [
  '--disable-site-isolation-trials',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

/**
 * The features of every `--disable-features` before the last that the last one drops (Chromium
 * keeps only the last): empty when the browser was started with what Playwright and this file
 * both meant to turn off.
 */
export function featuresOverridden(spawnArgs: readonly string[]): string[] {
  const lists = spawnArgs.filter((arg) => arg.startsWith('--disable-features=')).map((arg) => arg.slice('--disable-features='.length).split(','));
  const last = new Set(lists.at(-1) ?? []);
  return lists.slice(0, -1).flatMap((list) => list.filter((feature) => feature && !last.has(feature)));
}

/**
 * The run's shared Chromium (started by e2e/support/global-setup.ts), connected to afresh: the
 * file gets its own connection, and close() drops the file's contexts and disconnects, leaving
 * the browser to the other files.
 */
export async function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject('chromiumWsEndpoint'));
}

/**
 * A desktop Chromium of the file's own, for the journeys that need what the headless shell lacks
 * (notifications a context can allow). close() stops it.
 */
export async function launchDesktopBrowser(): Promise<Browser> {
  const executablePath = findChromium('desktop');
  if (!executablePath) throw new Error("The push journeys need the desktop Chromium: install Debian's chromium or set CHROMIUM_PATH");
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/**
 * The browser with the journeys' context defaults in every context it opens (`newContext`, and
 * `newPage`, which goes through it), unless the context's own options say otherwise:
 * - reduced motion: the app's endless animations (the map's live dot, the portal's) drew frames
 *   for as long as a page stayed open, about 0.15 CPU-seconds a second on `/map`, and the app
 *   honours the setting (docs/decisions/291-reduced-motion-means-no-transitions.md);
 * - the app's service worker blocked, unless `serviceWorker` is set. The worker caches the app
 *   shell on its first visit: every new context fetched and stored every script, style and font
 *   once more, about a fifth of a context's Chromium CPU, for journeys that never look at it. The
 *   journeys about it (offline reading, push) and the diner's main journey keep it
 *   (docs/decisions/290-journeys-block-the-service-worker-unless-about-it.md).
 */
export function withJourneyDefaults(browser: Browser, { serviceWorker = false }: { serviceWorker?: boolean } = {}): Browser {
  const defaults: BrowserContextOptions = { reducedMotion: 'reduce', ...(serviceWorker ? {} : { serviceWorkers: 'block' }) };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options: BrowserContextOptions = {}) => newContext({ ...defaults, ...options });
  return browser;
}

/** Fails the test on any uncaught page error, so a broken screen cannot pass quietly. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Phone and laptop viewports the product is designed for. */
export const PHONE = { width: 375, height: 812 };
export const LAPTOP = { width: 1280, height: 800 };
