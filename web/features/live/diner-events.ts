import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { DinerStreamEvent } from '#common/contract/waitlist.ts';
import { formatTime12h } from '#common/domain/time.ts';
import { readToken } from '#web/api/client.ts';
import { readEventStream } from '#web/api/event-stream.ts';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useCustomerToken } from '#web/features/accounts/session.ts';
import { dropKeys } from '#web/features/drops/keys.ts';
import { reservationKeys } from '#web/features/reservations/keys.ts';
import { waitlistKeys } from '#web/features/waitlist/keys.ts';

/** What the diner reads when a table is held for them. */
export function offerMessage(event: Extract<DinerStreamEvent, { type: 'offer' }>): string {
  return `A table is held for you at ${event.restaurantName}, ${formatTime12h(event.time)} for ${event.partySize}. Complete the booking before the timer runs out.`;
}

/**
 * The signed-in diner's live notifications (GET /api/me/events): a drop drawn or a table offered
 * from a drop or the waitlist re-reads the screens that show them and says so in a toast.
 * Used by the drop, waitlist and profile screens, which also refresh on their own.
 */
export function useDinerEvents(): void {
  const token = useCustomerToken();
  const queryClient = useQueryClient();
  const toast = useToast();

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    const refresh = () => {
      for (const key of [dropKeys.all, waitlistKeys.all, reservationKeys.all]) void queryClient.invalidateQueries({ queryKey: key });
    };
    void readEventStream<DinerStreamEvent>({
      path: '/api/me/events',
      token: () => readToken('customer'),
      signal: controller.signal,
      onEvent(event) {
        // Every event re-reads, `ready` included: a screen read before the server listened for
        // this connection (on opening it, as after a reconnect) may have missed an offer (decision 286).
        refresh();
        if (event.type === 'offer') toast(offerMessage(event), 'success');
      },
    });
    return () => controller.abort();
  }, [token, queryClient, toast]);
}
