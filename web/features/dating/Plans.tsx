import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { DatePlan, DatePlansResponse } from '#common/contract/dating-plans.ts';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import { secondsUntil } from '#common/domain/time.ts';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { Alert, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { dateBudgetChoices, labelOf } from '#common/domain/dating-profile.ts';
import { datingApi, datingErrorMessage, datingUrl } from './api.ts';
import { WhyYouTwo } from './WhyYouTwo.tsx';
import { DatingPushOptIn } from './DatingNotifications.tsx';
import { datingKeys } from './keys.ts';
import { MemberSafety, useMemberSafety } from './MemberSafety.tsx';
import { AfterDateQuestions, SharePlan, showPlanAtOnce } from './PlanExtras.tsx';
import {
  answerBy,
  cancelConsequence,
  depositPromise,
  depositWords,
  isOpenPlan,
  lateCancelWords,
  myProgress,
  partnerProgress,
  payoutWords,
  planActions,
  planHeadline,
  plansPollInterval,
  planWhen,
  PLANS_SECTION_ID,
  sortPlans,
  strikesWords,
  timeLeftWords,
  withReturnTo,
} from './plan-view.ts';
import './plans.css';
import { useNow } from '#web/components/ui/use-now.ts';

/** Where the payment page sends the member back to. */
const RETURN_PATH = '/dating/app';
const TOAST_KEY = 'date-plan';

/**
 * "Your dates" (decision 184): each mutual match becomes one concrete plan (a
 * partner table, a day and a time) that both accept by paying a deposit, decline, or swap once for
 * another option; then the booked table, and afterwards what happened and where the money went.
 * There is no chat.
 */
export function Plans() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [search, setSearch] = useSearchParams();
  // Back from the payment page (`?payment=approved|declined`): its webhook lands a moment later.
  const [returnedAt] = useState<number | null>(() => (search.get('payment') ? Date.now() : null));
  const paymentAnswer = search.get('payment');
  useEffect(() => {
    if (!paymentAnswer) return;
    // The answer and the payment were written while the member was away: read them now, not at the next poll.
    void queryClient.invalidateQueries({ queryKey: datingKeys.plans });
    if (paymentAnswer === 'approved') toast('Payment approved. We book the table as soon as you have both paid.', 'success', { key: TOAST_KEY });
    else if (paymentAnswer === 'declined') toast('Payment declined: nothing was taken. You can pay again before the deadline.', 'info', { key: TOAST_KEY });
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('payment');
        return next;
      },
      { replace: true },
    );
  }, [paymentAnswer, queryClient, setSearch, toast]);

  const plans = useQuery({
    queryKey: datingKeys.plans,
    queryFn: ({ signal }) => datingApi.plans(signal),
    refetchInterval: (query) => plansPollInterval(query.state.data?.plans, returnedAt === null ? null : Date.now() - returnedAt),
  });
  useAnnounceChanges(plans.data);
  useOpenLinkedPlan(plans.data, search.get('plan'));

  const [cancelling, setCancelling] = useState<DatePlan | null>(null);
  const cancel = useMutation({
    mutationFn: (plan: DatePlan) => datingApi.cancelPlan(plan.id),
    onSuccess: (updated) => {
      toast(`Date cancelled. ${depositWords(updated)}`, updated.flaked === 'me' ? 'info' : 'success', { key: TOAST_KEY });
      setCancelling(null);
    },
    onError: (error) => toast(datingErrorMessage(error, 'Could not cancel the date. Please try again.'), 'error', { key: TOAST_KEY }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: datingKeys.plans }),
  });

  const strikes = plans.data ? strikesWords(plans.data.strikes) : null;
  const sorted = plans.data ? sortPlans(plans.data.plans) : [];
  const open = sorted.filter(isOpenPlan);
  const past = sorted.filter((plan) => !isOpenPlan(plan));

  return (
    <section id={PLANS_SECTION_ID} className="d-card d-app__card d-plans" aria-labelledby="plans-title">
      <h2 id="plans-title" className="d-app__card-title">
        Your dates
      </h2>
      <DatingPushOptIn />
      {plans.isPending ? (
        <div aria-busy="true" aria-label="Loading your dates">
          <Skeleton width="100%" height={180} radius="var(--radius-lg)" />
        </div>
      ) : !plans.data ? (
        <div className="d-plans__state">
          <Alert tone="error" title="We could not load your dates">
            {datingErrorMessage(plans.error, 'Please check your connection and try again.')}
          </Alert>
          <button type="button" className="btn d-btn--primary" disabled={plans.isFetching} onClick={() => plans.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <>
          {strikes ? (
            <p className="d-plans__strikes" data-testid="date-strikes">
              {strikes}
            </p>
          ) : null}
          {sorted.length === 0 ? <p className="d-muted">When you and a match both say yes, we plan the date here: a table, a time, no chat.</p> : null}
          {open.length > 0 ? (
            <ul className="d-plans__list" aria-label="Upcoming date plans">
              {open.map((plan) => (
                <OpenPlanCard key={plan.id} plan={plan} isCancelling={cancel.isPending && cancel.variables?.id === plan.id} onCancel={setCancelling} />
              ))}
            </ul>
          ) : null}
          {past.length > 0 ? (
            <>
              <h3 className="d-app__sub">Earlier</h3>
              <ul className="d-plans__past" aria-label="Earlier date plans">
                {past.map((plan) => (
                  <PastPlanRow key={plan.id} plan={plan} />
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
      <ConfirmDialog
        open={cancelling !== null}
        title={cancelling?.cancelIsLate ? 'Cancel now and lose your deposit?' : 'Cancel this date?'}
        confirmLabel={cancelling?.cancelIsLate ? `Cancel and pay ${formatRupees(cancelling.depositPaise)} to ${cancelling.partner.firstName}` : 'Cancel date'}
        cancelLabel="Keep the date"
        busy={cancel.isPending}
        onCancel={() => setCancelling(null)}
        onConfirm={() => {
          if (cancelling) cancel.mutate(cancelling);
        }}
      >
        {cancelling ? (
          <p>
            {cancelling.restaurant.name}, {planWhen(cancelling)}, with {cancelling.partner.firstName}. {cancelConsequence(cancelling)}
          </p>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}

/** Toasts what changed while the list was polled: the deposit landed, the table was booked, the partner said no. */
/** A plan's card, by its id: a date-plan notification opens /dating/app?plan=<id> (decision 227). */
const planElementId = (planId: string) => `date-plan-${planId}`;

/** Once the plans are in, the card a notification named is scrolled to and takes the focus, once. */
function useOpenLinkedPlan(data: DatePlansResponse | undefined, planId: string | null) {
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (!data || !planId || opened.current === planId) return;
    const card = document.getElementById(planElementId(planId));
    if (!card) return;
    opened.current = planId;
    card.scrollIntoView({ block: 'center' });
    card.focus({ preventScroll: true });
  }, [data, planId]);
}

function useAnnounceChanges(data: DatePlansResponse | undefined) {
  const toast = useToast();
  const seen = useRef<Map<string, DatePlan> | null>(null);
  useEffect(() => {
    if (!data) return;
    const before = seen.current;
    seen.current = new Map(data.plans.map((plan) => [plan.id, plan]));
    if (!before) return;
    for (const plan of data.plans) {
      const was = before.get(plan.id);
      if (!was) continue;
      const name = plan.partner.firstName;
      if (was.status === 'PROPOSED' && plan.status === 'BOOKED') {
        toast(`Your table is booked: ${plan.restaurant.name}, ${planWhen(plan)}, with ${name}.`, 'success', { key: TOAST_KEY });
      } else if (was.status === 'PROPOSED' && plan.status === 'DECLINED' && plan.me.answer !== 'DECLINED') {
        toast(`${name} declined the plan. ${depositWords(plan)}`, 'info', { key: TOAST_KEY });
      } else if (was.status === 'PROPOSED' && plan.status === 'EXPIRED') {
        toast(`${planHeadline(plan)} ${depositWords(plan)}`, 'info', { key: TOAST_KEY });
      } else if (!was.me.paid && plan.me.paid) {
        toast(`Your ${formatRupees(plan.depositPaise)} deposit is held. ${partnerProgress(plan)}.`, 'success', { key: TOAST_KEY });
      }
    }
  }, [data, toast]);
}

/** "Answer by …" and the time left, which changes once every 15 seconds; at zero the list reads again. */
function Deadline({ deadline }: { deadline: string }) {
  const now = useNow(15_000);
  const secondsLeft = secondsUntil(deadline, now);
  const queryClient = useQueryClient();
  const isOver = secondsLeft <= 0;
  useEffect(() => {
    if (isOver) void queryClient.invalidateQueries({ queryKey: datingKeys.plans });
  }, [isOver, queryClient]);
  return (
    <>
      {answerBy(deadline)}
      <span className={`d-plan__left${secondsLeft < 3_600 ? ' d-plan__left--soon' : ''}`}>{timeLeftWords(secondsLeft)}</span>
    </>
  );
}

/** The payment page, with the way back to this screen: a router link on this site, a plain link to a gateway. */
function PayLink({ approvalUrl, children }: { approvalUrl: string; children: string }) {
  const href = withReturnTo(approvalUrl, RETURN_PATH);
  return href.startsWith('/') ? (
    <Link className="btn d-btn--primary" to={href}>
      {children}
    </Link>
  ) : (
    <a className="btn d-btn--primary" href={href}>
      {children}
    </a>
  );
}

function OpenPlanCard({ plan, isCancelling, onCancel }: { plan: DatePlan; isCancelling: boolean; onCancel: (plan: DatePlan) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const name = plan.partner.firstName;
  const deposit = formatRupees(plan.depositPaise);
  const refresh = () => queryClient.invalidateQueries({ queryKey: datingKeys.plans });
  const fail = (fallback: string) => (error: Error) => toast(datingErrorMessage(error, fallback), 'error', { key: TOAST_KEY });

  const accept = useMutation({
    mutationFn: () => datingApi.acceptPlan(plan.id),
    onSuccess: ({ payment }) => {
      if (payment.approvalUrl) {
        const href = withReturnTo(payment.approvalUrl, RETURN_PATH);
        if (href.startsWith('/')) navigate(href);
        else window.location.assign(href);
        return;
      }
      toast(`You accepted. We book the table as soon as ${name} has too.`, 'success', { key: TOAST_KEY });
      return refresh();
    },
    onError: (error) => {
      toast(datingErrorMessage(error, 'Could not accept the plan. Please try again.'), 'error', { key: TOAST_KEY });
      return refresh();
    },
  });
  const [isConfirmingDecline, setConfirmingDecline] = useState(false);
  const decline = useMutation({
    mutationFn: () => datingApi.declinePlan(plan.id),
    onSuccess: (updated) => {
      setConfirmingDecline(false);
      showPlanAtOnce(queryClient, updated);
      toast(`You declined the plan with ${name}. ${depositWords(updated)}`, 'info', { key: TOAST_KEY });
    },
    onError: fail('Could not decline the plan. Please try again.'),
    onSettled: refresh,
  });
  const another = useMutation({
    mutationFn: () => datingApi.askAnotherPlan(plan.id),
    onSuccess: (next) => toast(`Here is another option: ${next.restaurant.name}, ${planWhen(next)}.`, 'success', { key: TOAST_KEY }),
    onError: fail('There is no other option right now. Please answer this plan.'),
    onSettled: refresh,
  });
  const safety = useMemberSafety({
    memberId: plan.partner.memberId,
    firstName: name,
    onDone: () => Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: datingKeys.suggestions })]),
  });
  // While accept is on its way to the payment page, the card stays held.
  const isBusy = accept.isPending || accept.isSuccess || decline.isPending || another.isPending || isCancelling || safety.isPending;
  const actions = planActions(plan);
  const mine = myProgress(plan);
  const isBooked = plan.status === 'BOOKED';

  return (
    <li
      id={planElementId(plan.id)}
      tabIndex={-1}
      className={`d-plan d-plan--${plan.status}`}
      data-plan={plan.id}
      data-status={plan.status}
      aria-labelledby={`plan-${plan.id}-place`}
    >
      <p className="d-plan__badge">
        {isBooked ? 'Booked' : 'Proposed'}
        {plan.isSecondDate ? ' · Second date' : ''}
      </p>
      <p className="d-plan__headline">{planHeadline(plan)}</p>
      <h3 id={`plan-${plan.id}-place`} className="d-plan__place">
        <span className="emoji" aria-hidden="true">
          {plan.restaurant.emoji}
        </span>{' '}
        {plan.restaurant.name}
      </h3>
      <p className="d-plan__hood">{plan.restaurant.neighborhood}</p>
      <PlanPlace plan={plan} />
      <dl className="d-plan__facts">
        <div className="d-plan__fact">
          <dt>When</dt>
          <dd>
            {planWhen(plan)}, with {name}
          </dd>
        </div>
        <div className="d-plan__fact">
          <dt>Deposit</dt>
          <dd>{depositPromise(plan.depositPaise)}</dd>
        </div>
        {plan.status === 'PROPOSED' ? (
          <div className="d-plan__fact">
            <dt>Deadline</dt>
            <dd>
              <Deadline deadline={plan.deadline} />
            </dd>
          </div>
        ) : null}
      </dl>

      {plan.status === 'PROPOSED' ? <p className="d-plan__note d-plan__late">{lateCancelWords(plan)}</p> : null}
      {plan.status === 'PROPOSED' ? (
        <ul className="d-plan__progress" aria-label="Answers so far">
          <li className={mine ? 'is-done' : undefined}>{mine || 'You have not answered yet.'}</li>
          <li className={plan.partner.accepted ? 'is-done' : undefined}>{partnerProgress(plan)}.</li>
        </ul>
      ) : (
        <>
          <p className="d-plan__money">{depositWords(plan)}</p>
          {plan.me.arrived || plan.partner.arrived ? (
            <ul className="d-plan__progress" aria-label="At the table">
              {plan.me.arrived ? <li className="is-done">You are marked as arrived.</li> : null}
              {plan.partner.arrived ? <li className="is-done">{name} has arrived.</li> : null}
            </ul>
          ) : null}
        </>
      )}

      <div className="d-plan__actions">
        {actions.accept ? (
          <button type="button" className="btn d-btn--primary" disabled={isBusy} onClick={() => accept.mutate()}>
            {accept.isPending || accept.isSuccess ? 'Opening the payment…' : `Accept and pay ${deposit}`}
          </button>
        ) : null}
        {actions.pay && plan.me.approvalUrl ? <PayLink approvalUrl={plan.me.approvalUrl}>{`Pay ${deposit}`}</PayLink> : null}
        {actions.pay && !plan.me.approvalUrl ? (
          // No page to go back to (a gateway's): accepting again answers the same payment and its page.
          <button type="button" className="btn d-btn--primary" disabled={isBusy} onClick={() => accept.mutate()}>
            {accept.isPending || accept.isSuccess ? 'Opening the payment…' : `Pay ${deposit}`}
          </button>
        ) : null}
        {actions.decline ? (
          <button type="button" className="btn d-btn--quiet" disabled={isBusy} onClick={() => setConfirmingDecline(true)}>
            {decline.isPending ? 'Declining…' : 'Decline'}
          </button>
        ) : null}
        {actions.another ? (
          <button type="button" className="btn d-btn--ghost" disabled={isBusy} onClick={() => another.mutate()}>
            {another.isPending ? 'Finding another…' : 'Another option'}
          </button>
        ) : null}
        {actions.cancel ? (
          <button type="button" className="btn d-btn--quiet" disabled={isBusy} onClick={() => onCancel(plan)}>
            {isCancelling ? 'Cancelling…' : 'Cancel date'}
          </button>
        ) : null}
      </div>
      {actions.cancel && plan.cancelIsLate ? (
        <p className="d-plan__note">Your date is less than 24 hours away: cancelling now pays your deposit to {name} and records a strike.</p>
      ) : null}
      <SharePlan plan={plan} disabled={isBusy} />
      {plan.partner.blocked ? null : <MemberSafety safety={safety} disabled={isBusy} />}
      <ConfirmDialog
        open={isConfirmingDecline}
        title={`Decline the date with ${name}?`}
        confirmLabel="Decline the plan"
        cancelLabel="Keep it"
        busy={decline.isPending}
        onCancel={() => setConfirmingDecline(false)}
        onConfirm={() => decline.mutate()}
      >
        {isConfirmingDecline ? (
          <p>
            The table at {plan.restaurant.name} goes back, {name} is told, and we do not plan another date for you two. {depositWords(plan)}
          </p>
        ) : null}
      </ConfirmDialog>
    </li>
  );
}

/** The venue and the partner as the card shows them (decision 254): photos, budget band, address, map, why you two. */
function PlanPlace({ plan }: { plan: DatePlan }) {
  const budget = plan.venue.budget ? labelOf(dateBudgetChoices, plan.venue.budget) : null;
  return (
    <div className="d-plan__place-box">
      <div className="d-plan__photos">
        {plan.venue.photoUrl ? (
          <img className="d-plan__venue-photo" src={plan.venue.photoUrl} alt={`Inside ${plan.restaurant.name}`} width={480} height={320} loading="lazy" />
        ) : null}
        {plan.partner.photoUrl ? (
          <img
            className="d-plan__partner-photo"
            src={datingUrl(plan.partner.photoUrl)}
            alt={`${plan.partner.firstName}, first photo`}
            width={120}
            height={160}
            loading="lazy"
          />
        ) : null}
      </div>
      <dl className="d-plan__facts">
        {budget ? (
          <div className="d-plan__fact">
            <dt>Budget</dt>
            <dd>{budget} for two</dd>
          </div>
        ) : null}
        {plan.venue.address ? (
          <div className="d-plan__fact">
            <dt>Address</dt>
            <dd>
              {plan.venue.address}
              {plan.venue.mapUrl ? (
                <>
                  {' · '}
                  <a href={plan.venue.mapUrl} target="_blank" rel="noreferrer">
                    Map<span className="visually-hidden"> of {plan.restaurant.name} (opens in a new tab)</span>
                  </a>
                </>
              ) : null}
            </dd>
          </div>
        ) : null}
      </dl>
      <WhyYouTwo shared={plan.shared} />
    </div>
  );
}

/** A plan that is over: where, when, what happened and where the deposit went, compact. */
function PastPlanRow({ plan }: { plan: DatePlan }) {
  const queryClient = useQueryClient();
  const safety = useMemberSafety({
    memberId: plan.partner.memberId,
    firstName: plan.partner.firstName,
    onDone: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: datingKeys.plans }), queryClient.invalidateQueries({ queryKey: datingKeys.suggestions })]),
  });
  const payout = payoutWords(plan);
  return (
    <li id={planElementId(plan.id)} tabIndex={-1} className={`d-plan-past d-plan-past--${plan.status}`} data-plan={plan.id} data-status={plan.status}>
      <p className="d-plan-past__where">
        <span className="emoji" aria-hidden="true">
          {plan.restaurant.emoji}
        </span>{' '}
        <strong>{plan.restaurant.name}</strong> · {planWhen(plan)} · with {plan.partner.firstName}
      </p>
      <p className="d-plan-past__what">{planHeadline(plan)}</p>
      <p className="d-plan-past__money">
        {depositWords(plan)}
        {payout ? <strong className="d-plan-past__payout"> {payout}</strong> : null}
      </p>
      <AfterDateQuestions plan={plan} />
      {plan.partner.blocked ? null : <MemberSafety safety={safety} />}
    </li>
  );
}
