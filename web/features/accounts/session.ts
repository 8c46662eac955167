import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { DinerProfile } from '#common/contract/accounts.ts';
import { ApiError, apiRequest, readToken, writeToken } from '#web/api/client.ts';

export const currentDinerKey = ['auth', 'me'] as const;

/**
 * The signed-in diner, from the stored customer token. A failed identity check
 * (401) clears the token, as the spec asks.
 */
export function useCurrentDiner() {
  const token = readToken('customer');
  const query = useQuery({
    queryKey: currentDinerKey,
    enabled: Boolean(token),
    retry: false,
    staleTime: 60_000,
    queryFn: async () => {
      try {
        return await apiRequest<DinerProfile>('/api/auth/me', { auth: 'customer' });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) writeToken('customer', null);
        throw error;
      }
    },
  });
  return {
    diner: token ? query.data : undefined,
    isSignedIn: Boolean(token) && !query.isError,
    isLoading: Boolean(token) && query.isPending,
  };
}

/** Signs the diner out: revokes the token on the server, forgets it here. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    try {
      await apiRequest('/api/auth/logout', { method: 'POST', auth: 'customer' });
    } catch {
      // Signing out locally still works when the server cannot be reached.
    }
    writeToken('customer', null);
    queryClient.clear();
  }, [queryClient]);
}
