import { AppError, sessionExpired, unauthenticated } from '#server/errors.ts';

/** Who is calling, as resolved from the request's credential. Services check it first. */
export type Principal =
  | { kind: 'anonymous'; hadInvalidCredential: boolean }
  | { kind: 'diner'; userId: string }
  | { kind: 'staff'; staffId: string; restaurantId: string }
  | { kind: 'dating'; datingUserId: string }
  | { kind: 'moderator'; moderatorId: string };

export type DinerPrincipal = Extract<Principal, { kind: 'diner' }>;
export type StaffPrincipal = Extract<Principal, { kind: 'staff' }>;
export type DatingPrincipal = Extract<Principal, { kind: 'dating' }>;
export type ModeratorPrincipal = Extract<Principal, { kind: 'moderator' }>;

export const anonymous: Principal = { kind: 'anonymous', hadInvalidCredential: false };

function refuse(principal: Principal, needed: string): AppError {
  if (principal.kind === 'anonymous' && principal.hadInvalidCredential) {
    return sessionExpired();
  }
  if (principal.kind === 'anonymous') return unauthenticated('Please sign in to continue');
  // A credential of another kind (a staff token on a diner call, and the reverse) is not a credential here.
  return unauthenticated(`This needs a ${needed} sign-in`);
}

export function requireDiner(principal: Principal): asserts principal is DinerPrincipal {
  if (principal.kind !== 'diner') throw refuse(principal, 'diner');
}

export function requireStaff(principal: Principal): asserts principal is StaffPrincipal {
  if (principal.kind !== 'staff') throw refuse(principal, 'restaurant');
}

export function requireDating(principal: Principal): asserts principal is DatingPrincipal {
  if (principal.kind !== 'dating') throw refuse(principal, 'dating');
}

/** Tablefair's own moderators (decision 185): no diner, staff or dating credential stands in for one. */
export function requireModerator(principal: Principal): asserts principal is ModeratorPrincipal {
  if (principal.kind !== 'moderator') throw refuse(principal, 'moderator');
}

/** For calls open to anyone that must still refuse a broken credential. */
export function rejectInvalidCredential(principal: Principal): void {
  if (principal.kind === 'anonymous' && principal.hadInvalidCredential) throw refuse(principal, 'valid');
}
