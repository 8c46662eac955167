import { z } from 'zod';
import { preferredHoods } from '../domain/restaurants.ts';

/** Optional text fields arrive as '' from forms: treat blank as absent. */
const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, { message })
    .optional()
    .transform((value) => (value ? value : undefined));

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
  name: optionalText(100, 'Full name must be at most 100 characters'),
  email: z
    .union([z.literal(''), z.email({ message: 'Enter a valid email address' }).max(254)])
    .optional()
    .transform((value) => (value ? value.toLowerCase() : undefined)),
  phone: z
    .union([z.literal(''), z.string().trim().regex(/^\+?[\d\s-]{7,20}$/, { message: 'Enter a valid phone number' })])
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
