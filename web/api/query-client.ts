import { QueryCache, QueryClient, isCancelledError, type Query } from '@tanstack/react-query';
import { ApiError } from './client.ts';

/** What a query asks the one error handler to do when it finally fails (after its retries). */
export interface QueryErrorMeta extends Record<string, unknown> {
  /** Logged with the error: the spec's "failed … fetches are only logged" (e.g. 'Failed to fetch bookings'). */
  errorLog?: string;
  /** Called on a 401: the credential was rejected, so the screen falls back to signed out. */
  onUnauthorized?: () => void;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: QueryErrorMeta;
  }
}

/** True for a fetch that was aborted (the screen went away) rather than one that failed. */
export function isAbortError(error: unknown): boolean {
  return isCancelledError(error) || (error as Error | null)?.name === 'AbortError';
}

/**
 * The QueryCache's onError: the one place a failed query is logged and a rejected token is
 * forgotten, instead of a try/catch in every query function. Aborted fetches stay quiet.
 * What the user sees is still decided by each screen from the query's `error`.
 */
export function handleQueryError(error: unknown, query: Pick<Query<unknown, unknown, unknown, readonly unknown[]>, 'meta'>): void {
  if (isAbortError(error)) return;
  const meta = query.meta;
  if (meta?.errorLog) console.error(meta.errorLog, error);
  if (meta?.onUnauthorized && error instanceof ApiError && error.status === 401) meta.onUnauthorized();
}

/** The app's QueryClient (web/main.tsx). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: handleQueryError }),
    defaultOptions: {
      queries: { staleTime: 15_000, refetchOnWindowFocus: true, retry: 1 },
    },
  });
}
