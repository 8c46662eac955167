import { describe, expect, it } from 'vitest';
import { DATING_MESSAGES, datingLanguages, datingLoginBody, datingPresignBody, datingSignupBody, fieldErrors, type DatingSignupBody } from './dating.ts';
import {
  ageOn,
  checkDatingAge,
  cuisines,
  dateBudgetChoices,
  firstDateTypes,
  latestAdultDob,
  normalizeDatingPhone,
  physicalActivities,
  UNDER_AGE_MESSAGE,
} from '../domain/dating-profile.ts';

/** The dating rules of spec section 5, checked on the one schema both the server and the forms use. */

const validSignup = (): DatingSignupBody => ({
  phone: '+919876543210',
  password: 'longenough',
  name: 'Asha',
  dob: '1996-04-12',
  profession: 'Architect',
  dreams: 'A small bakery',
  fiveYearGoal: 'Run a marathon',
  whatIWantInPartner: 'Kindness',
  whyPartnerWouldLikeMe: 'I cook',
  physicalActivity: 'REGULAR',
  dateBudget: 'INR_1000_2500',
  gender: 'WOMAN',
  wantsToMeet: 'MEN',
  instagramHandle: '@asha.k',
  diet: 'VEG',
  drinking: 'SOCIALLY',
  smoking: 'NO',
  photos: [0, 1, 2].map((sortOrder) => ({ objectKey: `dating/${sortOrder}.jpg`, sortOrder })),
  cuisines: ['ITALIAN', 'SOUTH_INDIAN'],
  interests: ['Books'],
  firstDateTypes: ['COFFEE'],
});

function errorsOf(body: unknown): Record<string, string> {
  const result = datingSignupBody.safeParse(body);
  return result.success ? {} : fieldErrors(result.error);
}

describe('dating phone rule: optional plus, then 10 to 15 digits', () => {
  it.each(['9876543210', '+919876543210', '+123456789012345', '  9876543210  ', '+91 98765 43210', '98765-43210'])('accepts %j', (phone) => {
    expect(datingLoginBody.safeParse({ phone, password: 'longenough' }).success).toBe(true);
  });

  it.each(['', '12345', '987654321', '+1234567890123456', '++919876543210', '98765abcde', '91-98765', 'phone', '9'.repeat(16)])(
    'refuses %j with the spec message',
    (phone) => {
      const result = datingLoginBody.safeParse({ phone, password: 'longenough' });
      expect(result.success).toBe(false);
      expect(fieldErrors(result.error!).phone).toBe('Enter a valid phone number');
    },
  );

  it('refuses a missing phone with the same message', () => {
    expect(fieldErrors(datingLoginBody.safeParse({ password: 'longenough' }).error!).phone).toBe('Enter a valid phone number');
  });

  it('is trimmed on entry', () => {
    expect(datingLoginBody.parse({ phone: ' +919876543210 ', password: 'longenough' }).phone).toBe('+919876543210');
  });

  it('normalises one number to one spelling for uniqueness and login', () => {
    expect(normalizeDatingPhone('9876543210')).toBe('+919876543210');
    expect(normalizeDatingPhone('09876543210')).toBe('+919876543210');
    expect(normalizeDatingPhone('+91 98765 43210')).toBe('+919876543210');
    expect(normalizeDatingPhone('+14155550123')).toBe('+14155550123');
    expect(normalizeDatingPhone('14155550123')).toBe('+14155550123');
  });
});

describe('dating password rule: at least 8 characters', () => {
  it.each(['', 'short', '1234567'])('refuses %j with Min 8 characters', (password) => {
    expect(fieldErrors(datingLoginBody.safeParse({ phone: '9876543210', password }).error!).password).toBe('Min 8 characters');
    expect(errorsOf({ ...validSignup(), password }).password).toBe('Min 8 characters');
  });

  it('accepts exactly 8 characters', () => {
    expect(datingLoginBody.safeParse({ phone: '9876543210', password: '12345678' }).success).toBe(true);
  });
});

