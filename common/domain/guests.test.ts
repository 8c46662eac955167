import { describe, expect, it } from 'vitest';
import { describeRequest, isEmptyRequest, mentionsAllergy } from './guests.ts';

describe('guest requests', () => {
  it('reads an empty request as none', () => {
    expect(isEmptyRequest({ occasion: null, picks: [], note: '  ' })).toBe(true);
    expect(isEmptyRequest({ occasion: 'date', picks: [], note: '' })).toBe(false);
  });

  it('flags allergies from the pick, the tag or the words', () => {
    expect(mentionsAllergy({ occasion: null, picks: ['allergies'], note: '' }, [])).toBe(true);
    expect(mentionsAllergy(null, ['allergy'])).toBe(true);
    expect(mentionsAllergy({ occasion: null, picks: [], note: 'Peanut ALLERGY' }, [])).toBe(true);
    expect(mentionsAllergy(null, [], 'allergic to shellfish')).toBe(true);
    expect(mentionsAllergy({ occasion: 'birthday', picks: ['jain'], note: 'cake at 9' }, ['vip'])).toBe(false);
  });

  it('describes a request in one line', () => {
    expect(describeRequest({ occasion: 'birthday', picks: ['jain', 'high-chair'], note: ' no nuts ' })).toBe('Birthday · Jain · High chair · “no nuts”');
  });
});
