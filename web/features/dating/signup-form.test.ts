import { describe, expect, it } from 'vitest';
import { datingSignupBody } from '#common/contract/dating.ts';
import {
  addTag,
  emptySignupForm,
  photoProblem,
  removeTag,
  runSignupSequence,
  toggle,
  toSignupBody,
  validateLoginForm,
  validateSignupForm,
  type DatingSignupForm,
} from './signup-form.ts';

/** The web side of the dating forms: the same schema as the server, plus the spec's form behaviour. */

const photo = (name: string, type = 'image/png') => new File([new Uint8Array([137, 80, 78, 71])], name, { type });

function filledForm(): DatingSignupForm {
  return {
    ...emptySignupForm('Asia/Kolkata'),
    phone: '+91 98765 43210',
    password: 'password123',
    name: 'Anaya',
    dob: '1995-03-14',
    dateBudget: 'INR_500_1000',
    photos: [photo('a.png'), photo('b.png'), photo('c.jpg', 'image/jpeg')],
    cuisines: ['THAI'],
    firstDateTypes: ['COFFEE'],
    languages: ['Kannada'],
  };
}

describe('signup form validation (the server schema, with photos counted from the chosen files)', () => {
  it('defaults physical activity to SOMETIMES and the time zone to the browser else Asia/Kolkata', () => {
    const form = emptySignupForm();
    expect(form.physicalActivity).toBe('SOMETIMES');
    expect(form.timeZone).toBeTruthy();
    expect(emptySignupForm('Asia/Kolkata').timeZone).toBe('Asia/Kolkata');
  });

  it('shows every spec message on an empty form', () => {
    expect(validateSignupForm(emptySignupForm(), '2026-11-22')).toEqual({
      phone: 'Enter a valid phone number',
      password: 'Min 8 characters',
      name: 'Name is required',
      dob: 'Date of birth required',
      dateBudget: 'Choose a date budget',
      photos: 'Add exactly 3 photos',
      cuisines: 'Pick at least one cuisine',
      firstDateTypes: 'Pick at least one preferred first date',
    });
  });

  it('passes a complete form', () => {
    expect(validateSignupForm(filledForm(), '2026-11-22')).toEqual({});
  });

  it.each([2, 4])('refuses %i photos', (count) => {
    const form = { ...filledForm(), photos: Array.from({ length: count }, (_, i) => photo(`${i}.png`)) };
    expect(validateSignupForm(form, '2026-11-22').photos).toBe('Add exactly 3 photos');
  });

  it('refuses under 18 on the Kolkata date', () => {
    expect(validateSignupForm({ ...filledForm(), dob: '2008-11-23' }, '2026-11-22').dob).toBe('You must be 18 or older');
    expect(validateSignupForm({ ...filledForm(), dob: '2008-11-22' }, '2026-11-22').dob).toBeUndefined();
  });

  it('limits the four answers to 200 characters', () => {
    for (const field of ['dreams', 'fiveYearGoal', 'whatIWantInPartner', 'whyPartnerWouldLikeMe'] as const) {
      expect(validateSignupForm({ ...filledForm(), [field]: 'x'.repeat(201) }, '2026-11-22')[field]).toBe('Max 200 characters');
    }
  });

  it('sends the payload with languages and without the time zone, photos with sortOrder 0-2, and the server accepts it', () => {
    const body = toSignupBody(filledForm(), ['dating/a.png', 'dating/b.png', 'dating/c.jpg']);
    expect(body.languages).toEqual(['Kannada']);
    expect(body).not.toHaveProperty('timeZone');
    expect(body.photos).toEqual([
      { objectKey: 'dating/a.png', sortOrder: 0 },
      { objectKey: 'dating/b.png', sortOrder: 1 },
      { objectKey: 'dating/c.jpg', sortOrder: 2 },
    ]);
    expect(datingSignupBody.safeParse(body).success).toBe(true);
  });

  it('checks login live with the same rules', () => {
    expect(validateLoginForm({ phone: '', password: '' })).toEqual({ phone: 'Enter a valid phone number', password: 'Min 8 characters' });
    expect(validateLoginForm({ phone: ' +919876543210 ', password: 'password123' })).toEqual({});
  });
});

