/**
 * Runs `task(key)` at most once at a time per key in this process. A request for a key
 * that is already running does not start a second run; it makes the current run go round
 * once more when it finishes, so no request is lost and none runs concurrently.
 * Failures go to `onError` (the periodic sweep retries what they left).
 */
export function createCoalescingRunner(task: (key: string) => Promise<unknown>, onError: (error: unknown, key: string) => void) {
  const running = new Map<string, { again: boolean; done: Promise<void> }>();
  return function schedule(key: string): Promise<void> {
    const current = running.get(key);
    if (current) {
      current.again = true;
      return current.done;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = (async () => {
      try {
        do {
          state.again = false;
          await task(key);
        } while (state.again);
      } catch (error) {
        onError(error, key);
      } finally {
        running.delete(key);
      }
    })();
    running.set(key, state);
    return state.done;
  };
}
