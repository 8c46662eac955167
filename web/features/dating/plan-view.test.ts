import { describe, expect, it } from 'vitest';
import { dateDepositStates, type DatePlan } from '#common/contract/dating-plans.ts';
import { datePlanStatuses } from '#common/domain/dating-plan.ts';
import {
  cancelConsequence,
  depositWords,
  lateCancelWords,
  partnerProgress,
  PARTNER_POLL_MS,
  PAYMENT_POLL_MS,
  PROPOSED_POLL_MS,
  payoutWords,
  planActions,
  planHeadline,
  plansPollInterval,
  planWhen,
  sortPlans,
  strikesWords,
  timeLeftWords,
  withReturnTo,
} from './plan-view.ts';

/** What the member sees of a date plan: the buttons, the words and when the list is read again. */

function plan(overrides: Partial<Omit<DatePlan, 'me' | 'partner'>> & { me?: Partial<DatePlan['me']>; partner?: Partial<DatePlan['partner']> } = {}): DatePlan {
  const { me, partner, ...rest } = overrides;
  return {
    id: 'p1',
    status: 'PROPOSED',
    restaurant: { id: 'r1', slug: 'toit', name: 'Toit & Tandoor', emoji: '🍛', neighborhood: 'Indiranagar' },
    startsAt: '2026-11-28T14:00:00.000Z',
    date: '2026-11-28',
    time: '19:30',
    deadline: '2026-11-28T12:00:00.000Z',
    depositPaise: 30_000,
    partner: { memberId: 'm2', firstName: 'Ravi', accepted: false, paid: false, arrived: false, photoUrl: null, blocked: false, ...partner },
    venue: { photoUrl: null, budget: 'INR_1000_2500', address: '12 CMH Road', mapUrl: null },
    shared: { cuisines: [], dateTypes: [], neighbourhoods: [], evenings: [] },
    lateCancel: { from: '2026-11-27T14:00:00.000Z', costPaise: 30_000 },
    me: { answer: null, paid: false, arrived: false, deposit: 'none', approvalUrl: null, ...me },
    payoutToMe: null,
    flaked: null,
    sharing: false,
    canAskAgain: true,
    cancelIsLate: false,
    isSecondDate: false,
    afterDate: { showedUp: null, meetAgain: null, canAnswer: false },
    ...rest,
  };
}

describe('planActions', () => {
  it('offers accept, decline and another option before the member answers', () => {
    expect(planActions(plan())).toEqual({ accept: true, pay: false, decline: true, another: true, cancel: false });
  });

  it('hides another option once it has been used', () => {
    expect(planActions(plan({ canAskAgain: false })).another).toBe(false);
  });

  it('offers Pay after accepting while the deposit waits for approval', () => {
    const accepted = plan({ me: { answer: 'ACCEPTED', deposit: 'awaiting_payment', approvalUrl: '/pay/sandbox/i1' } });
    expect(planActions(accepted)).toEqual({ accept: false, pay: true, decline: true, another: true, cancel: false });
    // Approved, its webhook on the way: nothing to pay.
    expect(planActions(plan({ me: { answer: 'ACCEPTED', deposit: 'held' } })).pay).toBe(false);
  });

  it('still offers Decline and Another option once paid, never Accept or Pay', () => {
    const paid = plan({ canAskAgain: false, me: { answer: 'ACCEPTED', paid: true, deposit: 'held' } });
    expect(planActions(paid)).toEqual({ accept: false, pay: false, decline: true, another: false, cancel: false });
  });

  it('offers only Cancel on a booked plan, and nothing once it is over', () => {
    expect(planActions(plan({ status: 'BOOKED' }))).toEqual({ accept: false, pay: false, decline: false, another: false, cancel: true });
    for (const status of datePlanStatuses.filter((s) => s !== 'PROPOSED' && s !== 'BOOKED')) {
      expect(Object.values(planActions(plan({ status }))).some(Boolean), status).toBe(false);
    }
  });
});

