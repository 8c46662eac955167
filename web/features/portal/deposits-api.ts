import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminDepositPolicy, DepositPolicyBody } from '#common/contract/deposits.ts';
import type { AdminStrikeDispute, ResolveDisputeBody } from '#common/contract/strikes.ts';
import { apiRequest } from '#web/api/client.ts';
import { adminKeys } from './api.ts';

/** The Deposits tab's calls: the policy (GET/PUT /api/admin/deposit-policy) and strike disputes. */
export const depositKeys = {
  policy: [...adminKeys.all, 'deposit-policy'] as const,
  disputes: [...adminKeys.all, 'strike-disputes'] as const,
};

export function useDepositPolicy() {
  return useQuery({
    queryKey: depositKeys.policy,
    meta: { errorLog: 'Failed to fetch the deposit policy' },
    queryFn: ({ signal }) => apiRequest<AdminDepositPolicy>('/api/admin/deposit-policy', { auth: 'restaurant', signal }),
  });
}

export function useSaveDepositPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DepositPolicyBody) => apiRequest<AdminDepositPolicy>('/api/admin/deposit-policy', { method: 'PUT', body, auth: 'restaurant' }),
    onSuccess: (policy) => {
      queryClient.setQueryData(depositKeys.policy, policy);
      // The restaurant page's times show the new asks.
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== adminKeys.all[0] });
    },
  });
}

export function useStrikeDisputes() {
  return useQuery({
    queryKey: depositKeys.disputes,
    meta: { errorLog: 'Failed to fetch strike disputes' },
    queryFn: ({ signal }) => apiRequest<AdminStrikeDispute[]>('/api/admin/strike-disputes', { auth: 'restaurant', signal }),
  });
}

export function useResolveDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, outcome }: { id: string } & ResolveDisputeBody) =>
      apiRequest<AdminStrikeDispute>(`/api/admin/strike-disputes/${encodeURIComponent(id)}`, { method: 'PATCH', body: { outcome }, auth: 'restaurant' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: depositKeys.disputes }),
  });
}
