import { describe, expect, it } from 'vitest';
import { genderLabel, wantsToMeet, wishesMatch } from './dating-gender.ts';

describe('wantsToMeet and wishesMatch (decision 250)', () => {
  it('takes only the wished gender, everyone takes anyone', () => {
    expect(wantsToMeet('WOMEN', 'WOMAN')).toBe(true);
    expect(wantsToMeet('WOMEN', 'MAN')).toBe(false);
    expect(wantsToMeet('MEN', 'MAN')).toBe(true);
    expect(wantsToMeet('MEN', 'NON_BINARY')).toBe(false);
    for (const gender of ['WOMAN', 'MAN', 'NON_BINARY', 'SELF_DESCRIBED', null] as const) expect(wantsToMeet('EVERYONE', gender)).toBe(true);
  });

  it('needs both sides: a non-binary member is met by those who want to meet everyone', () => {
    const nb = { gender: 'NON_BINARY' as const, wantsToMeet: 'EVERYONE' as const };
    expect(wishesMatch(nb, { gender: 'WOMAN', wantsToMeet: 'EVERYONE' })).toBe(true);
    expect(wishesMatch(nb, { gender: 'WOMAN', wantsToMeet: 'WOMEN' })).toBe(false);
    expect(wishesMatch({ gender: 'WOMAN', wantsToMeet: 'WOMEN' }, { gender: 'WOMAN', wantsToMeet: 'WOMEN' })).toBe(true);
    expect(wishesMatch({ gender: 'WOMAN', wantsToMeet: 'MEN' }, { gender: 'MAN', wantsToMeet: 'MEN' })).toBe(false);
    expect(wishesMatch({ gender: 'WOMAN', wantsToMeet: 'MEN' }, { gender: 'MAN', wantsToMeet: 'WOMEN' })).toBe(true);
  });

  it('reads a self-described gender in the member’s own words', () => {
    expect(genderLabel('SELF_DESCRIBED', ' Genderfluid ')).toBe('Genderfluid');
    expect(genderLabel('NON_BINARY', null)).toBe('Non-binary');
    expect(genderLabel(null, null)).toBe('');
  });
});
