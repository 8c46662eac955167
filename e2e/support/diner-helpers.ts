import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Serious and critical axe-core violations on the page as it is now (empty when clean). */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: 'node_modules/axe-core/axe.min.js' });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run();
    return result.violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Fails with the violations listed, naming the screen. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect(await seriousAxeViolations(page), `axe on ${screen}`).toEqual([]);
}

/** The visible text of the toasts (the spec's alerts). */
export async function toastTexts(page: Page): Promise<string> {
  return (await page.locator('[data-testid="toast"]').allInnerTexts()).join('\n');
}

/** Plain API calls from the test, with an optional bearer token. */
export function apiClient(baseUrl: string) {
  return async function api<T>(path: string, options: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; body: T }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as T };
  };
}