describe('dating signup rules', () => {
  it('accepts a complete profile', () => {
    const parsed = datingSignupBody.parse(validSignup());
    expect(parsed.instagramHandle).toBe('asha.k');
    expect(parsed.photos).toHaveLength(3);
  });

  it('accepts the bare minimum, defaulting physical activity to SOMETIMES and blank answers to empty', () => {
    const {
      profession,
      dreams,
      fiveYearGoal,
      whatIWantInPartner,
      whyPartnerWouldLikeMe,
      physicalActivity,
      instagramHandle,
      diet,
      drinking,
      smoking,
      interests,
      ...minimum
    } = validSignup();
    const parsed = datingSignupBody.parse({ ...minimum, diet: '', drinking: '', smoking: '', instagramHandle: '' });
    expect(parsed.physicalActivity).toBe('SOMETIMES');
    expect(parsed.dreams).toBe('');
    expect(parsed.diet).toBeUndefined();
    expect(parsed.instagramHandle).toBeUndefined();
    expect(parsed.interests).toEqual([]);
    expect(parsed.profession).toBeUndefined();
  });

  it.each([
    ['name', { name: '   ' }, 'Name is required'],
    ['name', { name: undefined }, 'Name is required'],
    ['dob', { dob: '' }, 'Date of birth required'],
    ['dob', { dob: undefined }, 'Date of birth required'],
    ['dob', { dob: '1996-02-30' }, 'Enter a valid date of birth'],
    ['photos', { photos: [] }, 'Add exactly 3 photos'],
    ['photos', { photos: undefined }, 'Add exactly 3 photos'],
    ['photos', { photos: [0, 1].map((sortOrder) => ({ objectKey: `k${sortOrder}`, sortOrder })) }, 'Add exactly 3 photos'],
    ['photos', { photos: [0, 1, 2, 2].map((sortOrder, i) => ({ objectKey: `k${i}`, sortOrder })) }, 'Add exactly 3 photos'],
    ['photos', { photos: [0, 1, 2].map((sortOrder) => ({ objectKey: 'same', sortOrder })) }, 'Add exactly 3 photos'],
    ['photos', { photos: [0, 1, 1].map((sortOrder, i) => ({ objectKey: `k${i}`, sortOrder })) }, 'Photos need sortOrder 0, 1 and 2'],
    ['cuisines', { cuisines: [] }, 'Pick at least one cuisine'],
    ['cuisines', { cuisines: undefined }, 'Pick at least one cuisine'],
    ['cuisines', { cuisines: ['PIZZA'] }, 'Choose cuisines from the list'],
    ['firstDateTypes', { firstDateTypes: [] }, 'Pick at least one preferred first date'],
    ['firstDateTypes', { firstDateTypes: ['SKYDIVING'] }, 'Choose first dates from the list'],
    ['dateBudget', { dateBudget: '' }, 'Choose a date budget'],
    ['dateBudget', { dateBudget: undefined }, 'Choose a date budget'],
    ['dateBudget', { dateBudget: 'CHEAP' }, 'Choose a date budget'],
    ['physicalActivity', { physicalActivity: 'SOFA' }, 'Choose how active you are'],
    ['diet', { diet: 'KETO' }, 'Choose a diet from the list'],
    ['drinking', { drinking: 'DAILY' }, 'Choose how often you drink from the list'],
    ['smoking', { smoking: 'MAYBE' }, 'Choose whether you smoke from the list'],
    ['instagramHandle', { instagramHandle: 'not a handle!' }, 'Enter an Instagram handle like @name'],
  ])('%s: %j → %s', (field, change, message) => {
    expect(errorsOf({ ...validSignup(), ...change })[field]).toBe(message);
  });

  it.each(['dreams', 'fiveYearGoal', 'whatIWantInPartner', 'whyPartnerWouldLikeMe'] as const)('%s allows 200 characters and refuses 201', (field) => {
    expect(errorsOf({ ...validSignup(), [field]: 'x'.repeat(200) })[field]).toBeUndefined();
    expect(errorsOf({ ...validSignup(), [field]: 'x'.repeat(201) })[field]).toBe('Max 200 characters');
  });

  it('keeps the enumerations exactly as the spec lists them', () => {
    expect(cuisines).toEqual(['NORTH_INDIAN', 'SOUTH_INDIAN', 'ITALIAN', 'JAPANESE', 'THAI', 'MEXICAN', 'MIDDLE_EASTERN', 'VEGETARIAN_ONLY', 'VEGAN', 'JAIN']);
    expect(firstDateTypes).toEqual([
      'COFFEE',
      'QUICK_COCKTAIL',
      'BREAKFAST',
      'LUNCH',
      'DINNER',
      'GO_KARTING',
      'PAINT_DATE',
      'BOWLING',
      'MUSEUM_WALK',
      'LIVE_MUSIC',
      'ICECREAM_WALK',
    ]);
    expect(physicalActivities).toEqual(['RARELY', 'SOMETIMES', 'REGULAR', 'ATHLETE']);
    expect(dateBudgetChoices.map((choice) => choice.label)).toEqual(['₹500–1,000', '₹1,000–2,500', '₹2,500–5,000', '₹5,000+']);
  });

  it('reads a budget sent as its label as the code', () => {
    expect(datingSignupBody.parse({ ...validSignup(), dateBudget: '₹5,000+' }).dateBudget).toBe('INR_5000_PLUS');
  });

  it('drops repeated chips and blank or repeated tags', () => {
    const parsed = datingSignupBody.parse({ ...validSignup(), cuisines: ['THAI', 'THAI'], interests: [' Books ', 'Books', '', 'Jazz'] });
    expect(parsed.cuisines).toEqual(['THAI']);
    expect(parsed.interests).toEqual(['Books', 'Jazz']);
    expect(datingLanguages.parse(['Kannada', ' Kannada', 'Hindi'])).toEqual(['Kannada', 'Hindi']);
  });

  it('names every broken field at once, in the spec words', () => {
    expect(errorsOf({})).toMatchObject({
      phone: DATING_MESSAGES.phone,
      password: DATING_MESSAGES.password,
      name: DATING_MESSAGES.name,
      dob: DATING_MESSAGES.dob,
      photos: DATING_MESSAGES.photos,
      cuisines: DATING_MESSAGES.cuisines,
      firstDateTypes: DATING_MESSAGES.firstDateTypes,
      dateBudget: DATING_MESSAGES.dateBudget,
    });
  });
});

