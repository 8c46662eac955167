import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useState } from 'react';
import type { PortalStreamEvent } from '#common/contract/portal.ts';
import { readToken } from '#web/api/client.ts';
import { readEventStream } from '#web/api/event-stream.ts';
import { adminKeys } from './api.ts';

/**
 * Listens to GET /api/admin/events and reloads the dashboard and the host view when a booking,
 * a slot or the floor changes; the 30-second refresh keeps working whatever happens here.
 */
export function useLiveUpdates(options: { onUnauthorized: () => void }): { connected: boolean } {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  const onUnauthorized = useEffectEvent(() => options.onUnauthorized());

  useEffect(() => {
    const controller = new AbortController();
    let pending: number | undefined;
    const reload = () => {
      // Several changes in a burst cost one reload.
      window.clearTimeout(pending);
      pending = window.setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: adminKeys.bookings });
        void queryClient.invalidateQueries({ queryKey: adminKeys.allSlots });
        // A booking that just paid arrives with its deposit badge, not only after a reload.
        void queryClient.invalidateQueries({ queryKey: adminKeys.allDepositDays });
        // The host view (web/features/floor-live) keeps its days under the portal's keys.
        void queryClient.invalidateQueries({ queryKey: adminKeys.floorLive });
      }, 120);
    };
    void readEventStream<PortalStreamEvent>({
      path: '/api/admin/events',
      token: () => readToken('restaurant'),
      signal: controller.signal,
      onConnectedChange: setConnected,
      onUnauthorized: () => onUnauthorized(),
      // Every event reloads, `ready` included: the screens were read before the server listened for
      // this connection, on opening it as after a reconnect, and may have missed a change (decision 286).
      onEvent: reload,
    });
    return () => {
      controller.abort();
      window.clearTimeout(pending);
    };
  }, [queryClient]);

  return { connected };
}
