import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MyStrikesResponse } from '#common/contract/strikes.ts';
import { apiRequest } from '#web/api/client.ts';

/** The diner's no-show strikes (GET /api/me/strikes) and disputing one (decision 122). */
export const strikeKeys = { mine: ['strikes', 'mine'] as const };

export function useMyStrikes() {
  return useQuery({
    queryKey: strikeKeys.mine,
    meta: { errorLog: 'Failed to fetch strikes' },
    queryFn: ({ signal }) => apiRequest<MyStrikesResponse>('/api/me/strikes', { auth: 'customer', signal }),
  });
}

export function useDisputeStrike() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      apiRequest<MyStrikesResponse>(`/api/me/strikes/${encodeURIComponent(id)}/dispute`, { method: 'POST', body: { reason }, auth: 'customer' }),
    onSuccess: (answer) => queryClient.setQueryData(strikeKeys.mine, answer),
  });
}
