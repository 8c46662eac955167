import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GuestCard, GuestList, GuestListQuery, GuestNotesBody, TonightsBrief } from '#common/contract/guests.ts';
import { apiRequest, readToken } from '#web/api/client.ts';

/** Query keys of the staff's guest screens; all start with ['admin', 'guests'], so signing out clears them. */
export const guestKeys = {
  all: ['admin', 'guests'] as const,
  cardOfBooking: (reservationId: string) => ['admin', 'guests', 'booking', reservationId] as const,
  guest: (guestId: string) => ['admin', 'guests', 'guest', guestId] as const,
  list: (query: GuestListQuery) => ['admin', 'guests', 'list', query] as const,
  brief: (date: string) => ['admin', 'guests', 'brief', date] as const,
};

/** Which guest a card shows: the diner of a booking, or a guest picked from the list. */
export type GuestRef = { reservationId: string } | { guestId: string };

function cardPath(ref: GuestRef): string {
  return 'reservationId' in ref ? `/api/admin/guest-cards/${encodeURIComponent(ref.reservationId)}` : `/api/admin/guests/${encodeURIComponent(ref.guestId)}`;
}

function cardKey(ref: GuestRef) {
  return 'reservationId' in ref ? guestKeys.cardOfBooking(ref.reservationId) : guestKeys.guest(ref.guestId);
}

/** GET the guest card (staff of the booking's restaurant only). */
export function useGuestCard(ref: GuestRef) {
  return useQuery({
    queryKey: cardKey(ref),
    staleTime: 15_000,
    retry: false,
    queryFn: ({ signal }) => apiRequest<GuestCard>(cardPath(ref), { auth: 'restaurant', signal }),
  });
}

/** PUT the restaurant's tags and note; every guest screen reads again. */
export function useSaveGuestNotes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ guestId, body }: { guestId: string; body: GuestNotesBody }) =>
      apiRequest<GuestCard>(`/api/admin/guests/${encodeURIComponent(guestId)}/notes`, { method: 'PUT', body, auth: 'restaurant' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: guestKeys.all }),
  });
}

/** The query string of the list and its CSV, without the blanks. */
export function guestQueryString(query: GuestListQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function useGuestList(query: GuestListQuery) {
  return useQuery({
    queryKey: guestKeys.list(query),
    enabled: Boolean(readToken('restaurant')),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    queryFn: ({ signal }) => apiRequest<GuestList>(`/api/admin/guests${guestQueryString(query)}`, { auth: 'restaurant', signal }),
  });
}

export function useTonightsBrief(date: string) {
  return useQuery({
    queryKey: guestKeys.brief(date),
    enabled: Boolean(readToken('restaurant')),
    staleTime: 15_000,
    queryFn: ({ signal }) => apiRequest<TonightsBrief>(`/api/admin/guests/brief?date=${encodeURIComponent(date)}`, { auth: 'restaurant', signal }),
  });
}

/** Downloads the guest list's CSV with the staff's token (a plain link could not send it). */
export async function downloadGuestsCsv(query: GuestListQuery): Promise<void> {
  const response = await fetch(`/api/admin/guests.csv${guestQueryString(query)}`, { headers: { authorization: `Bearer ${readToken('restaurant') ?? ''}` } });
  if (!response.ok) throw new Error('The guest list could not be downloaded. Please try again.');
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'guests.csv';
  link.click();
  URL.revokeObjectURL(url);
}
