import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DepositDayResponse } from '#common/contract/deposit-receipts.ts';
import { apiRequest, readToken } from '#web/api/client.ts';
import { adminKeys } from './api.ts';

/** GET /api/admin/deposits?date=: each booking's deposit state and the day's totals. */
export function useDepositDay(date: string) {
  return useQuery({
    queryKey: adminKeys.depositDay(date),
    enabled: Boolean(readToken('restaurant')),
    staleTime: 15_000,
    meta: { errorLog: 'Failed to fetch the deposit day' },
    queryFn: () => apiRequest<DepositDayResponse>(`/api/admin/deposits?date=${encodeURIComponent(date)}`, { auth: 'restaurant' }),
  });
}

/** Downloads the month's ledger CSV with the staff's token (a plain link could not send it). */
export async function downloadLedgerCsv(month: string): Promise<void> {
  const response = await fetch(`/api/admin/ledger.csv?month=${encodeURIComponent(month)}`, {
    headers: { authorization: `Bearer ${readToken('restaurant') ?? ''}` },
  });
  if (!response.ok) throw new Error('The ledger could not be downloaded. Please try again.');
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `ledger-${month}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

/** The webhook that settles a waiver arrives a moment after the answer; the cards read again then. */
const SETTLE_REREAD_MS = 1_500;

/** POST /api/admin/bookings/{id}/waive-fee, then the booking cards and the day's totals read again. */
export function useWaiveFee() {
  const queryClient = useQueryClient();
  const reread = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: adminKeys.allDepositDays }), queryClient.invalidateQueries({ queryKey: adminKeys.bookings })]);
  return useMutation({
    mutationFn: ({ id }: { id: string }) =>
      apiRequest<void>(`/api/admin/bookings/${encodeURIComponent(id)}/waive-fee`, { method: 'POST', body: {}, auth: 'restaurant' }),
    onSuccess: () => {
      window.setTimeout(() => void reread(), SETTLE_REREAD_MS);
    },
    onSettled: reread,
  });
}

/** Downloads the month's deposit statement (rupees, IST, one row a deposit) with the staff's token. */
export async function downloadStatementCsv(month: string): Promise<void> {
  const response = await fetch(`/api/admin/statement.csv?month=${encodeURIComponent(month)}`, {
    headers: { authorization: `Bearer ${readToken('restaurant') ?? ''}` },
  });
  if (!response.ok) throw new Error('The statement could not be downloaded. Please try again.');
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `deposit-statement-${month}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}
