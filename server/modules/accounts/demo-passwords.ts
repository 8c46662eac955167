import { badInput } from '#server/errors.ts';
import { verifyAgainstDecoy, verifyPassword } from './password.ts';

/**
 * The demo accounts' passwords, published in the README and on the sign-in pages (decision 201).
 * Anyone can read them, so a production server never seeds an account with one, never signs one
 * in (whatever account holds it), and never lets a new account choose one, a reset set one or the
 * platform give one to a restaurant login.
 */
export const DEMO_DINER_PASSWORD = 'demo1234';
export const DEMO_STAFF_PASSWORD = 'staff1234';
export const DEMO_MODERATOR_PASSWORD = 'moderate1234';

const PUBLISHED_DEMO_PASSWORDS: ReadonlySet<string> = new Set([DEMO_DINER_PASSWORD, DEMO_STAFF_PASSWORD, DEMO_MODERATOR_PASSWORD]);

/** True when `password` is one of the published ones, compared as the hash compares (NFKC). */
export function isPublishedDemoPassword(password: string): boolean {
  return PUBLISHED_DEMO_PASSWORDS.has(password.normalize('NFKC'));
}

/** Whether the demo accounts, and their published passwords, may exist: never in production. */
export function demoAccountsAllowed(nodeEnv: string): boolean {
  return nodeEnv !== 'production';
}

/** The refusal of a published password as a new password (signup, reset, the platform's new password) in production. */
export const PUBLISHED_PASSWORD_REFUSED = 'password: This password is published for the demo; choose another';

/** Throws the 400 of a published password chosen as a new one, on a server where demo accounts may not exist. */
export function refusePublishedPassword(nodeEnv: string, password: string): void {
  if (!demoAccountsAllowed(nodeEnv) && isPublishedDemoPassword(password)) throw badInput(PUBLISHED_PASSWORD_REFUSED);
}

/**
 * Whether `password` opens an account whose hash is `stored` (a decoy's when there is no account,
 * so the time taken never tells), for every sign-in: diners, staff, moderators and dating members.
 * A published password is checked like any other, then refused in production, whichever account
 * holds it.
 */
export async function signInPasswordOpens(
  config: { nodeEnv: string; passwordHashCost: number },
  password: string,
  stored: string | undefined,
): Promise<boolean> {
  const matches = stored ? await verifyPassword(password, stored) : await verifyAgainstDecoy(password, config.passwordHashCost);
  return matches && !(!demoAccountsAllowed(config.nodeEnv) && isPublishedDemoPassword(password));
}
