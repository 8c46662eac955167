import { describe, expect, it } from 'vitest';
import { deliveryRoute } from './delivery-policy.ts';

/** The delivery policy with push and the diner's choices (decisions 212, 213). */
const reach = { phone: '+919876543210', email: 'asha@example.com', liveChannels: ['whatsapp', 'sms'] as const };

describe('deliveryRoute with push', () => {
  it('puts a subscribed diner’s browsers first for an offer, email last', () => {
    expect(deliveryRoute('offer', { ...reach, pushTo: 'user-1' }).map((step) => step.channel)).toEqual(['push', 'whatsapp', 'sms', 'email']);
    expect(deliveryRoute('offer', { ...reach, pushTo: 'user-1' })[0]).toEqual({ channel: 'push', recipient: 'user-1' });
  });

  it('leaves push out without a subscription, and the channels the diner turned off', () => {
    expect(deliveryRoute('offer', reach).map((step) => step.channel)).toEqual(['whatsapp', 'sms', 'email']);
    expect(deliveryRoute('offer', { ...reach, pushTo: 'user-1', declined: ['push', 'whatsapp'] }).map((step) => step.channel)).toEqual(['sms', 'email']);
  });

  it('orders the reminder texts by REMINDER_TEXT_CHANNEL behind the browsers', () => {
    expect(deliveryRoute('reminder', { ...reach, email: null, pushTo: 'user-1', preferred: 'sms' }).map((step) => step.channel)).toEqual([
      'push',
      'sms',
      'whatsapp',
    ]);
    expect(deliveryRoute('reminder', { ...reach, email: null, preferred: 'sms' }).map((step) => step.channel)).toEqual(['sms', 'whatsapp']);
  });

  it('sends a draw’s result only to a subscribed browser', () => {
    expect(deliveryRoute('result', { phone: null, email: null, liveChannels: [], pushTo: 'user-1' })).toEqual([{ channel: 'push', recipient: 'user-1' }]);
    expect(deliveryRoute('result', { ...reach })).toEqual([]);
  });

  it('sends a code to the phone whatever the diner turned off', () => {
    expect(deliveryRoute('code', { ...reach, pushTo: 'user-1' }).map((step) => step.channel)).toEqual(['sms', 'whatsapp']);
  });
});
