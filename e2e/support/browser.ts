import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';

/** Debian's Chromium (or CHROMIUM_PATH). Under CI=true a missing browser fails the run. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  return candidates.find((path) => existsSync(path));
}

// This machine has no outside network: stop Chromium from trying.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

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
