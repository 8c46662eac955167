import { z } from 'zod';
import { isIsoDate } from '../domain/time.ts';
import { oneLineName } from './common.ts';
import {
  DATING_FREE_TEXT_MAX,
  DATING_PHONE_PATTERN,
  DATING_PHOTO_COUNT,
  DEFAULT_PHYSICAL_ACTIVITY,
  cuisines,
  dateBudgetChoices,
  dateBudgets,
  datingNeighbourhoods,
  diets,
  drinkingHabits,
  firstDateTypes,
  physicalActivities,
  smokingHabits,
  tableDateTypes,
} from '../domain/dating-profile.ts';
import { DEFAULT_WANT_AGE_MAX, DEFAULT_WANT_AGE_MIN, datingIntents, freeEvenings } from '../domain/dating-match.ts';
import { GENDER_SELF_MAX, genders, wantsToMeetValues } from '../domain/dating-gender.ts';

/**
 * The dating section's shapes and rules, used by the server (Fastify validation, OpenAPI)
 * and by the web forms (live validation) alike: one schema, the spec's exact messages.
 */

export const DATING_MESSAGES = {
  phone: 'Enter a valid phone number',
  password: 'Min 8 characters',
  name: 'Name is required',
  dob: 'Date of birth required',
  photos: 'Add exactly 3 photos',
  cuisines: 'Pick at least one cuisine',
  firstDateTypes: 'Pick at least one preferred first date',
  dateBudget: 'Choose a date budget',
  freeText: `Max ${DATING_FREE_TEXT_MAX} characters`,
  presignCount: 'Failed to presign 3 uploads',
  notAnImage: 'Please select an image',
  uploadFailed: 'Upload failed',
  loginFailed: 'Login failed',
  signupFailed: 'Failed to create account',
  gender: 'Choose how you describe yourself',
  genderSelfDescribed: 'Describe yourself in a few words',
  wantsToMeet: 'Choose who you want to meet',
} as const;

/**
 * Who a member is and who they want to meet (decision 250): a gender from the list, the member's
 * own words when self-described (kept only then), whether it shows on the profile, and the wish.
 */
export const datingGenderFields = {
  gender: z.enum(genders, { message: DATING_MESSAGES.gender }),
  genderSelfDescribed: z
    .string()
    .trim()
    .max(GENDER_SELF_MAX, { message: `Describe yourself in at most ${GENDER_SELF_MAX} characters` })
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), { message: 'Describe yourself on one line' })
    .optional()
    .nullable()
    .transform((value) => value || null),
  showGender: z.boolean({ message: 'showGender: use true or false' }).optional().default(true),
  wantsToMeet: z.enum(wantsToMeetValues, { message: DATING_MESSAGES.wantsToMeet }),
};

/** A self-described gender needs the member's own words; any other gender keeps none. */
function selfDescribedHolds(body: { gender?: string; genderSelfDescribed?: string | null }): boolean {
  return body.gender !== 'SELF_DESCRIBED' || Boolean(body.genderSelfDescribed);
}
const selfDescribedRefinement: [typeof selfDescribedHolds, { message: string; path: string[] }] = [
  selfDescribedHolds,
  { message: DATING_MESSAGES.genderSelfDescribed, path: ['genderSelfDescribed'] },
];
const keepSelfDescribedOnlyForIt = <T extends { gender: string; genderSelfDescribed: string | null }>(body: T): T => ({
  ...body,
  genderSelfDescribed: body.gender === 'SELF_DESCRIBED' ? body.genderSelfDescribed : null,
});

/** Phone: trimmed on entry; spaces and dashes typed for readability are ignored; then +? and 10-15 digits. */
export const datingPhone = z
  .string({ message: DATING_MESSAGES.phone })
  .trim()
  .transform((value) => value.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(DATING_PHONE_PATTERN, { message: DATING_MESSAGES.phone }));

export const datingPassword = z
  .string({ message: DATING_MESSAGES.password })
  .min(8, { message: DATING_MESSAGES.password })
  .max(200, { message: 'Max 200 characters' });

/** A blank optional answer is absent. */
const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, { message })
    .optional()
    .nullable()
    .transform((value) => (value ? value : undefined));

