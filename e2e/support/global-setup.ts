import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';

/**
 * Once per run of the e2e project: one Chromium for every journey file. Each file connects to
 * it (launchBrowser) and works in its own contexts, so a file pays a connection, not a browser
 * start. Without a Chromium this fails, as each file's launch did before.
 */
export default async function setup(project: TestProject) {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("Chromium not found: install Debian's chromium or set CHROMIUM_PATH");
  const server = await chromium.launchServer({ executablePath, headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return () => server.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumWsEndpoint: string;
  }
}
