import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DatingNotificationPreferences, DatingPushChoice, PushSubscriptionAnswer } from '#common/contract/push.ts';
import { browserSubscription, pushSupported, subscribeBrowser } from '#web/features/notifications/push.ts';
import { datingRequest } from './api.ts';
import { datingKeys } from './keys.ts';

/**
 * This browser and the dating member's date-plan pushes (decisions 219, 227). A browser has one push
 * subscription, which a diner signed in here may use too; so "on" for the member is the server
 * keeping this browser's endpoint for them, and signing out of dating removes only that.
 */
export type DatingPushDevice = 'unsupported' | 'denied' | 'off' | 'on';

export interface DatingPushState {
  device: DatingPushDevice;
  preferences: DatingNotificationPreferences;
}

const preferencesPath = (endpoint: string | undefined) => `/dating/me/notification-preferences${endpoint ? `?endpoint=${encodeURIComponent(endpoint)}` : ''}`;

async function readDatingPush(signal?: AbortSignal): Promise<DatingPushState> {
  const subscription = pushSupported() && Notification.permission !== 'denied' ? await browserSubscription().catch(() => null) : null;
  const preferences = await datingRequest<DatingNotificationPreferences>(preferencesPath(subscription?.endpoint), { signal });
  const device: DatingPushDevice = !pushSupported() ? 'unsupported' : Notification.permission === 'denied' ? 'denied' : preferences.thisDevice ? 'on' : 'off';
  return { device, preferences };
}

export function useDatingPush() {
  return useQuery({ queryKey: datingKeys.push, queryFn: ({ signal }) => readDatingPush(signal) });
}

export function useSubscribeDatingBrowser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const subscription = await subscribeBrowser();
      return datingRequest<PushSubscriptionAnswer>('/dating/me/push-subscriptions', { method: 'POST', body: subscription.toJSON() });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: datingKeys.push }),
  });
}

export function useUnsubscribeDatingBrowser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: forgetThisBrowserForDating,
    onSettled: () => queryClient.invalidateQueries({ queryKey: datingKeys.push }),
  });
}

export function useChooseDatingPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (choice: DatingPushChoice) => {
      const subscription = await browserSubscription().catch(() => null);
      return datingRequest<DatingNotificationPreferences>(preferencesPath(subscription?.endpoint), { method: 'PUT', body: choice });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: datingKeys.push }),
  });
}

/**
 * This browser stops receiving the member's date-plan pushes: on the server only. The browser's
 * subscription stays, since a diner signed in here may use it. Also at the member's sign-out.
 */
export async function forgetThisBrowserForDating(): Promise<PushSubscriptionAnswer | null> {
  if (!pushSupported()) return null;
  const subscription = await browserSubscription();
  if (!subscription) return null;
  return datingRequest<PushSubscriptionAnswer>('/dating/me/push-subscriptions', { method: 'DELETE', body: { endpoint: subscription.endpoint } });
}
