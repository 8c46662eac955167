import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FloorLive, FloorParty, MoveFloorPartyBody, SeatBookingBody, SeatWalkInBody } from '#common/contract/floor-live.ts';
import type { AdminBooking } from '#common/contract/portal.ts';
import { apiRequest } from '#web/api/client.ts';
import { adminKeys, REFRESH_MS } from '#web/features/portal/api.ts';

/** Under the portal's keys, so signing out forgets them; the portal's live stream reloads them (live.ts). */
export const floorLiveKeys = {
  all: adminKeys.floorLive,
  day: (date: string) => [...adminKeys.floorLive, date] as const,
};

/**
 * The host view of the server's today (its clock decides the day and "now", not the device's):
 * every table now and the day's parties; the live stream makes it sooner than the refresh.
 */
export function useFloorLive() {
  return useQuery({
    queryKey: floorLiveKeys.day('today'),
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: true,
    staleTime: 5_000,
    meta: { errorLog: 'Failed to fetch the floor' },
    queryFn: () => apiRequest<FloorLive>('/api/admin/floor/live', { auth: 'restaurant' }),
  });
}

/** One host action; the floor and the bookings list are read again whatever the answer. */
export type FloorAction =
  | { kind: 'accept'; reservationId: string }
  | { kind: 'seat'; reservationId: string; body: SeatBookingBody }
  | { kind: 'walkIn'; body: SeatWalkInBody }
  | { kind: 'move'; assignmentId: string; body: MoveFloorPartyBody }
  | { kind: 'finish'; assignmentId: string }
  | { kind: 'noShow'; reservationId: string };

function send(action: FloorAction): Promise<FloorParty | AdminBooking> {
  const auth = 'restaurant' as const;
  switch (action.kind) {
    case 'accept':
      return apiRequest(`/api/admin/bookings/${action.reservationId}`, { method: 'PATCH', body: { status: 'CONFIRMED' }, auth });
    case 'seat':
      return apiRequest(`/api/admin/floor/live/bookings/${action.reservationId}/seat`, { method: 'POST', body: action.body, auth });
    case 'walkIn':
      return apiRequest('/api/admin/floor/live/walk-ins', { method: 'POST', body: action.body, auth });
    case 'move':
      return apiRequest(`/api/admin/floor/live/parties/${action.assignmentId}/move`, { method: 'POST', body: action.body, auth });
    case 'finish':
      return apiRequest(`/api/admin/floor/live/parties/${action.assignmentId}/finish`, { method: 'POST', body: {}, auth });
    case 'noShow':
      return apiRequest(`/api/admin/floor/live/bookings/${action.reservationId}/no-show`, { method: 'POST', body: {}, auth });
  }
}

export function useFloorAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: floorLiveKeys.all }), queryClient.invalidateQueries({ queryKey: adminKeys.bookings })]),
  });
}
