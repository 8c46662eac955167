import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Clock } from '#server/clock.ts';
import { connectBrowser, launchDesktopBrowser, withJourneyDefaults } from './browser.ts';
import { apiClient } from './fixtures.ts';
import { startE2eServer, type E2eServer } from './server.ts';

export interface E2eEnvironment {
  server: E2eServer;
  browser: Browser;
  api: ReturnType<typeof apiClient>;
  /** The file's own data directory (uploads, the embedded database's files), removed afterwards. */
  dataDir: string;
}

/**
 * For one e2e file: the real server on its own data directory and database, Chromium, and an
 * API client, started before the file's tests and removed after them. `assign` receives them.
 * `options.clock` runs the server on a clock the journey moves (the browser keeps its own).
 * `options.desktopBrowser` gives the file a desktop Chromium of its own instead of the shared
 * headless shell, for what the shell lacks (notifications a context can allow; decision 289).
 * `options.serviceWorker` lets the app's service worker run in the file's contexts; without it
 * the browser blocks it (decision 290). Every context asks for reduced motion (decision 291).
 */
export function useE2eEnvironment(
  name: string,
  assign: (environment: E2eEnvironment) => void,
  env: Record<string, string> = {},
  options: { clock?: Clock; desktopBrowser?: boolean; serviceWorker?: boolean } = {},
): void {
  let dataDir: string | undefined;
  let environment: Partial<E2eEnvironment> = {};
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `tablefair-${name}-e2e-`));
    const server = await startE2eServer({ DATA_DIR: dataDir, ...env }, options);
    const browser = await (options.desktopBrowser ? launchDesktopBrowser() : connectBrowser());
    environment = { server, browser: withJourneyDefaults(browser, { serviceWorker: options.serviceWorker }), api: apiClient(server.baseUrl), dataDir };
    assign(environment as E2eEnvironment);
  });
  afterAll(async () => {
    await environment.browser?.close();
    await environment.server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
}
