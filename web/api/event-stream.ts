/**
 * Server-sent events read with fetch(), so the bearer token goes in a header, never a URL
 * (EventSource cannot send one). Reconnects with backoff; every screen that uses it keeps its
 * own periodic refresh, so a lost stream only makes updates slower.
 */

/** Splits a server-sent-events text stream into events (the parts of the format we send). */
export function parseEventBlocks(buffer: string): { events: { event: string; data: string }[]; rest: string } {
  const events: { event: string; data: string }[] = [];
  const normalised = buffer.replace(/\r\n/g, '\n');
  const blocks = normalised.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        window.clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

export interface EventStreamOptions<T> {
  path: string;
  /** Read before each connection; no token ends the loop. */
  token: () => string | null;
  signal: AbortSignal;
  /**
   * Each event's JSON payload. The server sends `ready` once it listens for this connection, so
   * anything read before a `ready` (the first one included) may have missed an event.
   */
  onEvent(payload: T): void;
  onConnectedChange?(connected: boolean): void;
  onUnauthorized?(): void;
}

/** Reads the stream until `signal` aborts, reconnecting after failures (1 s, 2 s, … up to 30 s). */
export async function readEventStream<T extends { type: string }>(options: EventStreamOptions<T>): Promise<void> {
  const { signal } = options;
  let failures = 0;
  while (!signal.aborted) {
    const token = options.token();
    if (!token) return;
    try {
      const response = await fetch(options.path, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        cache: 'no-store',
        signal,
      });
      if (response.status === 401) {
        options.onUnauthorized?.();
        return;
      }
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const parsed = parseEventBlocks(buffer);
        buffer = parsed.rest;
        for (const { data } of parsed.events) {
          let payload: T;
          try {
            payload = JSON.parse(data) as T;
          } catch {
            continue;
          }
          if (payload.type === 'ready') {
            failures = 0;
            options.onConnectedChange?.(true);
          }
          options.onEvent(payload);
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    options.onConnectedChange?.(false);
    failures += 1;
    await sleep(Math.min(30_000, 1_000 * 2 ** Math.min(failures, 5)), signal);
  }
}
