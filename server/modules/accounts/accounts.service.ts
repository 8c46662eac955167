import type { DinerProfile, LoginBody, LoginResponse, StaffLoginResponse } from '#common/contract/accounts.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, isUniqueViolation, sessionExpired, unauthenticated } from '#server/errors.ts';
import { findModeratorByUsername, findStaffByUsername, findUserById, findUserByUsername, insertUser } from './accounts.repository.ts';
import { refusePublishedPassword, signInPasswordOpens } from './demo-passwords.ts';
import { hashPassword } from './password.ts';
import { requireDiner, type Principal } from './principal.ts';
import type { SessionsService } from './sessions.service.ts';

const LOGIN_REFUSED = 'Invalid username or password';

export interface NewDiner {
  username: string;
  password: string;
  name?: string;
  email?: string;
  phone?: string;
  preferredHood?: string;
}

/** The profile as the diner sees it: a user row of the same fields, with the username standing in for a missing name. */
function toProfile(user: DinerProfile): DinerProfile {
  return {
    id: user.id,
    username: user.username,
    name: user.name || user.username,
    email: user.email,
    phone: user.phone,
    preferredHood: user.preferredHood,
  };
}

/** What a new diner with an email is sent in the signup's transaction; answers what to do once it has committed. */
export type WelcomeSender = (tx: Db, diner: { id: string; email: string; name: string }) => Promise<() => void>;

/** Diner accounts and the sign-in of diners, restaurant staff and platform moderators. */
export function createAccountsService(deps: AppDeps, sessions: SessionsService) {
  const { db, config } = deps;
  /** Production never takes a published demo password (decision 201): not for a new account, not at any sign-in. */
  const passwordOpens = (password: string, stored: string | undefined) => signInPasswordOpens(config, password, stored);

  let sendWelcome: WelcomeSender | undefined;
  return {
    /** Hears each new diner (wired in server/composition.ts): the welcome email with the link that confirms the address (decision 230). */
    onDinerSignup(sender: WelcomeSender): () => void {
      sendWelcome = sender;
      return () => {
        if (sendWelcome === sender) sendWelcome = undefined;
      };
    },

    /** Creates a diner account. Anyone may sign up; the username is unique whatever its case. */
    async signUpDiner(_principal: Principal, input: NewDiner): Promise<DinerProfile> {
      refusePublishedPassword(config.nodeEnv, input.password);
      if (await findUserByUsername(db, input.username)) throw conflict('Username already taken');
      const passwordHash = await hashPassword(input.password, config.passwordHashCost);
      try {
        const { user, afterCommit } = await db.transaction(async (tx) => {
          const inserted = await insertUser(tx, {
            username: input.username,
            passwordHash,
            name: input.name ?? '',
            email: input.email ?? null,
            phone: input.phone ?? null,
            preferredHood: input.preferredHood ?? null,
          });
          const welcome = inserted.email && sendWelcome ? await sendWelcome(tx, { id: inserted.id, email: inserted.email, name: inserted.name }) : undefined;
          return { user: inserted, afterCommit: welcome };
        });
        afterCommit?.();
        return toProfile(user);
      } catch (error) {
        // Two signups racing for one name: the unique index decides.
        if (isUniqueViolation(error, 'users_username_lower_key')) throw conflict('Username already taken');
        throw error;
      }
    },

    /** Signs a diner in; the refusal never tells which of the two was wrong. */
    async logInDiner(_principal: Principal, input: LoginBody): Promise<{ token: string }> {
      const user = await findUserByUsername(db, input.username);
      if (!(await passwordOpens(input.password, user?.passwordHash)) || !user) throw unauthenticated(LOGIN_REFUSED);
      return { token: await sessions.issueSession('diner', user.id) };
    },

    /** Signs restaurant staff in; their token is a separate kind and names their restaurant. */
    async logInStaff(_principal: Principal, input: LoginBody): Promise<StaffLoginResponse> {
      const staff = await findStaffByUsername(db, input.username);
      if (!(await passwordOpens(input.password, staff?.passwordHash)) || !staff) throw unauthenticated(LOGIN_REFUSED);
      return { token: await sessions.issueSession('staff', staff.id), restaurantId: staff.restaurantId };
    },

    /**
     * Signs a platform moderator in (decision 185): the staff's sign-in with its own table and its
     * own kind of token, which no diner, staff or dating call takes.
     */
    async logInModerator(_principal: Principal, input: LoginBody): Promise<LoginResponse> {
      const moderator = await findModeratorByUsername(db, input.username);
      if (!(await passwordOpens(input.password, moderator?.passwordHash)) || !moderator) throw unauthenticated(LOGIN_REFUSED);
      return { token: await sessions.issueSession('moderator', moderator.id) };
    },

    /** The signed-in diner. */
    async getCurrentDiner(principal: Principal): Promise<DinerProfile> {
      requireDiner(principal);
      const user = await findUserById(db, principal.userId);
      if (!user) throw sessionExpired();
      return toProfile(user);
    },

    /** Ends the session the token belongs to. */
    async logOut(_principal: Principal, token: string | undefined): Promise<void> {
      if (token) await sessions.revokeToken(token);
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
