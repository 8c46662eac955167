import type { AdminRestaurant } from '#common/contract/portal.ts';
import { ApiError, apiRequest, readToken } from '#web/api/client.ts';

export type AdminPhoto = AdminRestaurant['photos'][number];

/** POST /api/admin/restaurant/photos (multipart): one photo of the room or food, or a menu page. */
export async function uploadRestaurantPhoto(file: File, purpose: 'gallery' | 'menu', alt: string): Promise<AdminPhoto> {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('alt', alt);
  form.append('photo', file);
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = readToken('restaurant');
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch('/api/admin/restaurant/photos', { method: 'POST', body: form, headers });
  } catch {
    throw new ApiError({ status: 0, serverMessage: '', isNetworkError: true });
  }
  const payload = (await response.json().catch(() => null)) as (AdminPhoto & { error?: string }) | null;
  if (!response.ok || !payload) {
    throw new ApiError({ status: response.status, serverMessage: typeof payload?.error === 'string' ? payload.error : '', statusText: response.statusText });
  }
  return payload;
}

export const removeRestaurantPhoto = (photoId: string) => apiRequest<void>(`/api/admin/restaurant/photos/${photoId}`, { method: 'DELETE', auth: 'restaurant' });
export const makePhotoCover = (photoId: string) =>
  apiRequest<void>(`/api/admin/restaurant/photos/${photoId}/cover`, { method: 'POST', body: {}, auth: 'restaurant' });
