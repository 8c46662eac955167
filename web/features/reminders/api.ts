import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarLink, ReminderLinkView } from '#common/contract/reminders.ts';
import { ApiError, apiRequest } from '#web/api/client.ts';
import { reminderKeys } from './keys.ts';

const linkPath = (token: string) => `/api/reminder-links/${encodeURIComponent(token)}`;

/** GET /api/reminder-links/{token}: what the link will do. Reading changes nothing (a mail scanner may open it). */
export function useReminderLink(token: string) {
  return useQuery({
    queryKey: reminderKeys.link(token),
    // A refused link (400, 404) is an answer, not a blip: no retry.
    retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 1,
    queryFn: ({ signal }) => apiRequest<ReminderLinkView>(linkPath(token), { signal }),
  });
}

/** POST /api/reminder-links/{token}: the diner's one answer; the page then shows what happened. */
export function useAnswerReminderLink(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<ReminderLinkView>(linkPath(token), { method: 'POST', body: {} }),
    onSuccess: (view) => queryClient.setQueryData(reminderKeys.link(token), view),
  });
}

/** GET /api/reservations/{id}/calendar-link with the diner's token: where the .ics file is. */
export function fetchCalendarLink(reservationId: string): Promise<CalendarLink> {
  return apiRequest<CalendarLink>(`/api/reservations/${encodeURIComponent(reservationId)}/calendar-link`, { auth: 'customer' });
}
