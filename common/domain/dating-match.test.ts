import { describe, expect, it } from 'vitest';
import { MATCH_WEIGHTS, matchScore, neighbourhoodKm, passesHardFilters, type MatchProfile } from './dating-match.ts';

const base: MatchProfile = {
  freeEvenings: ['FRI_LATE'],
  cuisines: ['SOUTH_INDIAN'],
  firstDateTypes: ['COFFEE'],
  dateBudget: 'INR_1000_2500',
  neighbourhoods: ['Indiranagar'],
  intent: 'LONG_TERM',
};
/** A profile sharing nothing with `base` but one evening (the hard filter), far away, other intent. */
const stranger: MatchProfile = {
  freeEvenings: ['FRI_LATE'],
  cuisines: ['THAI'],
  firstDateTypes: ['MUSEUM_WALK'],
  dateBudget: 'INR_5000_PLUS',
  neighbourhoods: ['Whitefield'],
  intent: 'OPEN_TO_SEE',
};

describe('matchScore (decision 140)', () => {
  it('adds every weight for a perfect pair, and is symmetric', () => {
    const w = MATCH_WEIGHTS;
    expect(matchScore(base, base)).toBe(w.sharedEvening + w.sharedCuisine + w.sharedDateType + w.sameBudget + w.sameNeighbourhood + w.sameIntent);
    expect(matchScore(base, stranger)).toBe(matchScore(stranger, base));
  });

  it('counts shared evenings, cuisines and date types up to their caps', () => {
    const evenings = ['MON_EARLY', 'TUE_EARLY', 'WED_EARLY', 'THU_EARLY', 'FRI_EARLY', 'SAT_EARLY'];
    const a = { ...stranger, freeEvenings: evenings };
    const b = { ...stranger, freeEvenings: evenings, neighbourhoods: ['Indiranagar'] };
    const km = neighbourhoodKm('Whitefield', 'Indiranagar');
    const distancePoints = Math.max(0, 6 - Math.floor(km / 3));
    // 6 shared evenings count as 4; THAI and MUSEUM_WALK shared once each; same budget and intent.
    expect(matchScore(a, b)).toBe(3 * 4 + 2 * 1 + 2 * 1 + 4 + distancePoints + 3);
  });

  it('gives the next budget band half of the same band, and nothing beyond', () => {
    const sameBudget = matchScore(base, base);
    expect(matchScore(base, { ...base, dateBudget: 'INR_2500_5000' })).toBe(sameBudget - 2);
    expect(matchScore(base, { ...base, dateBudget: 'INR_5000_PLUS' })).toBe(sameBudget - 4);
  });

  it('loses a point per 3 km between homes (the first neighbourhood), never below zero', () => {
    const same = matchScore(base, base);
    expect(matchScore(base, { ...base, neighbourhoods: ['Koramangala'] })).toBe(same - 2); // 6 km
    expect(matchScore(base, { ...base, neighbourhoods: ['Whitefield'] })).toBe(same - 4); // 14 km
    expect(matchScore({ ...base, neighbourhoods: ['HSR'] }, { ...base, neighbourhoods: ['Whitefield'] })).toBe(same - 6); // 19 km
    // Only the home counts: a second neighbourhood in common does not.
    expect(matchScore({ ...base, neighbourhoods: ['HSR', 'Indiranagar'] }, base)).toBe(same - 3); // 10 km
  });

  it('prefers the better pair', () => {
    expect(matchScore(base, base)).toBeGreaterThan(matchScore(base, stranger));
  });
});

describe('neighbourhoodKm', () => {
  it('is symmetric, 0 at home and 25 for an unknown place', () => {
    expect(neighbourhoodKm('HSR', 'Koramangala')).toBe(neighbourhoodKm('Koramangala', 'HSR'));
    expect(neighbourhoodKm('HSR', 'HSR')).toBe(0);
    expect(neighbourhoodKm('HSR', 'Mysuru')).toBe(25);
    expect(neighbourhoodKm(undefined, 'HSR')).toBe(25);
  });
});

describe('passesHardFilters', () => {
  const wants = { wantAgeMin: 25, wantAgeMax: 35, freeEvenings: ['FRI_LATE'] };
  it('takes only 18+ inside the range with a shared evening', () => {
    expect(passesHardFilters(wants, { age: 30, freeEvenings: ['FRI_LATE'] })).toBe(true);
    expect(passesHardFilters(wants, { age: 24, freeEvenings: ['FRI_LATE'] })).toBe(false);
    expect(passesHardFilters(wants, { age: 36, freeEvenings: ['FRI_LATE'] })).toBe(false);
    expect(passesHardFilters(wants, { age: 30, freeEvenings: ['SAT_LATE'] })).toBe(false);
    expect(passesHardFilters({ ...wants, wantAgeMin: 0 }, { age: 17, freeEvenings: ['FRI_LATE'] })).toBe(false);
  });
});
