import { expect } from 'vitest';
import type { apiClient } from './fixtures.ts';

/** The deposit every deposit journey asks: ₹500 a guest. */
export const PER_COVER_PAISE = 50_000;

/**
 * Staff's token at `restaurant`, signed in once. The first call also sets the restaurant's
 * policy: ₹500 a guest, kept whole on a late cancel or a no-show, and free to cancel until
 * `freeCancelMinutes` before the start.
 */
export function depositStaff(api: () => ReturnType<typeof apiClient>, restaurant: string, freeCancelMinutes: number): () => Promise<string> {
  let token: string | undefined;
  return async () => {
    if (token) return token;
    const staff = await api()<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: { username: restaurant, password: 'staff1234' } });
    expect(staff.status).toBe(200);
    const policy = await api()('/api/admin/deposit-policy', {
      method: 'PUT',
      token: staff.body.token,
      body: {
        defaultCharge: { kind: 'deposit', perCoverPaise: PER_COVER_PAISE },
        rules: [],
        freeCancelMinutes,
        lateCancelKeepPercent: 100,
        noShowKeepPercent: 100,
      },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    token = staff.body.token;
    return token;
  };
}