describe('the age rule (ours): 18 or older on today in Kolkata', () => {
  it('counts whole years', () => {
    expect(ageOn('2008-11-22', '2026-11-22')).toBe(18);
    expect(ageOn('2008-11-23', '2026-11-22')).toBe(17);
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-03-01')).toBe(18);
  });

  it('refuses under 18 with its message', () => {
    expect(checkDatingAge('2008-11-23', '2026-11-22')).toBe(UNDER_AGE_MESSAGE);
    expect(UNDER_AGE_MESSAGE).toBe('You must be 18 or older');
    expect(checkDatingAge('2008-11-22', '2026-11-22')).toBeNull();
  });

  it('gives the date picker the last birth date that is 18 today', () => {
    expect(latestAdultDob('2026-11-22')).toBe('2008-11-22');
    expect(latestAdultDob('2028-02-29')).toBe('2010-02-28');
    expect(checkDatingAge(latestAdultDob('2028-02-29'), '2028-02-29')).toBeNull();
  });
});

describe('photo presign request', () => {
  it('defaults each content type to image/jpeg', () => {
    expect(datingPresignBody.parse({ count: 3, userHint: 'signup' }).contentTypes).toEqual(['image/jpeg', 'image/jpeg', 'image/jpeg']);
  });

  it.each([
    [{ count: 0, userHint: 'signup' }],
    [{ count: 4, userHint: 'signup' }],
    [{ count: 3, userHint: 'profile' }],
    [{ count: 2, contentTypes: ['image/png'], userHint: 'signup' }],
    [{ count: 1, contentTypes: ['application/pdf'], userHint: 'signup' }],
  ])('refuses %j', (body) => {
    expect(datingPresignBody.safeParse(body).success).toBe(false);
  });
});
