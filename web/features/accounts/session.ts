import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import type { DinerProfile } from '#common/contract/accounts.ts';
import { ApiError, apiRequest, readToken, TOKEN_KEYS, writeToken } from '#web/api/client.ts';
import { unsubscribeThisBrowser } from '#web/features/notifications/push.ts';
import { forgetOfflineData } from '#web/features/offline/service-worker.ts';
import { accountKeys } from './keys.ts';

/*
 * The stored customer token as React state: signing in or out here, or in another tab,
 * re-renders every screen that reads it (the header's menu, the home panel, /me).
 */
const listeners = new Set<() => void>();
/** True while signing out, so screens for signed-in diners do not bounce to /login on the way home. */
let signingOut = false;
/** How many times the diner has signed out in this tab: a screen that saw it happen goes home, not to /login. */
let signOuts = 0;

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_KEYS.customer) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Stores (or, with null, forgets) the customer token and tells every reader. */
export function setCustomerToken(token: string | null): void {
  writeToken('customer', token);
  notify();
}

/** The stored customer token, kept current. */
export function useCustomerToken(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => readToken('customer'),
    () => null,
  );
}

/**
 * The signed-in diner, from the stored customer token. A failed identity check
 * (401) clears the token, as the spec asks.
 */
export function useCurrentDiner() {
  const token = useCustomerToken();
  const query = useQuery({
    queryKey: accountKeys.me,
    enabled: Boolean(token),
    retry: false,
    staleTime: 60_000,
    meta: { onUnauthorized: () => setCustomerToken(null) },
    queryFn: ({ signal }) => apiRequest<DinerProfile>('/api/auth/me', { auth: 'customer', signal }),
  });
  // A network failure keeps the diner signed in (the token may still be good); only a 401 ends it.
  const isRejected = query.error instanceof ApiError && query.error.status === 401;
  return {
    diner: token ? query.data : undefined,
    isSignedIn: Boolean(token) && !isRejected,
    /** True until we know who the token belongs to. */
    isLoading: Boolean(token) && query.isPending,
  };
}

/** True during sign-out (see useSignOut). */
export function useIsSigningOut(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => signingOut,
    () => false,
  );
}

/**
 * How many sign-outs this tab has seen. A screen for signed-in diners compares it with the count
 * when it opened: the router commits sign-out's navigation home in a transition, after
 * useIsSigningOut has already dropped, so the flag alone cannot tell a sign-out from a visitor.
 */
export function useSignOutCount(): number {
  return useSyncExternalStore(
    subscribe,
    () => signOuts,
    () => 0,
  );
}

/** Signs the diner out: revokes the token on the server, forgets it here, and returns to / (spec section 4). */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    signingOut = true;
    signOuts += 1;
    notify();
    try {
      // This browser stops receiving the leaving diner's offers and reminders (decision 212).
      await unsubscribeThisBrowser().catch(() => null);
      await apiRequest('/api/auth/logout', { method: 'POST', auth: 'customer' });
    } catch {
      // Signing out locally still works when the server cannot be reached.
    }
    setCustomerToken(null);
    queryClient.clear();
    // What the service worker kept for offline reading was this diner's (decision 212).
    await forgetOfflineData();
    try {
      await navigate('/');
    } finally {
      signingOut = false;
      notify();
    }
  }, [queryClient, navigate]);
}

/** The first word of the diner's name, or their username. */
export function firstName(diner: Pick<DinerProfile, 'name' | 'username'> | undefined): string {
  const name = diner?.name?.trim();
  if (name) return name.split(/\s+/)[0];
  return diner?.username ?? '';
}
