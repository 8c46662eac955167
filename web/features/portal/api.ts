import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminBooking,
  AdminBookingsResponse,
  AdminRestaurant,
  AdminSlot,
  BulkSlotsBody,
  BulkSlotsResponse,
  LiveStatus,
  StaffSlotStatus,
  UpdateAdminRestaurantBody,
  UploadResponse,
} from '#common/contract/portal.ts';
import type { ReminderSetting } from '#common/contract/reminders.ts';
import { summaryBuckets, type ReservationStatus } from '#common/domain/reservation-status.ts';
import { ApiError, apiRequest, readToken } from '#web/api/client.ts';

/** The spec promises "Auto-refreshes every 30 seconds"; the live stream makes it sooner. */
export const REFRESH_MS = 30_000;

export const adminKeys = {
  all: ['admin'] as const,
  restaurant: ['admin', 'restaurant'] as const,
  bookings: ['admin', 'bookings'] as const,
  slots: (date: string) => ['admin', 'slots', date] as const,
  allSlots: ['admin', 'slots'] as const,
  depositDay: (date: string) => ['admin', 'deposit-day', date] as const,
  allDepositDays: ['admin', 'deposit-day'] as const,
  reminders: ['admin', 'reminders'] as const,
  bookingSearch: (query: string) => ['admin', 'booking-search', query] as const,
  /** The host view's answers (web/features/floor-live), reloaded by the live stream. */
  floorLive: ['admin', 'floor-live'] as const,
};

/** The spec's client counts itself when liveStatus is absent (section 7); ours always sends it. */
export function countLiveStatus(bookings: AdminBooking[]): LiveStatus {
  const count = (statuses: readonly ReservationStatus[]) => bookings.filter((booking) => statuses.includes(booking.status)).length;
  return { pending: count(summaryBuckets.pending), confirmed: count(summaryBuckets.ongoing), completed: count(summaryBuckets.completed) };
}

export function useAdminRestaurant() {
  return useQuery({
    queryKey: adminKeys.restaurant,
    enabled: Boolean(readToken('restaurant')),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
    staleTime: 60_000,
    meta: { errorLog: 'Failed to fetch restaurant' },
    queryFn: () => apiRequest<AdminRestaurant>('/api/admin/restaurant', { auth: 'restaurant' }),
  });
}

export function useAdminBookings() {
  return useQuery({
    queryKey: adminKeys.bookings,
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: true,
    staleTime: 5_000,
    meta: { errorLog: 'Failed to fetch bookings' },
    queryFn: async () => {
      const body = await apiRequest<AdminBookingsResponse | AdminBooking[]>('/api/admin/bookings', { auth: 'restaurant' });
      if (Array.isArray(body)) return { bookings: body, liveStatus: countLiveStatus(body), today: '' };
      return body;
    },
  });
}

export function useAdminSlots(date: string) {
  return useQuery({
    queryKey: adminKeys.slots(date),
    enabled: Boolean(date),
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: true,
    staleTime: 5_000,
    meta: { errorLog: 'Failed to fetch slots' },
    queryFn: () => apiRequest<AdminSlot[]>(`/api/admin/slots?date=${encodeURIComponent(date)}`, { auth: 'restaurant' }),
  });
}

/** GET /api/admin/reminders: whether this restaurant's diners get reminders. */
export function useReminderSetting() {
  return useQuery({
    queryKey: adminKeys.reminders,
    staleTime: 60_000,
    meta: { errorLog: 'Failed to fetch the reminder setting' },
    queryFn: () => apiRequest<ReminderSetting>('/api/admin/reminders', { auth: 'restaurant' }),
  });
}

/** PUT /api/admin/reminders: the answer is the setting as saved. */
export function useUpdateReminderSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (setting: ReminderSetting) => apiRequest<ReminderSetting>('/api/admin/reminders', { method: 'PUT', body: setting, auth: 'restaurant' }),
    onSuccess: (saved) => queryClient.setQueryData(adminKeys.reminders, saved),
  });
}

/** After each change the dashboard reloads its data (spec section 4). */
function useReloadDashboard() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: adminKeys.bookings }), queryClient.invalidateQueries({ queryKey: adminKeys.allSlots })]);
}

export function useMoveBooking() {
  const reload = useReloadDashboard();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ReservationStatus }) =>
      apiRequest<AdminBooking>(`/api/admin/bookings/${id}`, { method: 'PATCH', body: { status }, auth: 'restaurant' }),
    onError: () => console.error('Failed to update booking status'),
    onSettled: reload,
  });
}

export function useAddSlots() {
  const reload = useReloadDashboard();
  return useMutation({
    mutationFn: (body: BulkSlotsBody) => apiRequest<BulkSlotsResponse>('/api/admin/slots/bulk', { method: 'POST', body, auth: 'restaurant' }),
    onError: () => console.error('Failed to add slots'),
    onSettled: reload,
  });
}

export function useSetSlotStatus() {
  const reload = useReloadDashboard();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: StaffSlotStatus }) =>
      apiRequest<AdminSlot>(`/api/admin/slots/${id}`, { method: 'PATCH', body: { status }, auth: 'restaurant' }),
    onError: () => console.error('Failed to update slot status'),
    onSettled: reload,
  });
}

/** PATCH a slot's capacity, or DELETE it (decision 225): a change that would lose bookings answers 409 with the reason. */
export function useEditSlot() {
  const reload = useReloadDashboard();
  return useMutation({
    mutationFn: ({ id, capacity }: { id: string; capacity: number | null }) =>
      capacity === null
        ? apiRequest<null>(`/api/admin/slots/${id}`, { method: 'DELETE', auth: 'restaurant' })
        : apiRequest<AdminSlot>(`/api/admin/slots/${id}`, { method: 'PATCH', body: { capacity }, auth: 'restaurant' }),
    onSettled: reload,
  });
}

export function useUpdateRestaurant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAdminRestaurantBody) => apiRequest<AdminRestaurant>('/api/admin/restaurant', { method: 'PUT', body, auth: 'restaurant' }),
    onSuccess: (restaurant) => {
      queryClient.setQueryData(adminKeys.restaurant, restaurant);
      // The public pages read the same restaurant: drop any cached copy.
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== adminKeys.all[0] });
    },
    onError: () => console.error('Failed to update restaurant'),
  });
}

/** A multipart upload with the staff's token; errors carry the server's reason for the spec's alert. */
export async function postStaffForm<T>(path: string, form: FormData): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = readToken('restaurant');
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', body: form, headers });
  } catch {
    throw new ApiError({ status: 0, serverMessage: '', isNetworkError: true });
  }
  const payload = (await response.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!response.ok || !payload) {
    throw new ApiError({ status: response.status, serverMessage: typeof payload?.error === 'string' ? payload.error : '', statusText: response.statusText });
  }
  return payload;
}

/** POST /api/upload (multipart). */
export async function uploadHeroPhoto(file: File, restaurantId: string): Promise<UploadResponse> {
  const form = new FormData();
  form.append('restaurantId', restaurantId);
  form.append('image', file);
  const payload = await postStaffForm<{ url?: string; heroImageUrl?: string }>('/api/upload', form);
  const url = payload.url ?? payload.heroImageUrl;
  if (!url) throw new ApiError({ status: 200, serverMessage: 'The server did not say where the photo is' });
  return { url, heroImageUrl: url };
}
