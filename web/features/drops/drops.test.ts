import { describe, expect, it } from 'vitest';
import { clockOffsetMs, formatWait, secondsBetween } from './clock.ts';
import { drawOrder, entryListHash, seedCommitment } from '#common/domain/draw.ts';
import { drawCheckSummary, nextMilestone, resultHeadline, verifyDraw } from './rules.ts';

describe('drop countdowns', () => {
  it('measure the server clock against the device', () => {
    expect(clockOffsetMs('2026-11-23T10:00:05.000Z', Date.parse('2026-11-23T10:00:00.000Z'))).toBe(5_000);
    expect(clockOffsetMs('not a time', 0)).toBe(0);
  });

  it('format waits as m:ss, h:mm:ss and days', () => {
    expect(formatWait(581)).toBe('9:41');
    expect(formatWait(0)).toBe('0:00');
    expect(formatWait(3 * 3600 + 5 * 60 + 9)).toBe('3:05:09');
    expect(formatWait(2 * 86_400 + 4 * 3600 + 5 * 60 + 59)).toBe('2d 4h 05m');
    expect(secondsBetween(Date.parse('2026-11-23T10:00:00.000Z'), '2026-11-23T10:09:41.000Z')).toBe(581);
    expect(secondsBetween(Date.parse('2026-11-23T10:10:00.000Z'), '2026-11-23T10:09:41.000Z')).toBe(0);
  });

  it('counts down to what comes next in the drop’s life', () => {
    const drop = { entryOpensAt: 'a', entryClosesAt: 'b', releaseAt: 'c' };
    expect(nextMilestone({ ...drop, phase: 'upcoming' })).toEqual({ label: 'Entries open in', at: 'a' });
    expect(nextMilestone({ ...drop, phase: 'open' })).toEqual({ label: 'Entries close in', at: 'b' });
    expect(nextMilestone({ ...drop, phase: 'closed' })).toEqual({ label: 'Draw in', at: 'c' });
    expect(nextMilestone({ ...drop, phase: 'released' })).toBeNull();
  });
});

describe('drop results', () => {
  const now = Date.parse('2026-11-23T10:00:00.000Z');
  it('say what the spec says', () => {
    expect(
      resultHeadline({ state: 'won', reservationId: 'r', holdExpiresAt: '2026-11-23T10:09:41.000Z', slot: { date: '2026-11-24', time: '19:00' } }, now),
    ).toBe('You got a table — complete booking in 9:41');
    expect(resultHeadline({ state: 'waiting', placeInLine: 37 }, now)).toBe('You are number 37 in line');
    expect(resultHeadline({ state: 'not_this_time' }, now)).toBe('Not this time');
  });
});

describe('checking a draw in the browser', () => {
  const seed = 'ab'.repeat(32);
  const entryIds = ['e-3', 'e-1', 'e-2'];

  it('says the seed matches its commitment and the order recomputes, and says so when either does not', async () => {
    const audit = {
      seed,
      seedCommitment: await seedCommitment(seed),
      entriesHash: await entryListHash(entryIds),
      entryIds,
      order: await drawOrder(seed, entryIds),
    };
    const good = await verifyDraw(audit);
    expect(good).toEqual({ seedMatches: true, entriesMatch: true, orderMatches: true });
    expect(drawCheckSummary(good, '2026-11-20T12:30:00.000Z')).toEqual({
      text: 'Seed matches the commitment published on Fri, 20 Nov, 6:00 PM ✓ · Order recomputed in your browser ✓',
      ok: true,
    });
    const otherSeed = await verifyDraw({ ...audit, seedCommitment: await seedCommitment('cd'.repeat(32)) });
    expect(drawCheckSummary(otherSeed, null)).toMatchObject({ ok: false, text: expect.stringContaining('does NOT match the published commitment') });
    const reordered = await verifyDraw({ ...audit, order: [...audit.order].reverse() });
    expect(reordered.orderMatches).toBe(false);
    const extraEntry = await verifyDraw({ ...audit, entryIds: [...entryIds, 'e-4'], order: await drawOrder(seed, [...entryIds, 'e-4']) });
    expect(extraEntry).toMatchObject({ entriesMatch: false, orderMatches: true });
    expect(drawCheckSummary(extraEntry, null).ok).toBe(false);
  });
});

describe('when the draw was sealed', () => {
  it('says "before entries opened" only when it was, on the same clock as the window', async () => {
    const { sealedWords } = await import('./DrawAudit.tsx');
    expect(sealedWords({ committedAt: '2026-11-27T08:27:00Z', entryOpensAt: '2026-11-27T09:27:00Z' })).toBe(
      'The draw’s secret seed was fixed on Fri, 27 Nov, 1:57 PM, before entries opened.',
    );
    expect(sealedWords({ committedAt: '2026-11-27T09:27:00Z', entryOpensAt: '2026-11-27T08:27:00Z' })).toBe(
      'The draw’s secret seed was fixed on Fri, 27 Nov, 2:57 PM, when the drop was created, before the entries closed.',
    );
  });
});
