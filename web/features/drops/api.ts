import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PhoneCodeSent, PhoneVerificationStatus } from '#common/contract/accounts.ts';
import type { DropDetail, DropDrawAudit, DropList } from '#common/contract/drops.ts';
import { apiRequest } from '#web/api/client.ts';
import { clockOffsetMs } from './clock.ts';
import { accountKeys } from '#web/features/accounts/keys.ts';
import { reservationKeys } from '#web/features/reservations/keys.ts';
import { dropKeys } from './keys.ts';

export { dropKeys };

/** An answer with the device-to-server clock offset measured when it arrived. */
export type Timed<T> = T & { clockOffsetMs: number };

async function timed<T extends { serverTime: string }>(promise: Promise<T>): Promise<Timed<T>> {
  const body = await promise;
  return { ...body, clockOffsetMs: clockOffsetMs(body.serverTime, Date.now()) };
}

/** GET /api/drops: open, upcoming and past drops citywide. */
export function useDropList() {
  return useQuery({
    queryKey: dropKeys.list,
    staleTime: 10_000,
    refetchInterval: 30_000,
    queryFn: ({ signal }) => timed(apiRequest<DropList>('/api/drops', { signal })),
  });
}

/** GET /api/drops/{id} with the diner's token when signed in (their entry and result come with it). */
export function useDrop(id: string, options: { signedIn: boolean }) {
  return useQuery<Timed<DropDetail>>({
    queryKey: dropKeys.detail(id, options.signedIn),
    // Around the draw and while a table is held, re-read often; the live stream usually gets there first.
    refetchInterval: (query) => {
      const drop = query.state.data;
      if (!drop) return false;
      if (drop.phase === 'open' || drop.phase === 'closed') return 5_000;
      if (drop.myEntry && ['entered', 'won', 'waiting'].includes(drop.myEntry.result.state)) return 5_000;
      return 30_000;
    },
    retry: (count, error) => (error as { status?: number }).status === undefined && count < 2,
    queryFn: ({ signal }) => timed(apiRequest<DropDetail>(`/api/drops/${encodeURIComponent(id)}`, { signal, auth: options.signedIn ? 'customer' : undefined })),
  });
}

/** GET /api/drops/{id}/draw: the seed and order, for anyone to check. */
export function useDrawAudit(id: string, enabled: boolean) {
  return useQuery({
    queryKey: dropKeys.draw(id),
    enabled,
    staleTime: Infinity,
    queryFn: ({ signal }) => apiRequest<DropDrawAudit>(`/api/drops/${encodeURIComponent(id)}/draw`, { signal }),
  });
}

function useAfterDropChange(id: string) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: dropKeys.all });
    void queryClient.invalidateQueries({ queryKey: reservationKeys.all });
    void queryClient.invalidateQueries({ queryKey: dropKeys.one(id) });
  };
}

/** POST /api/drops/{id}/entries. */
export function useEnterDrop(id: string) {
  const afterChange = useAfterDropChange(id);
  return useMutation({
    mutationFn: (partySize: number) =>
      apiRequest<DropDetail>(`/api/drops/${encodeURIComponent(id)}/entries`, { method: 'POST', body: { partySize }, auth: 'customer' }),
    onSuccess: afterChange,
  });
}

/** DELETE /api/drops/{id}/entries. */
export function useWithdrawFromDrop(id: string) {
  const afterChange = useAfterDropChange(id);
  return useMutation({
    mutationFn: () => apiRequest<DropDetail>(`/api/drops/${encodeURIComponent(id)}/entries`, { method: 'DELETE', auth: 'customer' }),
    onSuccess: afterChange,
  });
}

/** GET /api/auth/phone: the verified phone and any code waiting. */
export function usePhoneStatus(enabled: boolean) {
  return useQuery({
    queryKey: accountKeys.phone,
    enabled,
    queryFn: ({ signal }) => apiRequest<PhoneVerificationStatus>('/api/auth/phone', { signal, auth: 'customer' }),
  });
}

export function useStartPhoneVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (phone: string) => apiRequest<PhoneCodeSent>('/api/auth/phone/start', { method: 'POST', body: { phone }, auth: 'customer' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountKeys.phone }),
  });
}

export function useVerifyPhone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { phone: string; code: string }) =>
      apiRequest<PhoneVerificationStatus>('/api/auth/phone/verify', { method: 'POST', body, auth: 'customer' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.phone });
      void queryClient.invalidateQueries({ queryKey: dropKeys.all });
    },
  });
}
