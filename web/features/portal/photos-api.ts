import type { AdminRestaurant } from '#common/contract/portal.ts';
import { apiRequest } from '#web/api/client.ts';
import { postStaffForm } from './api.ts';

export type AdminPhoto = AdminRestaurant['photos'][number];

/** POST /api/admin/restaurant/photos (multipart): one photo of the room or food, or a menu page. */
export function uploadRestaurantPhoto(file: File, purpose: 'gallery' | 'menu', alt: string): Promise<AdminPhoto> {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('alt', alt);
  form.append('photo', file);
  return postStaffForm<AdminPhoto>('/api/admin/restaurant/photos', form);
}

export const removeRestaurantPhoto = (photoId: string) => apiRequest<void>(`/api/admin/restaurant/photos/${photoId}`, { method: 'DELETE', auth: 'restaurant' });
export const makePhotoCover = (photoId: string) =>
  apiRequest<void>(`/api/admin/restaurant/photos/${photoId}/cover`, { method: 'POST', body: {}, auth: 'restaurant' });
