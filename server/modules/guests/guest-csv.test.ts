import { describe, expect, it } from 'vitest';
import type { GuestSummary } from '#common/contract/guests.ts';
import { guestListCsv } from './guest-csv.ts';

const guest = (over: Partial<GuestSummary>): GuestSummary => ({
  guestId: 'g1',
  name: 'Asha',
  email: null,
  phone: '+919800000001',
  visits: 2,
  lastVisit: '2026-11-20',
  noShows: 0,
  lateCancels: 1,
  tags: ['vip', 'allergy'],
  note: 'Peanuts',
  allergy: true,
  ...over,
});

describe('the guest list CSV', () => {
  it('writes a header and one quoted row per guest', () => {
    const lines = guestListCsv([guest({})]).split('\r\n');
    expect(lines[0]).toBe('"Name","Phone","Email","Visits","Last visit","No-shows","Late cancels","Tags","Note"');
    // A phone number starting with + is text, not a formula.
    expect(lines[1]).toBe('"Asha","\'+919800000001","","2","2026-11-20","0","1","VIP, Allergy","Peanuts"');
  });

  it('defuses every cell a spreadsheet would run as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      const csv = guestListCsv([guest({ name: `${start}HYPERLINK("http://evil")`, note: `${start}1+1` })]);
      const row = csv.split('\r\n')[1] ?? csv;
      expect(csv).toContain(`"'${start}HYPERLINK(""http://evil"")"`);
      expect(csv).toContain(`"'${start}1+1"`);
      expect(row.startsWith('"\'')).toBe(true);
    }
  });

  it('keeps HTML as plain text and quotes inside cells doubled', () => {
    const csv = guestListCsv([guest({ name: '<img src=x onerror=alert(1)>', note: 'say "hi"\nnext line' })]);
    expect(csv).toContain('"<img src=x onerror=alert(1)>"');
    expect(csv).toContain('"say ""hi""\nnext line"');
  });
});
