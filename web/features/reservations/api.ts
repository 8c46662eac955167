import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BookingRequest, ConfirmReservationResponse, CreateReservationBody, DinerReservation, ReservationDetail } from '#common/contract/reservations.ts';
import { ApiError, apiRequest } from '#web/api/client.ts';
import { setCustomerToken } from '#web/features/accounts/session.ts';
import { restaurantKeys } from '#web/features/restaurants/keys.ts';
import { reservationKeys } from './keys.ts';

export { reservationKeys };

/**
 * GET /api/reservations with the customer token. A failure is only logged (spec
 * section 8); a rejected token is forgotten, so the screen falls back to signed out.
 */
export function useMyReservations(enabled: boolean) {
  return useQuery<DinerReservation[]>({
    queryKey: reservationKeys.mine,
    enabled,
    staleTime: 10_000,
    // While a hold is running, re-read so it leaves the list's Complete Booking when it runs out.
    refetchInterval: (query) => (query.state.data?.some((reservation) => reservation.status === 'HELD') ? 15_000 : false),
    // A rejected token is forgotten at once (no retry): the list falls back to signed out.
    retry: (count, error) => !(error instanceof ApiError && error.status === 401) && count < 1,
    meta: { errorLog: 'Could not load your reservations', onUnauthorized: () => setCustomerToken(null) },
    queryFn: ({ signal }) => apiRequest<DinerReservation[]>('/api/reservations', { auth: 'customer', signal }),
  });
}

/** GET /api/reservations/{id} with no token (spec section 6): the hold screen works with the id alone. */
export function useReservation(id: string, options: { pollMs?: number } = {}) {
  return useQuery({
    queryKey: reservationKeys.one(id),
    staleTime: 5_000,
    retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 1,
    // The read carries the deposit requirement; confirm and cancel answers (DinerReservation) may replace it in the cache.
    queryFn: ({ signal }) => apiRequest<ReservationDetail>(`/api/reservations/${encodeURIComponent(id)}`, { signal }),
    // Back from an approved payment, the hold screen polls until the authorisation makes it PENDING.
    refetchInterval: (query) => (options.pollMs && query.state.data?.status === 'HELD' ? options.pollMs : false),
  });
}

function useAfterChange() {
  const queryClient = useQueryClient();
  return (reservation?: DinerReservation) => {
    if (reservation) queryClient.setQueryData(reservationKeys.one(reservation.id), reservation);
    // Covers changed too: the times on the restaurant page and the today strip.
    void queryClient.invalidateQueries({ queryKey: reservationKeys.all });
    void queryClient.invalidateQueries({ queryKey: restaurantKeys.all });
  };
}

/** POST /api/reservations (bearer): a HELD reservation that must be confirmed before holdExpiresAt. */
export function useCreateReservation() {
  const afterChange = useAfterChange();
  return useMutation({
    mutationFn: (body: CreateReservationBody) => apiRequest<DinerReservation>('/api/reservations', { method: 'POST', body, auth: 'customer' }),
    onSuccess: (reservation) => afterChange(reservation),
  });
}

/**
 * POST /api/reservations/{id}/confirm with {} and no token (the hold screen). Where the slot asks a
 * deposit the answer names the payment to approve and the hold stays HELD (its cached read, with
 * the deposit, is kept).
 */
export function useConfirmHold() {
  const afterChange = useAfterChange();
  return useMutation({
    mutationFn: (id: string) => apiRequest<ConfirmReservationResponse>(`/api/reservations/${encodeURIComponent(id)}/confirm`, { method: 'POST', body: {} }),
    onSuccess: ({ payment, ...reservation }) => afterChange(payment ? undefined : reservation),
  });
}

/** POST /api/reservations/{id}/cancel: no token on the hold screen, the bearer from the home panel and /me. */
export function useCancelReservation(withToken: boolean) {
  const afterChange = useAfterChange();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<DinerReservation>(`/api/reservations/${encodeURIComponent(id)}/cancel`, {
        method: 'POST',
        body: {},
        auth: withToken ? 'customer' : undefined,
      }),
    onSuccess: (reservation) => afterChange(reservation),
    // Whatever happened, show the list as the server has it now.
    onError: () => afterChange(),
  });
}

/**
 * PUT /api/reservations/{id}/request (and DELETE to remove it): what the diner tells the
 * restaurant (decision 260). No token on the hold screen, the bearer from /me.
 */
export function useBookingRequest(withToken: boolean) {
  const afterChange = useAfterChange();
  const auth = withToken ? ('customer' as const) : undefined;
  const save = useMutation({
    mutationFn: ({ id, request }: { id: string; request: BookingRequest }) =>
      apiRequest<DinerReservation>(`/api/reservations/${encodeURIComponent(id)}/request`, { method: 'PUT', body: request, auth }),
    onSuccess: (reservation) => afterChange(reservation),
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiRequest<DinerReservation>(`/api/reservations/${encodeURIComponent(id)}/request`, { method: 'DELETE', auth }),
    onSuccess: (reservation) => afterChange(reservation),
  });
  return { save, remove };
}
