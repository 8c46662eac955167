import type { Choice } from './dating-profile.ts';

/**
 * Who a member is and who they want to meet (decision 250), declared once as data: the signup and
 * preference forms list these, the server stores the codes, and `wantsToMeet` is the one rule the
 * suggestions' SQL (dating-matches.repository.ts) and the plans apply, both ways.
 */

export const genderChoices = [
  { value: 'WOMAN', label: 'Woman' },
  { value: 'MAN', label: 'Man' },
  { value: 'NON_BINARY', label: 'Non-binary' },
  { value: 'SELF_DESCRIBED', label: 'I describe myself' },
] as const satisfies readonly Choice<string>[];
export const genders = genderChoices.map((choice) => choice.value) as unknown as readonly [Gender, ...Gender[]];
export type Gender = (typeof genderChoices)[number]['value'];

export const wantsToMeetChoices = [
  { value: 'WOMEN', label: 'Women' },
  { value: 'MEN', label: 'Men' },
  { value: 'EVERYONE', label: 'Everyone' },
] as const satisfies readonly Choice<string>[];
export const wantsToMeetValues = wantsToMeetChoices.map((choice) => choice.value) as unknown as readonly [WantsToMeet, ...WantsToMeet[]];
export type WantsToMeet = (typeof wantsToMeetChoices)[number]['value'];

/** The longest self-described gender. */
export const GENDER_SELF_MAX = 40;

/**
 * The gender a "women" or "men" wish takes; every other gender (non-binary, self-described, and a
 * member who has not said) is met only by those who want to meet everyone.
 */
export const GENDER_MET_BY_WISH: Readonly<Record<Exclude<WantsToMeet, 'EVERYONE'>, Gender>> = { WOMEN: 'WOMAN', MEN: 'MAN' };

/** Whether a member who wants to meet `wish` takes a member of gender `gender` (null: not said). */
export function wantsToMeet(wish: WantsToMeet, gender: Gender | null): boolean {
  return wish === 'EVERYONE' || GENDER_MET_BY_WISH[wish] === gender;
}

/** Both sides' wishes hold: each wants to meet the other. */
export function wishesMatch(a: { gender: Gender | null; wantsToMeet: WantsToMeet }, b: { gender: Gender | null; wantsToMeet: WantsToMeet }): boolean {
  return wantsToMeet(a.wantsToMeet, b.gender) && wantsToMeet(b.wantsToMeet, a.gender);
}

/** How a gender reads on a profile: the member's own words when self-described. */
export function genderLabel(gender: Gender | null, selfDescribed: string | null): string {
  if (!gender) return '';
  if (gender === 'SELF_DESCRIBED') return selfDescribed?.trim() || 'Self-described';
  return genderChoices.find((choice) => choice.value === gender)?.label ?? '';
}