describe('words', () => {
  it('has a headline for every status and a sentence for every deposit state', () => {
    for (const status of datePlanStatuses) expect(planHeadline(plan({ status })), status).not.toBe('');
    for (const deposit of dateDepositStates) expect(depositWords(plan({ me: { deposit } })), deposit).not.toBe('');
  });

  it('tells who flaked and who declined from the member’s side', () => {
    expect(planHeadline(plan({ status: 'FLAKED', flaked: 'partner' }))).toBe('Ravi did not come to this date.');
    expect(planHeadline(plan({ status: 'FLAKED', flaked: 'me' }))).toContain('You did not make it');
    expect(planHeadline(plan({ status: 'DECLINED', me: { answer: 'DECLINED' } }))).toBe('You declined this plan.');
    expect(planHeadline(plan({ status: 'DECLINED' }))).toBe('Ravi declined this plan.');
  });

  it('says where the deposit went', () => {
    expect(depositWords(plan({ me: { deposit: 'credit_at_table' } }))).toBe('Your ₹300 deposit was credit on your bill at the table.');
    expect(depositWords(plan({ me: { deposit: 'paid_to_partner' } }))).toBe('Your ₹300 deposit was paid to Ravi, and a strike was recorded.');
  });

  it('says what the member was paid', () => {
    expect(payoutWords(plan())).toBeNull();
    expect(payoutWords(plan({ payoutToMe: { amountPaise: 30_000, status: 'PAID' } }))).toBe('₹300 paid to you because Ravi did not come.');
    expect(payoutWords(plan({ payoutToMe: { amountPaise: 30_000, status: 'PENDING' } }))).toContain('on its way');
  });

  it('tells the partner’s progress', () => {
    expect(partnerProgress(plan())).toBe('Waiting for Ravi');
    expect(partnerProgress(plan({ partner: { accepted: true } }))).toBe('Ravi has accepted');
    expect(partnerProgress(plan({ partner: { accepted: true, paid: true } }))).toBe('Ravi has accepted and paid');
  });

  it('says plainly when cancelling is a flake', () => {
    expect(cancelConsequence(plan({ status: 'BOOKED', cancelIsLate: true }))).toContain('your ₹300 deposit is paid to Ravi and a strike is recorded');
    expect(cancelConsequence(plan({ status: 'BOOKED' }))).toContain('given back in full');
  });

  it('writes the day, the time and the time left', () => {
    expect(planWhen(plan())).toBe('Sat, 28 Nov at 7:30 PM');
    expect(timeLeftWords(0)).toBe('Time is up');
    expect(timeLeftWords(30)).toBe('Under a minute left');
    expect(timeLeftWords(12 * 60 + 5)).toBe('12 min left');
    expect(timeLeftWords(3 * 3600)).toBe('3 h left');
    expect(timeLeftWords(3 * 3600 + 5 * 60 + 59)).toBe('3 h 5 min left');
  });

  it('shows strikes only when there are some', () => {
    expect(strikesWords(0)).toBeNull();
    expect(strikesWords(1)).toContain('1 strike ');
    expect(strikesWords(2)).toContain('2 strikes');
  });
});

describe('sortPlans', () => {
  it('puts open plans first, keeping the server’s newest-first order in each group', () => {
    const sorted = sortPlans([plan({ id: 'recent', status: 'EXPIRED' }), plan({ id: 'open', status: 'BOOKED' }), plan({ id: 'old', status: 'SEATED' })]);
    expect(sorted.map((p) => p.id)).toEqual(['open', 'recent', 'old']);
  });
});

describe('plansPollInterval', () => {
  it('polls fast while the member’s deposit waits for its webhook, slower while the partner is awaited, seldom before answering, never once settled', () => {
    expect(plansPollInterval(undefined, null)).toBe(false);
    expect(plansPollInterval([plan()], null)).toBe(PROPOSED_POLL_MS);
    expect(plansPollInterval([plan({ status: 'SEATED' })], null)).toBe(false);
    expect(plansPollInterval([plan({ me: { answer: 'ACCEPTED', deposit: 'awaiting_payment' } })], null)).toBe(PAYMENT_POLL_MS);
    expect(plansPollInterval([plan({ me: { answer: 'ACCEPTED', paid: true, deposit: 'held' } })], null)).toBe(PARTNER_POLL_MS);
    expect(plansPollInterval([plan({ status: 'BOOKED', me: { answer: 'ACCEPTED', paid: true, deposit: 'held' } })], null)).toBe(false);
  });

  it('polls fast for a minute after coming back from the payment page', () => {
    expect(plansPollInterval([], 5_000)).toBe(PAYMENT_POLL_MS);
    expect(plansPollInterval([], 120_000)).toBe(false);
  });
});

describe('withReturnTo', () => {
  it('adds the way back to the payment page’s address', () => {
    expect(withReturnTo('/pay/sandbox/i1', '/dating/app')).toBe('/pay/sandbox/i1?returnTo=%2Fdating%2Fapp');
    expect(withReturnTo('https://pay.example/x?id=1', '/dating/app')).toBe('https://pay.example/x?id=1&returnTo=%2Fdating%2Fapp');
  });
});

describe('lateCancelWords (decision 252)', () => {
  it('says in one sentence, before paying, what a late cancel costs and from when', () => {
    expect(lateCancelWords(plan())).toBe(
      'Cancelling from Fri, 27 Nov at 7:30 PM (24 hours before the date) pays your ₹300 deposit to Ravi and records a strike; before that, both deposits come back in full.',
    );
  });
});
