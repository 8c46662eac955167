import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { DatePlan, DatePlanShareLink, DatePlansResponse } from '#common/contract/dating-plans.ts';
import { formatInstantKolkata } from '#common/domain/time.ts';
import { TextField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { datingApi, datingErrorMessage } from './api.ts';
import { datingKeys } from './keys.ts';

const TOAST_KEY = 'date-plan';

/** Writes a plan a member's action answered into the cached list, so its card shows the new state at once; the list reads again behind it. */
export function showPlanAtOnce(queryClient: QueryClient, updated: DatePlan): void {
  queryClient.setQueryData<DatePlansResponse>(datingKeys.plans, (data) =>
    data ? { ...data, plans: data.plans.map((candidate) => (candidate.id === updated.id ? updated : candidate)) } : data,
  );
}

/**
 * "Share with someone you trust" on a plan (decision 184): a link that shows where,
 * when and both first names, and stops working at the end of the date. The phone's share sheet
 * when it has one; otherwise the link to copy. "Stop sharing" ends every link the member made for
 * the plan at once (decision 208), whenever they made it.
 */
export function SharePlan({ plan, disabled }: { plan: DatePlan; disabled?: boolean }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [link, setLink] = useState<(DatePlanShareLink & { url: string }) | null>(null);
  const share = useMutation({
    mutationFn: () => datingApi.sharePlan(plan.id),
    onSuccess: async (answer) => {
      const url = new URL(answer.path, window.location.origin).toString();
      setLink({ ...answer, url });
      void queryClient.invalidateQueries({ queryKey: datingKeys.plans });
      if (typeof navigator.share === 'function') {
        await navigator.share({ title: 'My Tablefair date', text: `My date at ${plan.restaurant.name}`, url }).catch(() => undefined);
      }
    },
    onError: (error) => toast(datingErrorMessage(error, 'Could not make the link. Please try again.'), 'error', { key: TOAST_KEY }),
  });
  const stop = useMutation({
    mutationFn: () => datingApi.stopSharingPlan(plan.id),
    onSuccess: (updated) => {
      setLink(null);
      showPlanAtOnce(queryClient, updated);
      toast('Sharing stopped: your link no longer shows this date.', 'success', { key: TOAST_KEY });
    },
    onError: (error) => toast(datingErrorMessage(error, 'Could not stop sharing. Please try again.'), 'error', { key: TOAST_KEY }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: datingKeys.plans }),
  });

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      toast('Link copied. Send it to someone you trust.', 'success', { key: TOAST_KEY });
    } catch {
      toast('Copy the link from the box: your browser did not let us.', 'info', { key: TOAST_KEY });
    }
  }

  const isBusy = disabled || share.isPending || stop.isPending;
  const stopButton = (
    <button type="button" className="btn d-btn--quiet" disabled={isBusy} onClick={() => stop.mutate()}>
      {stop.isPending ? 'Stopping…' : 'Stop sharing'}
    </button>
  );
  if (!link) {
    return (
      <div className="d-plan__share-row">
        <button type="button" className="btn d-btn--ghost d-plan__share" disabled={isBusy} onClick={() => share.mutate()}>
          {share.isPending ? 'Making the link…' : plan.sharing ? 'Share again' : 'Share with someone you trust'}
        </button>
        {plan.sharing ? (
          <>
            <p className="d-plan__share-note">Someone you trust can see where and when this date is, from the link you shared.</p>
            {stopButton}
          </>
        ) : null}
      </div>
    );
  }
  return (
    <div className="d-plan__shared">
      <TextField
        label="Link for someone you trust"
        hint={`It shows where, when and both first names, until ${formatInstantKolkata(link.expiresAt, ' at ')}.`}
        readOnly
        value={link.url}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="d-plan__share-actions">
        <button type="button" className="btn d-btn--ghost" onClick={() => void copy(link.url)}>
          Copy link
        </button>
        {stopButton}
      </div>
    </div>
  );
}

/** A yes/no question as two radio buttons. */
function YesNo({ legend, name, value, onChange }: { legend: string; name: string; value: boolean | null; onChange: (value: boolean) => void }) {
  return (
    <fieldset className="d-after__question">
      <legend>{legend}</legend>
      <label>
        <input type="radio" name={name} checked={value === true} onChange={() => onChange(true)} /> Yes
      </label>
      <label>
        <input type="radio" name={name} checked={value === false} onChange={() => onChange(false)} /> No
      </label>
    </fieldset>
  );
}

/**
 * After a date both came to: "Did they show up?" and "Would you meet again?", once. The answers
 * are private; two yeses from both bring a second date plan.
 */
export function AfterDateQuestions({ plan }: { plan: DatePlan }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const name = plan.partner.firstName;
  const [showedUp, setShowedUp] = useState<boolean | null>(null);
  const [meetAgain, setMeetAgain] = useState<boolean | null>(null);
  const baseId = useId();
  const answer = useMutation({
    mutationFn: () => datingApi.answerAfterDate(plan.id, { showedUp: showedUp!, meetAgain: meetAgain! }),
    onSuccess: (updated) =>
      toast(updated.afterDate.meetAgain ? `Thank you. If ${name} would meet again too, we plan your second date.` : 'Thank you for telling us.', 'success', {
        key: TOAST_KEY,
      }),
    onError: (error) => toast(datingErrorMessage(error, 'Could not save your answers. Please try again.'), 'error', { key: TOAST_KEY }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: datingKeys.plans }),
  });

  if (!plan.afterDate.canAnswer) {
    if (plan.afterDate.meetAgain === null) return null;
    return (
      <p className="d-after__done">
        You said {name} {plan.afterDate.showedUp ? 'showed up' : 'did not show up'} and you would {plan.afterDate.meetAgain ? '' : 'not '}meet again.
      </p>
    );
  }
  return (
    <form
      className="d-after"
      aria-label={`After your date with ${name}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (showedUp !== null && meetAgain !== null) answer.mutate();
      }}
    >
      <YesNo legend={`Did ${name} show up?`} name={`${baseId}-showed`} value={showedUp} onChange={setShowedUp} />
      <YesNo legend={`Would you meet ${name} again?`} name={`${baseId}-again`} value={meetAgain} onChange={setMeetAgain} />
      <button type="submit" className="btn d-btn--primary" disabled={showedUp === null || meetAgain === null || answer.isPending}>
        {answer.isPending ? 'Saving…' : 'Send answers'}
      </button>
    </form>
  );
}
