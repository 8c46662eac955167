import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminFloor, FloorSettingsBody, ReplaceFloorTablesBody } from '#common/contract/floor.ts';
import { apiRequest } from '#web/api/client.ts';

/** The staff's floor (decision 240): tables, combinations, shifts, turn times and pacing. */
export const floorKeys = {
  floor: ['admin', 'floor'] as const,
};

export function useFloor() {
  return useQuery({
    queryKey: floorKeys.floor,
    staleTime: 30_000,
    meta: { errorLog: 'Failed to fetch the floor' },
    queryFn: () => apiRequest<AdminFloor>('/api/admin/floor', { auth: 'restaurant' }),
  });
}

export function useSaveTables() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReplaceFloorTablesBody) => apiRequest<AdminFloor>('/api/admin/floor/tables', { method: 'PUT', body, auth: 'restaurant' }),
    onSuccess: (saved) => queryClient.setQueryData(floorKeys.floor, saved),
  });
}

export function useSaveFloorSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FloorSettingsBody) => apiRequest<AdminFloor>('/api/admin/floor/settings', { method: 'PUT', body, auth: 'restaurant' }),
    onSuccess: (saved) => queryClient.setQueryData(floorKeys.floor, saved),
  });
}
