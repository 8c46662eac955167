import { DATING_MESSAGES, datingLoginBody, datingSignupBody, fieldErrors, type DatingPresignResponse, type DatingSignupBody } from '#common/contract/dating.ts';
import {
  DATING_PHOTO_COUNT,
  DATING_PHOTO_MAX_BYTES,
  DEFAULT_DATING_TIME_ZONE,
  DEFAULT_PHYSICAL_ACTIVITY,
  checkDatingAge,
  type Cuisine,
  type FirstDateType,
  type PhysicalActivity,
} from '#common/domain/dating-profile.ts';

/** What the signup form holds (spec section 3): the payload's fields, the photo files, and languages + time zone. */
export interface DatingSignupForm {
  phone: string;
  password: string;
  name: string;
  dob: string;
  profession: string;
  dreams: string;
  fiveYearGoal: string;
  whatIWantInPartner: string;
  whyPartnerWouldLikeMe: string;
  physicalActivity: PhysicalActivity;
  dateBudget: string;
  instagramHandle: string;
  diet: string;
  drinking: string;
  smoking: string;
  photos: File[];
  cuisines: Cuisine[];
  interests: string[];
  firstDateTypes: FirstDateType[];
  languages: string[];
  timeZone: string;
}

/** Old names some browsers still report, as the zones are called now (Chromium says Asia/Calcutta). */
const zoneAliases: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Dacca': 'Asia/Dhaka',
};

/** The zones most members live in, offered first (decision 222); the rest follow alphabetically. */
export const COMMON_TIME_ZONES = [
  'Asia/Kolkata',
  'Asia/Dubai',
  'Asia/Singapore',
  'Asia/Kathmandu',
  'Asia/Colombo',
  'Asia/Dhaka',
  'Europe/London',
  'Europe/Berlin',
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'Australia/Sydney',
] as const;

/** A zone under its current name. */
export function canonicalTimeZone(zone: string): string {
  return zoneAliases[zone] ?? zone;
}

/** The browser's time zone (under its current name), else Asia/Kolkata. */
export function browserTimeZone(): string {
  try {
    return canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_DATING_TIME_ZONE);
  } catch {
    return DEFAULT_DATING_TIME_ZONE;
  }
}

/** The time-zone select's two groups: the common zones (and the chosen one), then every other zone the browser knows. */
export function timeZoneChoices(current: string, known: readonly string[]): { common: string[]; others: string[] } {
  const common: string[] = [...COMMON_TIME_ZONES];
  if (!common.includes(current)) common.push(current);
  const others = [...new Set(known.map(canonicalTimeZone))].filter((zone) => !common.includes(zone)).sort();
  return { common, others };
}

export function emptySignupForm(timeZone = browserTimeZone()): DatingSignupForm {
  return {
    phone: '',
    password: '',
    name: '',
    dob: '',
    profession: '',
    dreams: '',
    fiveYearGoal: '',
    whatIWantInPartner: '',
    whyPartnerWouldLikeMe: '',
    physicalActivity: DEFAULT_PHYSICAL_ACTIVITY,
    dateBudget: '',
    instagramHandle: '',
    diet: '',
    drinking: '',
    smoking: '',
    photos: [],
    cuisines: [],
    interests: [],
    firstDateTypes: [],
    languages: [],
    timeZone,
  };
}

/** The signup call's body (the time zone stays in the form; languages are kept on the profile). */
export function toSignupBody(form: DatingSignupForm, objectKeys: string[]): DatingSignupBody {
  const { photos: _files, timeZone: _timeZone, ...fields } = form;
  return {
    ...fields,
    dateBudget: fields.dateBudget as DatingSignupBody['dateBudget'],
    diet: (fields.diet || undefined) as DatingSignupBody['diet'],
    drinking: (fields.drinking || undefined) as DatingSignupBody['drinking'],
    smoking: (fields.smoking || undefined) as DatingSignupBody['smoking'],
    photos: objectKeys.map((objectKey, sortOrder) => ({ objectKey, sortOrder })),
  };
}

/**
 * Field → message, by the very schema the server validates with (photos counted from the
 * chosen files), plus the age rule on today's Kolkata date.
 */
export function validateSignupForm(form: DatingSignupForm, today: string): Record<string, string> {
  const placeholders = form.photos.map((_, index) => `photo-${index}`);
  const result = datingSignupBody.safeParse(toSignupBody(form, placeholders));
  const errors = result.success ? {} : fieldErrors(result.error);
  if (!errors.dob && form.dob) {
    const ageProblem = checkDatingAge(form.dob, today);
    if (ageProblem) errors.dob = ageProblem;
  }
  return errors;
}

export function validateLoginForm(form: { phone: string; password: string }): Record<string, string> {
  const result = datingLoginBody.safeParse(form);
  return result.success ? {} : fieldErrors(result.error);
}

/** A tag entry on Enter: trimmed, ignored if empty or already present (case-insensitively). */
export function addTag(tags: string[], raw: string): string[] {
  const tag = raw.trim();
  if (!tag || tags.some((existing) => existing.toLowerCase() === tag.toLowerCase())) return tags;
  return [...tags, tag];
}

export function removeTag(tags: string[], tag: string): string[] {
  return tags.filter((existing) => existing !== tag);
}

/** Selecting a chip toggles it. */
export function toggle<T>(values: T[], value: T): T[] {
  return values.includes(value) ? values.filter((existing) => existing !== value) : [...values, value];
}

export const ACCEPTED_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/** Why a chosen file cannot be a photo, or null. 'Please select an image' is the spec's alert. */
export function photoProblem(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith('image/')) return DATING_MESSAGES.notAnImage;
  if (!ACCEPTED_PHOTO_TYPES.includes(file.type)) return 'Please choose a JPEG, PNG or WebP photo';
  if (file.size > DATING_PHOTO_MAX_BYTES) return 'Each photo must be 8 MB or smaller';
  return null;
}

export interface SignupTransport {
  presign(body: { count: number; contentTypes: string[]; userHint: 'signup' }): Promise<DatingPresignResponse>;
  upload(uploadUrl: string, file: File, contentType: string): Promise<void>;
  signup(body: DatingSignupBody): Promise<unknown>;
}

/**
 * The spec's signup sequence: request upload slots for the 3 photos; upload all 3 in
 * parallel; then send the signup call with their keys in order (sortOrder 0, 1, 2). It answers
 * what the signup call answered (the code step's signupId, decision 101).
 */
export async function runSignupSequence(form: DatingSignupForm, transport: SignupTransport): Promise<unknown> {
  const contentTypes = form.photos.map((file) => file.type || 'image/jpeg');
  const presigned = await transport.presign({ count: DATING_PHOTO_COUNT, contentTypes, userHint: 'signup' });
  if (!Array.isArray(presigned?.items) || presigned.items.length !== DATING_PHOTO_COUNT) throw new Error(DATING_MESSAGES.presignCount);
  await Promise.all(presigned.items.map((item, index) => transport.upload(item.uploadUrl, form.photos[index], item.contentType || contentTypes[index])));
  return transport.signup(
    toSignupBody(
      form,
      presigned.items.map((item) => item.objectKey),
    ),
  );
}
