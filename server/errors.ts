/**
 * The one error type services throw. The error handler maps its code to an HTTP
 * status; the message is a sentence a person can read and is sent as `{error}`.
 */
export const appErrorStatus = {
  BAD_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
} as const;

export type AppErrorCode = keyof typeof appErrorStatus;

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details?: unknown;

  constructor(code: AppErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return appErrorStatus[this.code];
  }
}

export const badInput = (message: string, details?: unknown) => new AppError('BAD_INPUT', message, details);
export const unauthenticated = (message = 'Please sign in to continue') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message = 'That is not yours') => new AppError('FORBIDDEN', message);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const conflict = (message: string, details?: unknown) => new AppError('CONFLICT', message, details);

/** The credential was valid but what it stood for (account, restaurant) is gone: sign in again. */
export const sessionExpired = () => unauthenticated('Your session has expired. Please sign in again.');

/**
 * True when `error` (or the driver error it wraps) is PostgreSQL's unique violation (SQLSTATE
 * 23505), of the constraint or unique index named `constraint` when one is given. Both drivers
 * (pg and PGlite) are covered: Drizzle wraps their error in `cause`.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const candidate = ((error as { cause?: unknown })?.cause ?? error) as { code?: string; constraint?: string; message?: string } | undefined;
  if (candidate?.code !== '23505') return false;
  return constraint === undefined || candidate.constraint === constraint || Boolean(candidate.message?.includes(constraint));
}
