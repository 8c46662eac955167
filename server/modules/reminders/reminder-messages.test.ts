import { describe, expect, it } from 'vitest';
import { calendarUpdateEmail } from './reminder-messages.ts';

describe('the acceptance email', () => {
  const facts = { restaurantName: 'Toit', date: 'Mon, 23 Nov', time: '7:30 PM', partySize: 2 };

  it('repeats what the diner told the restaurant, as one plain line', () => {
    const email = calendarUpdateEmail('accepted', { ...facts, request: 'Birthday · “<b>cake</b>\r\nBcc: x@y.z”' }, 'https://x/cal');
    expect(email.body).toContain('You told the restaurant: Birthday · “<b>cake</b> Bcc: x@y.z”\n\n');
    expect(email.body.split('\n').filter((line) => line.startsWith('Bcc'))).toEqual([]);
  });

  it('says nothing of a request when there is none', () => {
    expect(calendarUpdateEmail('accepted', { ...facts, request: null }, 'https://x/cal').body).not.toContain('You told');
  });
});
