/**
 * Where to go after signing in. The restaurant page sends the diner to
 * /login?next=/r/{slug}?date=…&time=…&party=… so the chosen table survives the detour.
 */

/** Only same-site paths may be returned to (never //evil.example, /\evil.example or https://…). */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (/[\u0000-\u001f]/.test(value)) return null;
  return value;
}

/** /login, remembering where to come back to. */
export function loginPath(returnTo?: string | null): string {
  const next = safeReturnPath(returnTo);
  return next && next !== '/' ? `/login?next=${encodeURIComponent(next)}` : '/login';
}

/** /signup, carrying the same return path on to the login after it. */
export function signupPath(returnTo?: string | null): string {
  const next = safeReturnPath(returnTo);
  return next && next !== '/' ? `/signup?next=${encodeURIComponent(next)}` : '/signup';
}