/** The four free-text answers: optional, at most 200 characters, stored as '' when blank. */
const freeText = z
  .string()
  .trim()
  .max(DATING_FREE_TEXT_MAX, { message: DATING_MESSAGES.freeText })
  .optional()
  .nullable()
  .transform((value) => value ?? '');

/** An optional enumeration: '' and null mean "prefer not to say". */
const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
const optionalChoice = <T extends [string, ...string[]]>(options: T, message: string) =>
  z.preprocess(blankToUndefined, z.enum(options, { message }).optional());

/** Unique values, first occurrence kept. */
const unique = <T>(items: T[]): T[] => [...new Set(items)];

/** A list of free-text tags (interests, languages): trimmed, blanks and repeats dropped. */
const tagList = (label: string) =>
  z
    .array(
      z
        .string()
        .trim()
        .max(40, { message: `${label}: each at most 40 characters` }),
      { message: `${label}: send a list` },
    )
    .max(20, { message: `${label}: at most 20` })
    .optional()
    .transform((items) => unique((items ?? []).filter(Boolean)));

export const datingLoginBody = z.object({
  phone: datingPhone,
  password: datingPassword,
});
export type DatingLoginBody = z.input<typeof datingLoginBody>;
export type DatingLoginInput = z.output<typeof datingLoginBody>;

/** The dating sign-in's answer (403) to a member a moderator suspended (decision 185). */
export const DATING_ACCOUNT_SUSPENDED = 'This account is suspended. Write to support@tablefair.in if you think this is a mistake.';

const BUDGET_BY_LABEL = new Map<string, string>(dateBudgetChoices.map((choice) => [choice.label, choice.value]));

export const datingPhotoRef = z.object({
  objectKey: z.string({ message: DATING_MESSAGES.photos }).min(1, { message: DATING_MESSAGES.photos }).max(200),
  sortOrder: z
    .number({ message: 'sortOrder: use 0, 1 or 2' })
    .int()
    .min(0, { message: 'sortOrder: use 0, 1 or 2' })
    .max(DATING_PHOTO_COUNT - 1, { message: 'sortOrder: use 0, 1 or 2' }),
});
export type DatingPhotoRef = z.infer<typeof datingPhotoRef>;

export const datingSignupBody = z
  .object({
    phone: datingPhone,
    password: datingPassword,
    name: z
      .string({ message: DATING_MESSAGES.name })
      .trim()
      .min(1, { message: DATING_MESSAGES.name })
      .max(100, { message: 'Name: at most 100 characters' })
      .refine(...oneLineName('name')),
    dob: z
      .string({ message: DATING_MESSAGES.dob })
      .trim()
      .min(1, { message: DATING_MESSAGES.dob })
      .refine(isIsoDate, { message: 'Enter a valid date of birth' })
      .refine((value) => value >= '1900-01-01', { message: 'Enter a valid date of birth' }),
    profession: optionalText(100, 'Profession: at most 100 characters'),
    dreams: freeText,
    fiveYearGoal: freeText,
    whatIWantInPartner: freeText,
    whyPartnerWouldLikeMe: freeText,
    physicalActivity: z
      .enum(physicalActivities, { message: 'Choose how active you are' })
      .optional()
      .transform((value) => value ?? DEFAULT_PHYSICAL_ACTIVITY),
    // The spec lists budgets by their labels; a label is accepted and read as its code.
    dateBudget: z.preprocess(
      (value) => (typeof value === 'string' && BUDGET_BY_LABEL.has(value) ? BUDGET_BY_LABEL.get(value) : value),
      z.enum(dateBudgets, { message: DATING_MESSAGES.dateBudget }),
    ),
    instagramHandle: z.preprocess(
      (value) => blankToUndefined(typeof value === 'string' ? value.trim().replace(/^@/, '') : value),
      z
        .string({ message: 'Enter an Instagram handle like @name' })
        .regex(/^[A-Za-z0-9._]{1,30}$/, { message: 'Enter an Instagram handle like @name' })
        .optional(),
    ),
    diet: optionalChoice(diets, 'Choose a diet from the list'),
    drinking: optionalChoice(drinkingHabits, 'Choose how often you drink from the list'),
    smoking: optionalChoice(smokingHabits, 'Choose whether you smoke from the list'),
    photos: z
      .array(datingPhotoRef, { message: DATING_MESSAGES.photos })
      .length(DATING_PHOTO_COUNT, { message: DATING_MESSAGES.photos })
      .refine((photos) => new Set(photos.map((photo) => photo.sortOrder)).size === DATING_PHOTO_COUNT, {
        message: 'Photos need sortOrder 0, 1 and 2',
      })
      .refine((photos) => new Set(photos.map((photo) => photo.objectKey)).size === photos.length, {
        message: DATING_MESSAGES.photos,
      }),
    cuisines: z
      .array(z.enum(cuisines, { message: 'Choose cuisines from the list' }), { message: DATING_MESSAGES.cuisines })
      .min(1, { message: DATING_MESSAGES.cuisines })
      .transform(unique),
    interests: tagList('Interests'),
    languages: tagList('Languages'),
    firstDateTypes: z
      .array(z.enum(firstDateTypes, { message: 'Choose first dates from the list' }), { message: DATING_MESSAGES.firstDateTypes })
      .min(1, { message: DATING_MESSAGES.firstDateTypes })
      .transform(unique),
    ...datingGenderFields,
  })
  .refine(...selfDescribedRefinement)
  .transform(keepSelfDescribedOnlyForIt);
