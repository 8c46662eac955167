import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DinerProfile, LoginBody, LoginResponse, SignupBody } from '#common/contract/accounts.ts';
import { apiRequest } from '#web/api/client.ts';
import { reservationKeys } from '#web/features/reservations/keys.ts';
import { accountKeys } from './keys.ts';
import { setCustomerToken } from './session.ts';

/** POST /api/auth/login, then keep the token; whatever the previous diner had cached is dropped. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => apiRequest<LoginResponse>('/api/auth/login', { method: 'POST', body }),
    onSuccess: ({ token }) => {
      queryClient.removeQueries({ queryKey: accountKeys.me });
      queryClient.removeQueries({ queryKey: reservationKeys.all });
      setCustomerToken(token);
    },
  });
}

/** POST /api/auth/signup (the spec's client does not sign in afterwards: the diner logs in). */
export function useSignup() {
  return useMutation({
    mutationFn: (body: SignupBody) => apiRequest<DinerProfile>('/api/auth/signup', { method: 'POST', body }),
  });
}