describe('chips, tags and photo files', () => {
  it('toggles a chip', () => {
    expect(toggle(['COFFEE'], 'DINNER')).toEqual(['COFFEE', 'DINNER']);
    expect(toggle(['COFFEE', 'DINNER'], 'COFFEE')).toEqual(['DINNER']);
  });

  it('adds a tag trimmed, ignores blanks and repeats, and removes', () => {
    let tags: string[] = [];
    for (const entry of ['  Jazz ', 'Jazz', 'jazz', '   ', '', 'Pottery']) tags = addTag(tags, entry);
    expect(tags).toEqual(['Jazz', 'Pottery']);
    expect(removeTag(tags, 'Jazz')).toEqual(['Pottery']);
  });

  it('rejects a file without an image type with the spec alert', () => {
    expect(photoProblem({ type: 'text/plain', size: 10 })).toBe('Please select an image');
    expect(photoProblem({ type: '', size: 10 })).toBe('Please select an image');
    expect(photoProblem({ type: 'image/gif', size: 10 })).toBe('Please choose a JPEG, PNG or WebP photo');
    expect(photoProblem({ type: 'image/png', size: 8 * 1024 * 1024 + 1 })).toBe('Each photo must be 8 MB or smaller');
    expect(photoProblem({ type: 'image/jpeg', size: 1000 })).toBeNull();
  });
});

describe('the signup sequence', () => {
  it('presigns 3, uploads all 3 before signing up, and sends their keys in order', async () => {
    const calls: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    await runSignupSequence(filledForm(), {
      async presign(body) {
        calls.push(`presign ${body.count} ${body.contentTypes.join(',')}`);
        return { items: ['k0', 'k1', 'k2'].map((objectKey) => ({ objectKey, uploadUrl: `/put/${objectKey}`, contentType: 'image/png' })) };
      },
      async upload(url) {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        calls.push(`upload ${url}`);
      },
      async signup(body) {
        calls.push(`signup ${body.photos.map((p) => `${p.objectKey}:${p.sortOrder}`).join(',')}`);
      },
    });
    expect(calls[0]).toBe('presign 3 image/png,image/png,image/jpeg');
    expect(calls.slice(1, 4).sort()).toEqual(['upload /put/k0', 'upload /put/k1', 'upload /put/k2']);
    expect(calls[4]).toBe('signup k0:0,k1:1,k2:2');
    expect(maxInFlight).toBe(3);
  });

  it("fails with 'Failed to presign 3 uploads' when the presign does not return exactly 3 items", async () => {
    let signedUp = false;
    const attempt = runSignupSequence(filledForm(), {
      presign: async () => ({ items: [{ objectKey: 'k0', uploadUrl: '/put/k0', contentType: 'image/png' }] }),
      upload: async () => {},
      signup: async () => {
        signedUp = true;
      },
    });
    await expect(attempt).rejects.toThrow('Failed to presign 3 uploads');
    expect(signedUp).toBe(false);
  });
});

describe('the time-zone field', () => {
  it('reads a browser that says Asia/Calcutta as Asia/Kolkata, and offers the common zones first', async () => {
    const { canonicalTimeZone, timeZoneChoices } = await import('./signup-form.ts');
    expect(canonicalTimeZone('Asia/Calcutta')).toBe('Asia/Kolkata');
    const { common, others } = timeZoneChoices('Asia/Kolkata', ['Africa/Abidjan', 'Asia/Calcutta', 'Asia/Kolkata', 'Europe/London', 'Pacific/Fiji']);
    expect(common[0]).toBe('Asia/Kolkata');
    expect(others).toEqual(['Africa/Abidjan', 'Pacific/Fiji']);
    // A zone chosen from the long list stays offered among the common ones.
    expect(timeZoneChoices('Pacific/Fiji', []).common.at(-1)).toBe('Pacific/Fiji');
  });
});
