import type {
  DatingAnswerBody,
  DatingPreferencesBody,
  DatingReportBody,
  DatingSuggestionsResponse,
  DatingLoginBody,
  DatingPresignBody,
  DatingPresignResponse,
  DatingProfile,
  DatingSignupBody,
  DatingSignupStarted,
  DatingSignupVerifyBody,
} from '#common/contract/dating.ts';
import type { AcceptDatePlanResponse, AfterDateBody, DatePlan, DatePlanShareLink, DatePlansResponse, SharedDatePlan } from '#common/contract/dating-plans.ts';
import type { DevMailboxResponse } from '#common/contract/waitlist.ts';
import { DATING_MESSAGES } from '#common/contract/dating.ts';

/**
 * The dating section's own request helper (spec sections 6-8): every call goes to the
 * optional API base prefix (VITE_DATING_API_BASE, empty by default), sends credentials
 * (the session is an httpOnly cookie), and a failed response throws an error whose message
 * is the server's `error` field, else the status text, carrying the status and details.
 */
export const DATING_API_BASE: string = (import.meta.env.VITE_DATING_API_BASE as string | undefined)?.replace(/\/$/, '') ?? '';

export class DatingRequestError extends Error {
  readonly status: number;
  readonly details: unknown;

  constructor(message: string, status: number, details?: unknown) {
    super(message);
    this.name = 'DatingRequestError';
    this.status = status;
    this.details = details;
  }
}

/** An API path with the configured prefix; absolute URLs (S3 presigned) are left alone. */
export function datingUrl(path: string): string {
  return path.startsWith('/') ? `${DATING_API_BASE}${path}` : path;
}

async function readError(response: Response): Promise<DatingRequestError> {
  type ErrorBody = { error?: unknown; details?: unknown } | null;
  let body: ErrorBody = null;
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    // Not JSON: fall back to the status text.
  }
  const message = typeof body?.error === 'string' && body.error ? body.error : response.statusText;
  return new DatingRequestError(message, response.status, body?.details);
}

export async function datingRequest<T>(
  path: string,
  options: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(datingUrl(path), {
      method: options.method ?? 'GET',
      credentials: 'include',
      headers: { accept: 'application/json', ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    // No answer at all: the screen shows its own fallback text.
    throw new DatingRequestError('', 0);
  }
  if (!response.ok) throw await readError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** The message a screen shows for a failure: the error's own, else the screen's fallback. */
export function datingErrorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

export const datingApi = {
  me: (signal?: AbortSignal) => datingRequest<DatingProfile>('/dating/auth/me', { signal }),
  login: (body: DatingLoginBody) => datingRequest<DatingProfile>('/dating/auth/login', { method: 'POST', body }),
  logout: () => datingRequest<void>('/dating/auth/logout', { method: 'POST', body: {} }),
  presign: (body: DatingPresignBody) => datingRequest<DatingPresignResponse>('/dating/uploads/presign', { method: 'POST', body }),
  /** Step 1: answers 202 with a signupId; a code goes to the phone (decision 101). */
  signup: (body: DatingSignupBody) => datingRequest<DatingSignupStarted>('/dating/auth/signup', { method: 'POST', body }),
  /** Step 2: the code creates the account and signs in. */
  verifySignup: (body: DatingSignupVerifyBody) => datingRequest<DatingProfile>('/dating/auth/signup/verify', { method: 'POST', body }),
  /** Demo only: the text the signup sent (404 where the dev mailbox is off, as in production). */
  devSignupText: (signupId: string, signal?: AbortSignal) =>
    datingRequest<DevMailboxResponse>(`/dating/dev/mailbox?signup=${encodeURIComponent(signupId)}`, { signal }),
  savePreferences: (body: DatingPreferencesBody) => datingRequest<DatingProfile>('/dating/me/preferences', { method: 'PUT', body }),
  suggestions: (signal?: AbortSignal) => datingRequest<DatingSuggestionsResponse>('/dating/suggestions', { signal }),
  answer: (memberId: string, body: DatingAnswerBody) =>
    datingRequest<{ isMatch: boolean }>(`/dating/suggestions/${encodeURIComponent(memberId)}/answer`, { method: 'POST', body }),
  report: (memberId: string, body: DatingReportBody) =>
    datingRequest<void>(`/dating/suggestions/${encodeURIComponent(memberId)}/report`, { method: 'POST', body }),
  block: (memberId: string) => datingRequest<void>(`/dating/suggestions/${encodeURIComponent(memberId)}/block`, { method: 'POST', body: {} }),
  /** The member's date plans, newest first, and their strikes (decision 184). */
  plans: (signal?: AbortSignal) => datingRequest<DatePlansResponse>('/dating/plans', { signal }),
  /** Accepts a proposed plan: the deposit's payment starts, to be approved at `payment.approvalUrl`. */
  acceptPlan: (planId: string) => datingRequest<AcceptDatePlanResponse>(`/dating/plans/${encodeURIComponent(planId)}/accept`, { method: 'POST', body: {} }),
  declinePlan: (planId: string) => datingRequest<DatePlan>(`/dating/plans/${encodeURIComponent(planId)}/decline`, { method: 'POST', body: {} }),
  /** Asks once for another option: answers the new plan (409 with a reason when there is none). */
  askAnotherPlan: (planId: string) => datingRequest<DatePlan>(`/dating/plans/${encodeURIComponent(planId)}/another`, { method: 'POST', body: {} }),
  /** Cancels a booked plan; within 24 hours of the start this counts as a flake. */
  cancelPlan: (planId: string) => datingRequest<DatePlan>(`/dating/plans/${encodeURIComponent(planId)}/cancel`, { method: 'POST', body: {} }),
  /** A link for a trusted contact, working until the end of the date. */
  sharePlan: (planId: string) => datingRequest<DatePlanShareLink>(`/dating/plans/${encodeURIComponent(planId)}/share`, { method: 'POST', body: {} }),
  /** "Stop sharing": every link the member made for the plan ends now (decision 208); answers the plan. */
  stopSharingPlan: (planId: string) => datingRequest<DatePlan>(`/dating/plans/${encodeURIComponent(planId)}/share`, { method: 'DELETE' }),
  /** "Did they show up?" and "Would you meet again?", once, after a date both came to. */
  answerAfterDate: (planId: string, body: AfterDateBody) =>
    datingRequest<DatePlan>(`/dating/plans/${encodeURIComponent(planId)}/after-date`, { method: 'PUT', body }),
  /** A shared plan, as the trusted contact sees it (no session: the link is the access). */
  sharedPlan: (token: string, signal?: AbortSignal) => datingRequest<SharedDatePlan>(`/api/date-share/${encodeURIComponent(token)}`, { signal }),
};

/** PUT {uploadUrl}: the raw file with its content type. Any failure is 'Upload failed'. */
export async function uploadPhoto(uploadUrl: string, file: Blob, contentType: string): Promise<void> {
  const url = datingUrl(uploadUrl);
  const isOwnServer = uploadUrl.startsWith('/');
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': contentType },
      body: file,
      // Our own upload URL carries its permission in the link; a bucket gets no cookies.
      credentials: isOwnServer ? 'include' : 'omit',
    });
  } catch {
    throw new DatingRequestError(DATING_MESSAGES.uploadFailed, 0);
  }
  if (!response.ok) throw new DatingRequestError(DATING_MESSAGES.uploadFailed, response.status);
}
