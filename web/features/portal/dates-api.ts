import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminDate, AdminDatesResponse } from '#common/contract/dating-plans.ts';
import { apiRequest, readToken } from '#web/api/client.ts';
import { adminKeys, REFRESH_MS } from './api.ts';

/** The dashboard's "Tablefair dates" calls (decision 184). */
export const adminDatesKeys = {
  all: [...adminKeys.all, 'dates'] as const,
  day: (date: string) => [...adminKeys.all, 'dates', date] as const,
};

/** GET /api/admin/dates?date=: the Tablefair dates at this restaurant on a Kolkata day. */
export function useAdminDates(date: string) {
  return useQuery({
    queryKey: adminDatesKeys.day(date),
    enabled: Boolean(date) && Boolean(readToken('restaurant')),
    refetchInterval: REFRESH_MS,
    staleTime: 5_000,
    meta: { errorLog: 'Failed to fetch the Tablefair dates' },
    queryFn: ({ signal }) => apiRequest<AdminDatesResponse>(`/api/admin/dates?date=${encodeURIComponent(date)}`, { auth: 'restaurant', signal }),
  });
}

/**
 * POST /api/admin/dates/{planId}/arrivals: one member is at the table (or, with `undo`, DELETE:
 * an arrival marked by mistake is undone, decision 253); then the day's dates read again.
 */
export function useMarkDateArrival() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ planId, memberId, undo = false }: { planId: string; memberId: string; undo?: boolean }) =>
      undo
        ? apiRequest<AdminDate>(`/api/admin/dates/${encodeURIComponent(planId)}/arrivals/${encodeURIComponent(memberId)}`, {
            method: 'DELETE',
            auth: 'restaurant',
          })
        : apiRequest<AdminDate>(`/api/admin/dates/${encodeURIComponent(planId)}/arrivals`, { method: 'POST', body: { memberId }, auth: 'restaurant' }),
    // The answer is the date as it is now: shown at once, before the list reads again.
    onSuccess: (updated) =>
      queryClient.setQueriesData<AdminDatesResponse>({ queryKey: adminDatesKeys.all }, (day) =>
        day ? { ...day, dates: day.dates.map((date) => (date.planId === updated.planId ? updated : date)) } : day,
      ),
    onSettled: () =>
      // The bookings list shows the date's reservation too (seated once both are in).
      Promise.all([queryClient.invalidateQueries({ queryKey: adminDatesKeys.all }), queryClient.invalidateQueries({ queryKey: adminKeys.bookings })]),
  });
}
