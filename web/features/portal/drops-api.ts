import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminDropDetail, AdminDropSummary, CreateDropBody, DropDrawAudit } from '#common/contract/drops.ts';
import { apiRequest } from '#web/api/client.ts';
import { adminKeys } from './api.ts';
import { clockOffsetMs } from '#web/features/drops/clock.ts';
import { dropRefreshMs } from './drops-format.ts';

/** The portal's drop calls (GET/POST /api/admin/drops, GET /api/admin/drops/{id}) as react-query hooks. */

/** Under adminKeys.all, so signing out forgets them with everything else. */
export const dropAdminKeys = {
  all: [...adminKeys.all, 'drops'] as const,
  list: [...adminKeys.all, 'drops', 'list'] as const,
  one: (id: string) => [...adminKeys.all, 'drops', 'one', id] as const,
};

/** A drop's detail with the device's clock error measured when it arrived (countdowns use the server's clock). */
export type TimedDropDetail = AdminDropDetail & { clockOffsetMs: number };

function timed(detail: AdminDropDetail): TimedDropDetail {
  return { ...detail, clockOffsetMs: clockOffsetMs(detail.serverTime, Date.now()) };
}

export function useAdminDrops() {
  return useQuery<AdminDropSummary[]>({
    queryKey: dropAdminKeys.list,
    staleTime: 5_000,
    // Entry counts move while a drop is open; otherwise the list changes only when staff create one.
    refetchInterval: (query) =>
      (query.state.data ?? []).some((drop) => drop.phase === 'open' || drop.phase === 'closed' || drop.phase === 'released') ? 10_000 : 30_000,
    meta: { errorLog: 'Failed to fetch drops' },
    queryFn: ({ signal }) => apiRequest<AdminDropSummary[]>('/api/admin/drops', { auth: 'restaurant', signal }),
  });
}

export function useAdminDrop(id: string) {
  return useQuery<TimedDropDetail>({
    queryKey: dropAdminKeys.one(id),
    staleTime: 2_000,
    refetchInterval: (query) => dropRefreshMs(query.state.data?.phase),
    refetchIntervalInBackground: true,
    retry: (count, error) => (error as { status?: number }).status === 0 && count < 2,
    meta: { errorLog: 'Failed to fetch drop' },
    queryFn: async ({ signal }) => timed(await apiRequest<AdminDropDetail>(`/api/admin/drops/${encodeURIComponent(id)}`, { auth: 'restaurant', signal })),
  });
}

export function useCreateDrop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDropBody) => apiRequest<AdminDropDetail>('/api/admin/drops', { method: 'POST', body, auth: 'restaurant' }),
    onSuccess: (detail) => {
      queryClient.setQueryData(dropAdminKeys.one(detail.id), timed(detail));
      void queryClient.invalidateQueries({ queryKey: dropAdminKeys.list });
      // The drop's slots are real slots: the dashboard's slot lists change too.
      void queryClient.invalidateQueries({ queryKey: adminKeys.allSlots });
    },
    onError: () => console.error('Failed to create drop'),
  });
}

/** GET /api/drops/{id}/draw (public): the seed and drawn order anyone can recompute. */
export function fetchDrawAudit(id: string): Promise<DropDrawAudit> {
  return apiRequest<DropDrawAudit>(`/api/drops/${encodeURIComponent(id)}/draw`);
}
