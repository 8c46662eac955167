import { z } from 'zod';
import { preferredHoods } from '../domain/restaurants.ts';
import { oneLineName } from './common.ts';

export const signupBody = z.object({
  username: z
    .string({ message: 'Username is required' })
    .trim()
    .min(3, { message: 'Username must be 3-32 characters' })
    .max(32, { message: 'Username must be 3-32 characters' })
    .regex(/^[a-zA-Z0-9_.]+$/, { message: 'Username may use only letters, digits, _ and .' }),
  password: z
    .string({ message: 'Password is required' })
    .min(8, { message: 'Password must be at least 8 characters' })
    .max(200, { message: 'Password must be at most 200 characters' }),
  // An optional field arrives as '' from the form: blank is absent.
  name: z
    .string()
    .trim()
    .max(100, { message: 'Full name must be at most 100 characters' })
    .refine(...oneLineName('name'))
    .optional()
    .transform((value) => (value ? value : undefined)),
  email: z
    .union([z.literal(''), z.email({ message: 'Enter a valid email address' }).max(254)])
    .optional()
    .transform((value) => (value ? value.toLowerCase() : undefined)),
  phone: z
    .union([
      z.literal(''),
      z
        .string()
        .trim()
        .regex(/^\+?[\d\s-]{7,20}$/, { message: 'Enter a valid phone number' }),
    ])
    .optional()
    .transform((value) => (value ? value.replace(/[\s-]/g, '') : undefined)),
  preferredHood: z
    // The union's own message: otherwise a wrong value reads as Zod's bare 'Invalid input'.
    .union([z.literal(''), z.enum(preferredHoods)], { message: 'Choose one of the listed neighbourhoods' })
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type SignupBody = z.input<typeof signupBody>;

export const loginBody = z.object({
  username: z.string({ message: 'Username is required' }).trim().min(1, { message: 'Username is required' }).max(64),
  password: z.string({ message: 'Password is required' }).min(1, { message: 'Password is required' }).max(200),
});
export type LoginBody = z.infer<typeof loginBody>;

export const loginResponse = z.object({ token: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

export const staffLoginResponse = z.object({ token: z.string(), restaurantId: z.string() });
export type StaffLoginResponse = z.infer<typeof staffLoginResponse>;

export const dinerProfile = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  preferredHood: z.string().nullable(),
});
export type DinerProfile = z.infer<typeof dinerProfile>;

/**
 * A phone number to verify, written the way people do (+91 98765 43210, 098765-43210, 9876543210)
 * and kept as +<country><number>: ten digits alone are an Indian mobile number (decision 084).
 */
export function normalizePhone(value: string): string {
  const digits = value.replace(/[\s()-]/g, '');
  if (digits.startsWith('+')) return digits;
  if (/^\d{10}$/.test(digits)) return `+91${digits}`;
  if (/^0\d{10}$/.test(digits)) return `+91${digits.slice(1)}`;
  return `+${digits}`;
}

export const verifiablePhone = z
  .string({ message: 'Enter a valid phone number' })
  .trim()
  .regex(/^\+?[\d\s()-]{10,24}$/, { message: 'Enter a valid phone number' })
  .transform(normalizePhone)
  .pipe(z.string().regex(/^\+\d{10,15}$/, { message: 'Enter a valid phone number' }));

/**
 * A phone texts may go to: a verifiable phone whose country code is in the allowed list
 * (SMS_ALLOWED_COUNTRY_CODES, `+91` by default; decision 095).
 */
export function textablePhone(countryCodes: readonly string[]) {
  const message = `Codes can only be sent to numbers starting ${countryCodes.join(' or ')}`;
  return verifiablePhone.refine((phone) => countryCodes.some((code) => phone.startsWith(code)), { message });
}

export const startPhoneVerificationBody = z.object({ phone: verifiablePhone });
export type StartPhoneVerificationBody = z.infer<typeof startPhoneVerificationBody>;

export const verifyPhoneBody = z.object({
  phone: verifiablePhone,
  code: z
    .string({ message: 'Enter the 6-digit code' })
    .trim()
    .regex(/^\d{6}$/, { message: 'Enter the 6-digit code' }),
});
export type VerifyPhoneBody = z.infer<typeof verifyPhoneBody>;

/** Sent after a code went out (the code itself never appears in any response). */
export const phoneCodeSent = z.object({
  phone: z.string(),
  /** When the code stops working. */
  expiresAt: z.string(),
  /** When another code may be asked for. */
  resendAt: z.string(),
});
export type PhoneCodeSent = z.infer<typeof phoneCodeSent>;

/** The signed-in diner's phone verification: a verified phone, and any code waiting to be entered. */
export const phoneVerificationStatus = z.object({
  verifiedPhone: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  pending: phoneCodeSent.extend({ attemptsLeft: z.number() }).nullable(),
});
export type PhoneVerificationStatus = z.infer<typeof phoneVerificationStatus>;

/** DELETE /api/auth/me: the account is deleted (decision 266); how many upcoming bookings were cancelled with it. */
export const accountDeletionResponse = z.object({ cancelledBookings: z.number().int() });
export type AccountDeletionResponse = z.infer<typeof accountDeletionResponse>;
