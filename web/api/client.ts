/**
 * The one fetch wrapper. Errors come back as ApiError carrying the server's `{error}`
 * sentence, the status, and whether the network (not the server) failed, so each
 * screen can show the spec's exact fallback texts.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly details: unknown;
  /** True when no answer arrived (offline, DNS, refused) or it was not JSON. */
  readonly isNetworkError: boolean;
  /** The server's own error sentence, or '' when it gave none. */
  readonly serverMessage: string;

  constructor(options: { status: number; serverMessage: string; details?: unknown; isNetworkError?: boolean; statusText?: string }) {
    super(options.serverMessage || options.statusText || 'Request failed');
    this.name = 'ApiError';
    this.status = options.status;
    this.details = options.details;
    this.isNetworkError = options.isNetworkError ?? false;
    this.serverMessage = options.serverMessage;
  }
}

/** Separate storage keys for the bearer credentials (spec section 9; moderators: decision 185). */
export const TOKEN_KEYS = {
  customer: 'tablefair.customerToken',
  restaurant: 'tablefair.restaurantToken',
  moderator: 'tablefair.moderatorToken',
} as const;
export type TokenKind = keyof typeof TOKEN_KEYS;

export function readToken(kind: TokenKind): string | null {
  try {
    return localStorage.getItem(TOKEN_KEYS[kind]);
  } catch {
    return null;
  }
}

export function writeToken(kind: TokenKind, token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_KEYS[kind], token);
    else localStorage.removeItem(TOKEN_KEYS[kind]);
  } catch {
    // Private mode without storage: the session simply does not persist.
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Which stored bearer token to send, if any. */
  auth?: TokenKind;
  /** Send cookies (the dating section). */
  credentials?: RequestCredentials;
  signal?: AbortSignal;
}

/** True when the request was cancelled by its signal, rather than failed. */
function wasAborted(error: unknown, signal: AbortSignal | undefined): boolean {
  return (error as Error | null)?.name === 'AbortError' || signal?.aborted === true;
}

/** Calls the API and returns its JSON, or throws ApiError (an aborted request rethrows its AbortError). */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.auth) {
    const token = readToken(options.auth);
    if (token) headers.authorization = `Bearer ${token}`;
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: options.credentials ?? 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (wasAborted(error, options.signal)) throw error;
    throw new ApiError({ status: 0, serverMessage: '', isNetworkError: true });
  }
  if (response.status === 204) return undefined as T;
  let payload: unknown;
  try {
    payload = await response.json();
  } catch (error) {
    // Aborted while the body was still arriving (the screen went away): not a failure to report.
    if (wasAborted(error, options.signal)) throw error;
    throw new ApiError({ status: response.status, serverMessage: '', isNetworkError: true, statusText: response.statusText });
  }
  if (!response.ok) {
    const body = payload as { error?: unknown; details?: unknown } | null;
    throw new ApiError({
      status: response.status,
      serverMessage: typeof body?.error === 'string' ? body.error : '',
      details: body?.details,
      statusText: response.statusText,
    });
  }
  return payload as T;
}

/** The message to show for a failed call: the server's sentence, else the screen's fallback. */
export function errorMessage(error: unknown, fallbacks: { server: string; network: string }): string {
  if (error instanceof ApiError) {
    if (error.isNetworkError) return fallbacks.network;
    return error.serverMessage || fallbacks.server;
  }
  return fallbacks.network;
}
