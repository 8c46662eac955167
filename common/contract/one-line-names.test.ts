import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { signupBody } from './accounts.ts';
import { datingSignupBody } from './dating.ts';
import { createDropBody } from './drops.ts';
import { updateAdminRestaurantBody } from './portal.ts';

/**
 * Names people type are one line (decision 203): a restaurant's name and neighbourhood, a diner's
 * and a dating member's name, a drop's title. A control character or a line break inside one is
 * refused with a 400 naming the field, whatever else the body holds.
 */
const NAME_FIELDS: { body: string; schema: ZodType; field: string }[] = [
  { body: 'the restaurant profile', schema: updateAdminRestaurantBody, field: 'name' },
  { body: 'the restaurant profile', schema: updateAdminRestaurantBody, field: 'neighborhood' },
  { body: 'a diner signup', schema: signupBody, field: 'name' },
  { body: 'a dating signup', schema: datingSignupBody, field: 'name' },
  { body: 'a new drop', schema: createDropBody, field: 'title' },
];

/** The messages Zod gives for one field of a body where every other field may be wrong. */
function messagesFor(schema: ZodType, field: string, value: string): string[] {
  const result = schema.safeParse({ [field]: value });
  return result.success ? [] : result.error.issues.filter((issue) => issue.path[0] === field).map((issue) => issue.message);
}

const HOSTILE = [
  'Bistro\rATTACH:https://evil.example/x.exe',
  'Bistro\nX-Header: 1',
  'Bistro\u0000',
  'Bistro\u001b[31m',
  'Bistro\u007f',
  'Bistro\u0085next line',
  'Bistro\u2028Second line',
  'Bis\ttro',
];

describe('names refuse control characters at input', () => {
  for (const { body, schema, field } of NAME_FIELDS) {
    it(`${body}: ${field}`, () => {
      expect(messagesFor(schema, field, 'Dosa; Coffee, & Co — ಬೆಂಗಳೂರು')).toEqual([]);
      for (const value of HOSTILE) {
        expect(messagesFor(schema, field, value), JSON.stringify(value)).toEqual([`${field} must be one line, without line breaks or control characters`]);
      }
    });
  }
});
