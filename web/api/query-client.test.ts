import { afterEach, describe, expect, it, vi } from 'vitest';
import { CancelledError } from '@tanstack/react-query';
import { ApiError, apiRequest } from './client.ts';
import { createQueryClient, handleQueryError } from './query-client.ts';

describe('the one QueryCache onError', () => {
  afterEach(() => vi.restoreAllMocks());

  it('logs a failed query with its message and forgets a rejected token', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onUnauthorized = vi.fn();
    const rejected = new ApiError({ status: 401, serverMessage: 'Sign in again' });
    handleQueryError(rejected, { meta: { errorLog: 'Could not load your reservations', onUnauthorized } });
    expect(log).toHaveBeenCalledWith('Could not load your reservations', rejected);
    expect(onUnauthorized).toHaveBeenCalledOnce();

    handleQueryError(new ApiError({ status: 0, serverMessage: '', isNetworkError: true }), { meta: { onUnauthorized } });
    handleQueryError(new ApiError({ status: 500, serverMessage: 'Boom' }), { meta: undefined });
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(log).toHaveBeenCalledOnce();
  });

  it('keeps aborted fetches quiet', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onUnauthorized = vi.fn();
    const abort = Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
    handleQueryError(abort, { meta: { errorLog: 'Failed to fetch drops', onUnauthorized } });
    handleQueryError(new CancelledError(), { meta: { errorLog: 'Failed to fetch drops', onUnauthorized } });
    expect(log).not.toHaveBeenCalled();
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('keeps a fetch aborted while its body arrives quiet (not "ApiError: OK")', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const controller = new AbortController();
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    vi.spyOn(globalThis, 'fetch').mockResolvedValue({
      status: 200,
      ok: true,
      statusText: 'OK',
      json: () => {
        controller.abort();
        return Promise.reject(abort);
      },
    } as unknown as Response);
    const failure = await apiRequest('/api/restaurants/x/availability', { signal: controller.signal }).catch((error: unknown) => error);
    expect(failure).toBe(abort);
    expect(failure).not.toBeInstanceOf(ApiError);
    handleQueryError(failure, { meta: { errorLog: 'Could not load today’s availability' } });
    expect(log).not.toHaveBeenCalled();
  });

  it('runs for every failed query of the app client, once, after its retries', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = createQueryClient();
    const failure = new ApiError({ status: 503, serverMessage: '' });
    await expect(
      client.fetchQuery({
        queryKey: ['test'],
        retry: 1,
        retryDelay: 0,
        meta: { errorLog: 'Failed to fetch bookings' },
        queryFn: () => Promise.reject(failure),
      }),
    ).rejects.toBe(failure);
    expect(log).toHaveBeenCalledExactlyOnceWith('Failed to fetch bookings', failure);
    client.clear();
  });
});
