import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginBody, LoginResponse } from '#common/contract/accounts.ts';
import type { ModerationReportStatus, ModerationReportsResponse, ModerationReviewBody, ModerationReviewResponse } from '#common/contract/moderation.ts';
import { ApiError, apiRequest, readToken, writeToken } from '#web/api/client.ts';
import { moderationKeys } from './keys.ts';

/** Where a moderator signs in, and lands afterwards. */
export const MODERATION_LOGIN_PATH = '/moderation/login';
export const MODERATION_PATH = '/moderation';

export function hasModeratorToken(): boolean {
  return Boolean(readToken('moderator'));
}

/** POST /api/moderation/auth/login: keeps the bearer token under its own key. */
export async function logInModerator(credentials: LoginBody): Promise<void> {
  const { token } = await apiRequest<LoginResponse>('/api/moderation/auth/login', { method: 'POST', body: credentials });
  writeToken('moderator', token);
}

/** Revokes the token on the server (best effort) and forgets it here. */
export function logOutModerator(): void {
  void apiRequest('/api/moderation/auth/logout', { method: 'POST', auth: 'moderator' }).catch(() => undefined);
  writeToken('moderator', null);
}

/** The reported members with their reports of `status`; a 401 calls `onUnauthorized` (the token is no good). */
export function useModerationReports(status: ModerationReportStatus, onUnauthorized: () => void) {
  return useQuery({
    queryKey: moderationKeys.reports(status),
    enabled: hasModeratorToken(),
    // A refusal will not change by asking again; a network failure might.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
    refetchInterval: 60_000,
    meta: { errorLog: 'Failed to fetch the moderation list', onUnauthorized },
    queryFn: ({ signal }) => apiRequest<ModerationReportsResponse>(`/api/moderation/reports?status=${status}`, { auth: 'moderator', signal }),
  });
}

/** Dismisses a member's open reports, or suspends the member; the list is read again either way. */
export function useReviewMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ memberId, review }: { memberId: string; review: ModerationReviewBody }) =>
      apiRequest<ModerationReviewResponse>(`/api/moderation/members/${memberId}/review`, { method: 'POST', auth: 'moderator', body: review }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: moderationKeys.all }),
  });
}
