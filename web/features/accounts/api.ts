import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DinerProfile, LoginBody, LoginResponse, SignupBody } from '#common/contract/accounts.ts';
import { apiRequest } from '#web/api/client.ts';
import { currentDinerKey, setCustomerToken } from './session.ts';

/** POST /api/auth/login, then keep the token; whatever the previous diner had cached is dropped. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => apiRequest<LoginResponse>('/api/auth/login', { method: 'POST', body }),
    onSuccess: ({ token }) => {
      queryClient.removeQueries({ queryKey: currentDinerKey });
      queryClient.removeQueries({ queryKey: ['reservations'] });
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
