import { createHash, randomBytes } from 'node:crypto';
import type { AppDeps } from '#server/deps.ts';
import { anonymous, type Principal } from './principal.ts';
import type { Db } from '#server/db/client.ts';
import { findLiveSession, insertSession, revokeSession, revokeSessionsOf, type SessionKind } from './sessions.repository.ts';

/** SHA-256 of a token: what the database keeps, so a leaked table holds no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Sessions for every kind of account: opaque 256-bit tokens, stored hashed, expiring, revocable. */
export function createSessionsService({ db, clock, config }: AppDeps) {
  return {
    /** Issues a new token for an account that has just proven who it is (in the caller's transaction when it passes one). */
    async issueSession(kind: SessionKind, subjectId: string, tx: Db = db): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(clock.now().getTime() + config.sessionTtlHours * 3_600_000);
      await insertSession(tx, { tokenHash: hashToken(token), kind, subjectId, expiresAt });
      return token;
    },

    /** The principal a token stands for; an unknown, expired or revoked token is anonymous. */
    async resolvePrincipal(token: string | undefined): Promise<Principal> {
      if (!token) return anonymous;
      if (token.length > 200) return { kind: 'anonymous', hadInvalidCredential: true };
      const session = await findLiveSession(db, hashToken(token), clock.now());
      if (!session) return { kind: 'anonymous', hadInvalidCredential: true };
      switch (session.kind) {
        case 'diner':
          return { kind: 'diner', userId: session.subjectId };
        case 'staff':
          return session.restaurantId
            ? { kind: 'staff', staffId: session.subjectId, restaurantId: session.restaurantId }
            : { kind: 'anonymous', hadInvalidCredential: true };
        case 'dating':
          return { kind: 'dating', datingUserId: session.subjectId };
        case 'moderator':
          return { kind: 'moderator', moderatorId: session.subjectId };
      }
    },

    /** Revokes a token (logout). Revoking an unknown token is not an error. */
    async revokeToken(token: string): Promise<void> {
      await revokeSession(db, hashToken(token), clock.now());
    },

    /**
     * Ends every live session of one account, in the caller's transaction when it passes one
     * (a dating member a moderator suspends is signed out everywhere at once). Answers how many.
     */
    async revokeAllOf(kind: SessionKind, subjectId: string, tx: Db = db): Promise<number> {
      return revokeSessionsOf(tx, kind, subjectId, clock.now());
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
