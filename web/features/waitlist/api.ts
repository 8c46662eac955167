import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DevMailboxResponse, JoinWaitlistBody, WaitlistEntry, WaitlistResponse } from '#common/contract/waitlist.ts';
import { ApiError, apiRequest } from '#web/api/client.ts';
import { setCustomerToken } from '#web/features/accounts/session.ts';
import { clockOffsetMs } from '#web/features/drops/clock.ts';
import { refetchIntervalFor } from './rules.ts';
import { reservationKeys } from '#web/features/reservations/keys.ts';
import { restaurantKeys } from '#web/features/restaurants/keys.ts';
import { mailboxKeys, waitlistKeys } from './keys.ts';

export { mailboxKeys, waitlistKeys };

/** The answer with the device-to-server clock offset measured when it arrived. */
export type TimedWaitlist = WaitlistResponse & { clockOffsetMs: number };

/** GET /api/waitlist with the customer token; re-read while something is waiting or held. */
export function useMyWaitlist(enabled: boolean) {
  return useQuery<TimedWaitlist>({
    queryKey: waitlistKeys.mine,
    enabled,
    staleTime: 5_000,
    refetchInterval: (query) => refetchIntervalFor(query.state.data?.entries),
    retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    // A rejected token is forgotten, so the screen falls back to signed out.
    meta: { onUnauthorized: () => setCustomerToken(null) },
    queryFn: async ({ signal }) => {
      const body = await apiRequest<WaitlistResponse>('/api/waitlist', { auth: 'customer', signal });
      return { ...body, clockOffsetMs: clockOffsetMs(body.serverTime, Date.now()) };
    },
  });
}

function useAfterWaitlistChange() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: waitlistKeys.all });
    // A held table moves covers: the restaurant's times and the diner's reservations.
    void queryClient.invalidateQueries({ queryKey: reservationKeys.all });
    void queryClient.invalidateQueries({ queryKey: restaurantKeys.all });
  };
}

/** POST /api/waitlist. */
export function useJoinWaitlist() {
  const afterChange = useAfterWaitlistChange();
  return useMutation({
    mutationFn: (body: JoinWaitlistBody) => apiRequest<WaitlistEntry>('/api/waitlist', { method: 'POST', body, auth: 'customer' }),
    onSuccess: afterChange,
  });
}

/** DELETE /api/waitlist/{id}: leave; a live offer is let go to the next in line. */
export function useLeaveWaitlist() {
  const afterChange = useAfterWaitlistChange();
  return useMutation({
    mutationFn: (id: string) => apiRequest<WaitlistEntry>(`/api/waitlist/${encodeURIComponent(id)}`, { method: 'DELETE', auth: 'customer' }),
    onSuccess: afterChange,
    onError: afterChange,
  });
}

/** The dev mailbox answered 404: it is switched off on this server. */
export function isMailboxOff(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** The dev mailbox answered 401: only a signed-in diner sees messages, and only their own (decision 093). */
export function isMailboxSignedOut(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** GET /api/dev/mailbox?recipient=…: recent email and SMS to the signed-in diner (not in production). */
export function useDevMailbox(recipient: string) {
  return useQuery({
    queryKey: mailboxKeys.list(recipient),
    staleTime: 0,
    retry: (count, error) => !isMailboxOff(error) && !isMailboxSignedOut(error) && count < 1,
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ limit: '100' });
      if (recipient.trim()) query.set('recipient', recipient.trim());
      return apiRequest<DevMailboxResponse>(`/api/dev/mailbox?${query}`, { signal, auth: 'customer' });
    },
  });
}
