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