export type DatingSignupBody = z.input<typeof datingSignupBody>;
export type DatingSignupInput = z.output<typeof datingSignupBody>;

/**
 * POST /dating/auth/signup answers 202 with this, the same whether or not the phone already has an
 * account (decision 101): a code goes to the phone, and the account is made by
 * POST /dating/auth/signup/verify with that code.
 */
export const datingSignupStarted = z.object({
  signupId: z.string(),
  phone: z.string(),
  expiresAt: z.string(),
  message: z.string(),
});
export type DatingSignupStarted = z.infer<typeof datingSignupStarted>;

export const datingSignupVerifyBody = z.object({
  signupId: z.uuid({ message: 'signupId: start the signup again' }),
  code: z
    .string({ message: 'code: Enter the 6-digit code we sent' })
    .trim()
    .regex(/^\d{6}$/, { message: 'code: Enter the 6-digit code we sent' }),
});
export type DatingSignupVerifyBody = z.infer<typeof datingSignupVerifyBody>;

export const datingDevMailboxQuery = z.object({ signup: z.uuid({ message: 'signup: use the signupId of your signup' }) });

/** Languages (tags): sent with the signup and kept on the profile. */
export const datingLanguages = tagList('Languages');

export const datingUploadContentTypes = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const datingPresignBody = z
  .object({
    count: z
      .number({ message: 'count: send the number of photos (1 to 3)' })
      .int({ message: 'count: send the number of photos (1 to 3)' })
      .min(1, { message: 'count: send the number of photos (1 to 3)' })
      .max(DATING_PHOTO_COUNT, { message: 'count: send the number of photos (1 to 3)' }),
    contentTypes: z
      .array(z.enum(datingUploadContentTypes, { message: 'Only JPEG, PNG or WebP images are accepted' }))
      .max(DATING_PHOTO_COUNT)
      .optional(),
    userHint: z.literal('signup', { message: "userHint: use 'signup'" }),
  })
  .refine((body) => !body.contentTypes || body.contentTypes.length === body.count, {
    message: 'contentTypes: give one type per photo',
    path: ['contentTypes'],
  })
  .transform((body) => ({ ...body, contentTypes: body.contentTypes ?? Array.from({ length: body.count }, () => 'image/jpeg' as const) }));
export type DatingPresignBody = z.input<typeof datingPresignBody>;

export const datingPresignResponse = z.object({
  items: z.array(z.object({ uploadUrl: z.string(), objectKey: z.string(), contentType: z.string() })),
});
export type DatingPresignResponse = z.infer<typeof datingPresignResponse>;

