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
