import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SandboxDecision, SandboxPayment } from '#common/contract/payments.ts';
import { ApiError, apiRequest } from '#web/api/client.ts';
import { paymentKeys } from './keys.ts';

export { paymentKeys };

/** GET /api/payments/sandbox/{id}: what the sandbox gateway's page shows. */
export function useSandboxPayment(intentId: string) {
  return useQuery({
    queryKey: paymentKeys.sandbox(intentId),
    retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    queryFn: ({ signal }) => apiRequest<SandboxPayment>(`/api/payments/sandbox/${encodeURIComponent(intentId)}`, { signal }),
  });
}

/** POST /api/payments/sandbox/{id}/decision: the diner approves or declines; the app hears it by webhook. */
export function useSandboxDecision(intentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: SandboxDecision['decision']) =>
      apiRequest<SandboxPayment>(`/api/payments/sandbox/${encodeURIComponent(intentId)}/decision`, { method: 'POST', body: { decision } }),
    onSuccess: (answer) => queryClient.setQueryData(paymentKeys.sandbox(intentId), answer),
  });
}
