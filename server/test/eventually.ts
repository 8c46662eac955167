/**
 * Whether `check` answers true within `timeoutMs` of real time, asked every `intervalMs`, and once
 * more at the end. For tests that wait on something outside the test's own clock (a reconnect, a
 * browser's worker); the caller decides what a false means.
 */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return check();
}

/** Waits with real time until `check` answers true (asked every 20 ms); fails naming `what` after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  if (!(await eventually(check, timeoutMs, 20))) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
