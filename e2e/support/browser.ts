import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';

/** Debian's Chromium (or CHROMIUM_PATH). Under CI=true a missing browser fails the run. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
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

/** Fails the test on any uncaught page error, so a broken screen cannot pass quietly. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Phone and laptop viewports the product is designed for. */
export const PHONE = { width: 375, height: 812 };
export const LAPTOP = { width: 1280, height: 800 };
