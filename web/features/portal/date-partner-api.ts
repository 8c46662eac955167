import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DatePartnerProfile, DatePartnerSetting } from '#common/contract/dating.ts';
import { apiRequest } from '#web/api/client.ts';
import { adminKeys } from './api.ts';

/** The Profile tab's date-partner calls (GET/PUT/DELETE /api/admin/date-partner, decision 183). */
export const datePartnerKey = [...adminKeys.all, 'date-partner'] as const;

export function useDatePartner() {
  return useQuery({
    queryKey: datePartnerKey,
    meta: { errorLog: 'Failed to fetch the date-partner profile' },
    queryFn: ({ signal }) => apiRequest<DatePartnerSetting>('/api/admin/date-partner', { auth: 'restaurant', signal }),
  });
}

/** Saves the profile (opting in when there was none), or with `null` stops hosting. */
export function useSaveDatePartner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (profile: DatePartnerProfile | null) =>
      profile
        ? apiRequest<DatePartnerSetting>('/api/admin/date-partner', { method: 'PUT', body: profile, auth: 'restaurant' })
        : apiRequest<DatePartnerSetting>('/api/admin/date-partner', { method: 'DELETE', auth: 'restaurant' }),
    onSuccess: (setting) => queryClient.setQueryData(datePartnerKey, setting),
  });
}
