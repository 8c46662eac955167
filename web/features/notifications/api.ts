import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChannelChoices, NotificationPreferences } from '#common/contract/push.ts';
import { apiRequest } from '#web/api/client.ts';
import { setCustomerToken } from '#web/features/accounts/session.ts';
import { notificationKeys } from './keys.ts';
import { readPushState, subscribeThisBrowser, unsubscribeThisBrowser } from './push.ts';

/** The diner's channels (GET /api/me/notification-preferences). */
export function useNotificationPreferences(enabled: boolean) {
  return useQuery<NotificationPreferences>({
    queryKey: notificationKeys.preferences,
    enabled,
    meta: { errorLog: 'Could not load your notification settings', onUnauthorized: () => setCustomerToken(null) },
    queryFn: ({ signal }) => apiRequest<NotificationPreferences>('/api/me/notification-preferences', { auth: 'customer', signal }),
  });
}

export function useChooseChannels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choices: ChannelChoices) =>
      apiRequest<NotificationPreferences>('/api/me/notification-preferences', { method: 'PUT', body: choices, auth: 'customer' }),
    onSuccess: (preferences) => queryClient.setQueryData(notificationKeys.preferences, preferences),
  });
}

/** Whether this browser can, may and does receive the diner's pushes. */
export function useThisBrowserPush() {
  return useQuery({ queryKey: notificationKeys.thisDevice, queryFn: readPushState, staleTime: Infinity });
}

export function useSubscribeThisBrowser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: subscribeThisBrowser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useUnsubscribeThisBrowser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unsubscribeThisBrowser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
