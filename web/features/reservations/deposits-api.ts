import { useQuery } from '@tanstack/react-query';
import type { MyDepositsResponse } from '#common/contract/deposit-receipts.ts';
import { apiRequest } from '#web/api/client.ts';
import { reservationKeys } from './keys.ts';

/** GET /api/me/deposits: the signed-in diner's deposits, each with its receipt. */
export function useMyDeposits(enabled: boolean) {
  return useQuery({
    queryKey: reservationKeys.deposits,
    enabled,
    meta: { errorLog: 'Failed to fetch deposits' },
    queryFn: () => apiRequest<MyDepositsResponse>('/api/me/deposits', { auth: 'customer' }),
    // A release or fee under way settles when the provider answers: read again until it has.
    refetchInterval: (query) => (query.state.data?.deposits.some((deposit) => deposit.state === 'releasing' || deposit.state === 'keeping') ? 2000 : false),
  });
}
