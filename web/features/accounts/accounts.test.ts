import { describe, expect, it } from 'vitest';
import { loginPath, safeReturnPath, signupPath } from './return-path.ts';
import { emptySignup, signupPayload, validateSignup } from './signup-form.ts';

describe('return path after signing in', () => {
  it('accepts same-site paths only', () => {
    expect(safeReturnPath('/r/toit-tandoor?date=2026-11-24&time=19%3A30&party=2')).toBe('/r/toit-tandoor?date=2026-11-24&time=19%3A30&party=2');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '', null, undefined, '/\u0000x']) {
      expect(safeReturnPath(bad)).toBeNull();
    }
  });

  it('carries it through /login and /signup', () => {
    expect(loginPath('/r/x?date=2026-11-24')).toBe('/login?next=%2Fr%2Fx%3Fdate%3D2026-11-24');
    expect(loginPath('/')).toBe('/login');
    expect(loginPath('https://evil.example')).toBe('/login');
    expect(signupPath('/me')).toBe('/signup?next=%2Fme');
    expect(signupPath(null)).toBe('/signup');
  });
});

describe('diner signup form', () => {
  it('requires only username and password', () => {
    expect(validateSignup(emptySignup)).toEqual({ username: 'Username is required', password: 'Password is required' });
    expect(validateSignup({ ...emptySignup, username: 'asha', password: 'long-enough' })).toEqual({});
  });

  it("uses the shared schema's messages", () => {
    const errors = validateSignup({ ...emptySignup, username: 'a b', password: 'short', email: 'nope', phone: 'call me' });
    expect(errors.username).toBe('Username may use only letters, digits, _ and .');
    expect(errors.password).toBe('Password must be at least 8 characters');
    expect(errors.email).toBe('Enter a valid email address');
    expect(errors.phone).toBe('Enter a valid phone number');
  });

  it('sends every field, blanks as empty strings, the username trimmed', () => {
    expect(signupPayload({ ...emptySignup, username: '  asha ', password: 'pw-123456', preferredHood: 'HSR Layout' })).toEqual({
      username: 'asha',
      password: 'pw-123456',
      name: '',
      email: '',
      phone: '',
      preferredHood: 'HSR Layout',
    });
  });
});
