import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeBookingBody, ChangeBookingResponse, ChangeTermsView } from '#common/contract/booking-change.ts';
import { apiRequest } from '#web/api/client.ts';
import { restaurantKeys } from '#web/features/restaurants/keys.ts';
import { reservationKeys } from './keys.ts';

/** GET /api/reservations/{id}/change-terms (bearer): what a change would cost or release, before the diner confirms. */
export function useChangeTerms(id: string | null, body: ChangeBookingBody | null) {
  return useQuery({
    queryKey: reservationKeys.changeTerms(id ?? '', body?.date ?? '', body?.time ?? '', body?.partySize ?? 0),
    enabled: Boolean(id && body),
    staleTime: 10_000,
    retry: false,
    queryFn: ({ signal }) =>
      apiRequest<ChangeTermsView>(
        `/api/reservations/${encodeURIComponent(id!)}/change-terms?${new URLSearchParams({ date: body!.date, time: body!.time, partySize: String(body!.partySize) })}`,
        { auth: 'customer', signal },
      ),
  });
}

/** POST /api/reservations/{id}/change (bearer): applied at once, or the extra deposit to approve first. */
export function useChangeBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ChangeBookingBody }) =>
      apiRequest<ChangeBookingResponse>(`/api/reservations/${encodeURIComponent(id)}/change`, { method: 'POST', body, auth: 'customer' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: reservationKeys.all });
      void queryClient.invalidateQueries({ queryKey: restaurantKeys.all });
    },
  });
}
