import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { PortalStreamEvent } from '#common/contract/portal.ts';
import { readToken } from '#web/api/client.ts';
import { adminKeys } from './api.ts';

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
    signal.addEventListener('abort', () => {
      window.clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/**
 * Listens to GET /api/admin/events and reloads the dashboard when a booking or slot
 * changes. EventSource cannot send an Authorization header, so the stream is read with
 * fetch(); the token never goes into a URL. Reconnects with backoff; the 30-second
 * refresh keeps working whatever happens here.
 */
export function useLiveUpdates(options: { onUnauthorized: () => void }): { connected: boolean } {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  const onUnauthorized = useRef(options.onUnauthorized);
  onUnauthorized.current = options.onUnauthorized;

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let pending: number | undefined;
    const reload = (what: 'bookings' | 'all') => {
      // Several changes in a burst cost one reload.
      window.clearTimeout(pending);
      pending = window.setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: adminKeys.bookings });
        if (what === 'all') void queryClient.invalidateQueries({ queryKey: adminKeys.allSlots });
      }, 120);
    };

    async function run() {
      let failures = 0;
      let firstConnection = true;
      while (!signal.aborted) {
        const token = readToken('restaurant');
        if (!token) return;
        try {
          const response = await fetch('/api/admin/events', {
            headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
            cache: 'no-store',
            signal,
          });
          if (response.status === 401) {
            onUnauthorized.current();
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
            for (const { event, data } of parsed.events) {
              let payload: PortalStreamEvent | undefined;
              try {
                payload = JSON.parse(data) as PortalStreamEvent;
              } catch {
                continue;
              }
              if (event === 'ready' || payload.type === 'ready') {
                setConnected(true);
                failures = 0;
                // Catch up on anything missed while disconnected.
                if (!firstConnection) reload('all');
                firstConnection = false;
              } else if (payload.type === 'booking') {
                reload('all');
              } else if (payload.type === 'slots') {
                reload('all');
              }
            }
          }
        } catch {
          if (signal.aborted) return;
        }
        setConnected(false);
        failures += 1;
        await sleep(Math.min(30_000, 1_000 * 2 ** Math.min(failures, 5)), signal);
      }
    }
    void run();
    return () => {
      controller.abort();
      window.clearTimeout(pending);
    };
  }, [queryClient]);

  return { connected };
}
