import type { Gender, WantsToMeet } from '#common/domain/dating-gender.ts';
import { DATING_ACCOUNT_SUSPENDED, type DatingLoginInput, type DatingProfile } from '#common/contract/dating.ts';
import {
  ageOn,
  normalizeDatingPhone,
  type Cuisine,
  type DateBudget,
  type Diet,
  type Drinking,
  type FirstDateType,
  type PhysicalActivity,
  type Smoking,
} from '#common/domain/dating-profile.ts';
import type { DatingIntent, FreeEvening } from '#common/domain/dating-match.ts';
import { todayInKolkata } from '#common/domain/time.ts';
import type { AppDeps } from '#server/deps.ts';
import { forbidden, notFound, sessionExpired, unauthenticated } from '#server/errors.ts';
import { signInPasswordOpens } from '#server/modules/accounts/demo-passwords.ts';
import { requireDating, requireModerator, type Principal } from '#server/modules/accounts/principal.ts';
import { hasAnyReport } from './dating-moderation.repository.ts';
import type { SessionsService } from '#server/modules/accounts/sessions.service.ts';
import type { AcceptedImageType } from '#server/modules/storage/image-type.ts';
import type { StorageService } from '#server/modules/storage/storage.service.ts';
import type { DatingMatches } from './dating-matches.service.ts';
import {
  findDatingUserById,
  findDatingUserByPhone,
  findPhotoOwner,
  listDatingPhotos,
  lockMemberForSignIn,
  type DatingPhotoRow,
  type DatingUserRow,
} from './dating.repository.ts';

/** Photos are served to their owner here (then /{uuid}.{ext}). */
export const PHOTO_PATH = '/dating/photos';
export const LOGIN_REFUSED = 'Invalid phone number or password';

const PHOTO_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp)$/;

function photoUrl(objectKey: string): string {
  return `${PHOTO_PATH}/${objectKey.slice('dating/'.length)}`;
}

function toProfile(user: DatingUserRow, photos: DatingPhotoRow[], today: string): DatingProfile {
  return {
    id: user.id,
    phone: user.phone,
    name: user.name,
    dob: user.dob,
    age: ageOn(user.dob, today),
    profession: user.profession,
    dreams: user.dreams,
    fiveYearGoal: user.fiveYearGoal,
    whatIWantInPartner: user.whatIWantInPartner,
    whyPartnerWouldLikeMe: user.whyPartnerWouldLikeMe,
    physicalActivity: user.physicalActivity as PhysicalActivity,
    dateBudget: user.dateBudget as DateBudget,
    instagramHandle: user.instagramHandle,
    diet: user.diet as Diet | null,
    drinking: user.drinking as Drinking | null,
    smoking: user.smoking as Smoking | null,
    cuisines: user.cuisines as Cuisine[],
    interests: user.interests,
    firstDateTypes: user.firstDateTypes as FirstDateType[],
    photos: photos.map((photo) => ({ url: photoUrl(photo.objectKey), sortOrder: photo.sortOrder, contentType: photo.contentType })),
    createdAt: user.createdAt.toISOString(),
    languages: user.languages,
    wantAgeMin: user.wantAgeMin,
    wantAgeMax: user.wantAgeMax,
    neighbourhoods: user.neighbourhoods,
    freeEvenings: user.freeEvenings as FreeEvening[],
    intent: user.intent as DatingIntent,
    gender: user.gender as Gender | null,
    genderSelfDescribed: user.genderSelfDescribed,
    showGender: user.showGender,
    wantsToMeet: user.wantsToMeet as WantsToMeet,
    tonightIsFine: user.tonightIsFine,
  };
}

/**
 * A member's account: their profile, signing in and out with phone and password (a suspended
 * member is told so only once the password is right, decision 185), and their photos, shown to
 * whom the matches allow.
 */
export function createDatingAccount(deps: AppDeps, sessions: SessionsService, storage: StorageService, matches: DatingMatches) {
  const { db, clock, config } = deps;
  const today = () => todayInKolkata(clock.now());

  async function profileOf(user: DatingUserRow): Promise<DatingProfile> {
    return toProfile(user, await listDatingPhotos(db, user.id), today());
  }

  return {
    profileOf,

    /** POST /dating/auth/login: the refusal never tells whether the phone or the password was wrong. */
    async logIn(
      _principal: Principal,
      { phone, password }: DatingLoginInput,
      previousToken: string | undefined,
    ): Promise<{ profile: DatingProfile; token: string }> {
      const user = await findDatingUserByPhone(db, normalizeDatingPhone(phone));
      // A published demo password never opens a member's account in production (decision 201).
      const isValid = await signInPasswordOpens(config, password, user?.passwordHash);
      if (!user || !isValid) throw unauthenticated(LOGIN_REFUSED);
      // Only someone who knows the password learns of a suspension (decision 185). The row lock
      // orders this sign-in with a moderator's suspension: either it sees the suspension, or the
      // suspension revokes the session it issues.
      const token = await db.transaction(async (tx) => {
        const member = await lockMemberForSignIn(tx, user.id);
        if (!member) throw unauthenticated(LOGIN_REFUSED);
        if (member.suspendedAt) throw forbidden(DATING_ACCOUNT_SUSPENDED);
        return sessions.issueSession('dating', user.id, tx);
      });
      if (previousToken) await sessions.revokeToken(previousToken);
      return { profile: await profileOf(user), token };
    },

    /** GET /dating/auth/me: the signed-in dating user, with their photos. */
    async getCurrentDatingUser(principal: Principal): Promise<DatingProfile> {
      requireDating(principal);
      const user = await findDatingUserById(db, principal.datingUserId);
      if (!user) throw sessionExpired();
      return profileOf(user);
    },

    /** POST /dating/auth/logout: ends the cookie's session (no session is not an error). */
    async logOut(_principal: Principal, token: string | undefined): Promise<void> {
      if (token) await sessions.revokeToken(token);
    },

    /**
     * GET /dating/photos/{id}: a photo, to its owner and to members it was suggested to (not blocked).
     * Someone else's photo answers 404, like a missing one, so ids cannot be probed.
     */
    /**
     * GET /api/moderation/photos/{photoId}: a reported member's photo, to a moderator only, while
     * the member has a report (decision 255).
     */
    async readPhotoForModerator(principal: Principal, photoId: string): Promise<{ body: Buffer; contentType: AcceptedImageType }> {
      requireModerator(principal);
      if (!PHOTO_ID.test(photoId)) throw notFound('Photo not found');
      const key = `dating/${photoId}`;
      const owner = await findPhotoOwner(db, key);
      if (!owner || !(await hasAnyReport(db, owner))) throw notFound('Photo not found');
      const image = await storage.readImage(key);
      if (!image) throw notFound('Photo not found');
      return image;
    },

    async readPhoto(principal: Principal, photoId: string): Promise<{ body: Buffer; contentType: AcceptedImageType }> {
      requireDating(principal);
      if (!PHOTO_ID.test(photoId)) throw notFound('Photo not found');
      const key = `dating/${photoId}`;
      const owner = await findPhotoOwner(db, key);
      if (!owner || !(await matches.mayShowMember(principal, owner))) throw notFound('Photo not found');
      const image = await storage.readImage(key);
      if (!image) throw notFound('Photo not found');
      return image;
    },
  };
}