export const datingProfile = z.object({
  id: z.string(),
  phone: z.string(),
  name: z.string(),
  dob: z.string(),
  age: z.number(),
  profession: z.string().nullable(),
  dreams: z.string(),
  fiveYearGoal: z.string(),
  whatIWantInPartner: z.string(),
  whyPartnerWouldLikeMe: z.string(),
  physicalActivity: z.enum(physicalActivities),
  dateBudget: z.enum(dateBudgets),
  instagramHandle: z.string().nullable(),
  diet: z.enum(diets).nullable(),
  drinking: z.enum(drinkingHabits).nullable(),
  smoking: z.enum(smokingHabits).nullable(),
  cuisines: z.array(z.enum(cuisines)),
  interests: z.array(z.string()),
  firstDateTypes: z.array(z.enum(firstDateTypes)),
  photos: z.array(z.object({ url: z.string(), sortOrder: z.number(), contentType: z.string() })),
  createdAt: z.string(),
  languages: z.array(z.string()),
  wantAgeMin: z.number(),
  wantAgeMax: z.number(),
  neighbourhoods: z.array(z.string()),
  freeEvenings: z.array(z.enum(freeEvenings)),
  intent: z.enum(datingIntents),
  /** Null for a member who joined before it was asked (met only by those who want to meet everyone). */
  gender: z.enum(genders).nullable(),
  genderSelfDescribed: z.string().nullable(),
  showGender: z.boolean(),
  wantsToMeet: z.enum(wantsToMeetValues),
  /** A date the same evening (less than 24 hours ahead) is fine with this member (decision 252). */
  tonightIsFine: z.boolean(),
});
export type DatingProfile = z.infer<typeof datingProfile>;

/** Field → first message, from a failed parse (what the forms show under each field). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return errors;
}

const AGE_MESSAGE = 'Ages: between 18 and 99';
const wantedAge = z
  .number({ message: AGE_MESSAGE })
  .int({ message: AGE_MESSAGE })
  .min(DEFAULT_WANT_AGE_MIN, { message: AGE_MESSAGE })
  .max(DEFAULT_WANT_AGE_MAX, { message: AGE_MESSAGE });

/** PUT /dating/me/preferences: what a member wants, and the tags signup asked for (decision 140). */
export const datingPreferencesBody = z
  .object({
    wantAgeMin: wantedAge,
    wantAgeMax: wantedAge,
    neighbourhoods: z
      .array(z.enum(datingNeighbourhoods, { message: 'Choose neighbourhoods from the list' }), { message: 'Pick at least one neighbourhood' })
      .min(1, { message: 'Pick at least one neighbourhood' })
      .transform(unique),
    freeEvenings: z
      .array(z.enum(freeEvenings, { message: 'Choose evenings from the list' }), { message: 'Pick at least one free evening' })
      .min(1, { message: 'Pick at least one free evening' })
      .transform(unique),
    intent: z.enum(datingIntents, { message: 'Choose what you are looking for' }),
    interests: tagList('Interests'),
    languages: tagList('Languages'),
    // Who you are and who you want to meet (decision 250); each left out keeps what is saved.
    gender: datingGenderFields.gender.optional(),
    genderSelfDescribed: datingGenderFields.genderSelfDescribed,
    showGender: z.boolean({ message: 'showGender: use true or false' }).optional(),
    wantsToMeet: datingGenderFields.wantsToMeet.optional(),
    tonightIsFine: z.boolean({ message: 'tonightIsFine: use true or false' }).optional(),
  })
  .refine(...selfDescribedRefinement)
  .refine((body) => body.wantAgeMin <= body.wantAgeMax, { message: 'wantAgeMax: the oldest age must not be below the youngest', path: ['wantAgeMax'] });
export type DatingPreferencesBody = z.input<typeof datingPreferencesBody>;
export type DatingPreferencesInput = z.output<typeof datingPreferencesBody>;

/** The profile's fields another member may see as they are: the answers, age, interests and languages. */
const profileFieldsSeenByOthers = {
  age: true,
  profession: true,
  dreams: true,
  fiveYearGoal: true,
  whatIWantInPartner: true,
  whyPartnerWouldLikeMe: true,
  interests: true,
  languages: true,
} as const;

/** "Why you two" (decision 254): what two members have in common, each list in the viewer's order. */
export const datingShared = z.object({
  cuisines: z.array(z.enum(cuisines)),
  dateTypes: z.array(z.enum(firstDateTypes)),
  neighbourhoods: z.array(z.string()),
  evenings: z.array(z.enum(freeEvenings)),
});
export type DatingShared = z.infer<typeof datingShared>;

/** One suggested member, as the other sees them: first name only, no phone, no birth date. */
export const datingSuggestion = datingProfile.pick(profileFieldsSeenByOthers).extend({
  memberId: z.string(),
  firstName: z.string(),
  photos: z.array(z.object({ url: z.string(), sortOrder: z.number() })),
  day: z.string(),
  myAnswer: z.enum(['YES', 'NO']).nullable(),
  /** Both said yes. */
  isMatch: z.boolean(),
  /** How they describe themselves, when they show it on their profile (decision 250). */
  gender: z.string().nullable(),
  /** "Why you two" (decision 254). */
  shared: datingShared,
});
export type DatingSuggestion = z.infer<typeof datingSuggestion>;

export const datingSuggestionsResponse = z.object({ day: z.string(), perDay: z.number(), suggestions: z.array(datingSuggestion) });
export type DatingSuggestionsResponse = z.infer<typeof datingSuggestionsResponse>;

export const datingMemberParams = z.object({ memberId: z.uuid({ message: 'Member not found' }) });

export const datingAnswerBody = z.object({ answer: z.enum(['YES', 'NO'], { message: "answer: use 'YES' or 'NO'" }) });
export type DatingAnswerBody = z.infer<typeof datingAnswerBody>;

export const datingReportReasons = [
  { value: 'FAKE_PROFILE', label: 'Fake profile or photos' },
  { value: 'INAPPROPRIATE', label: 'Inappropriate content' },
  { value: 'HARASSMENT', label: 'Harassment or threats' },
  { value: 'UNDERAGE', label: 'Looks under 18' },
  { value: 'OTHER', label: 'Something else' },
] as const;

/** Why a member reported another: the reasons of the report form, and of the moderation list. */
export const datingReportReason = z.enum(['FAKE_PROFILE', 'INAPPROPRIATE', 'HARASSMENT', 'UNDERAGE', 'OTHER'], {
  message: 'reason: choose a reason from the list',
});
export type DatingReportReason = z.infer<typeof datingReportReason>;

/** The longest note a report carries for the moderators. */
export const REPORT_NOTE_MAX = 500;

/** POST /dating/suggestions/{memberId}/report: a reason, and an optional note for the moderators. */
export const datingReportBody = z.object({
  reason: datingReportReason,
  note: z
    .string()
    .trim()
    .max(REPORT_NOTE_MAX, { message: `note: at most ${REPORT_NOTE_MAX} characters` })
    .optional()
    .default(''),
});
export type DatingReportBody = z.input<typeof datingReportBody>;

/**
 * A restaurant's date-partner profile (decision 183), in the dating section's own
 * words, so that plans match members to tables without reading free-text cuisine tags.
 */
export const datePartnerProfile = z.object({
  /** What a date for two typically costs here, in the members' budget bands. */
  budget: z.enum(dateBudgets, { message: 'Choose what a date for two costs here' }),
  /** The dating neighbourhood the restaurant is in or nearest to. */
  neighbourhood: z.enum(datingNeighbourhoods, { message: 'Choose a neighbourhood from the list' }),
  cuisines: z
    .array(z.enum(cuisines, { message: 'Choose cuisines from the list' }), { message: 'Pick at least one cuisine' })
    .min(1, { message: 'Pick at least one cuisine' })
    .max(cuisines.length)
    .refine((values) => new Set(values).size === values.length, { message: 'Pick each cuisine once' }),
  dateTypes: z
    .array(z.enum(tableDateTypes, { message: 'Choose the kinds of date from the list' }), { message: 'Pick at least one kind of date' })
    .min(1, { message: 'Pick at least one kind of date' })
    .max(tableDateTypes.length)
    .refine((values) => new Set(values).size === values.length, { message: 'Pick each kind of date once' }),
});
export type DatePartnerProfile = z.infer<typeof datePartnerProfile>;

/** GET /api/admin/date-partner: the staff's own restaurant's profile, or null when it does not host dates. */
export const datePartnerSetting = z.object({
  partner: datePartnerProfile.extend({ optedInAt: z.string() }).nullable(),
});
export type DatePartnerSetting = z.infer<typeof datePartnerSetting>;
