import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { SharedDatePlan } from '#common/contract/dating-plans.ts';
import { Alert, Skeleton } from '#web/components/ui/Feedback.tsx';
import { DatingRequestError, datingApi, datingErrorMessage } from '#web/features/dating/api.ts';
import { DatingPage } from '#web/features/dating/DatingLayout.tsx';
import { datingKeys } from '#web/features/dating/keys.ts';
import { planWhen } from '#web/features/dating/plan-view.ts';
import { formatInstantKolkata } from '#common/domain/time.ts';
import '#web/features/dating/plans.css';

/** What the trusted contact is told of the plan's state, in a sentence. */
function stateWords(plan: SharedDatePlan): string {
  switch (plan.status) {
    case 'PROPOSED':
      return 'The table is held; they have not both confirmed yet.';
    case 'BOOKED':
      return 'The table is booked.';
    case 'SEATED':
      return 'They both arrived at the restaurant.';
    case 'FLAKED':
    case 'NO_SHOW':
      return 'The date did not happen as planned.';
    default:
      return 'This plan is no longer on.';
  }
}

/**
 * /dating/share/{token}: a date plan shared with a trusted contact (decision 184).
 * No sign-in: the signed link is the access, and it stops working at the end of the date. It shows
 * where, when and the two first names; nothing to reach either member by.
 */
export default function DatingShare() {
  const token = useParams().token ?? '';
  const shared = useQuery({
    queryKey: datingKeys.sharedPlan(token),
    queryFn: ({ signal }) => datingApi.sharedPlan(token, signal),
    retry: (count, error) => !(error instanceof DatingRequestError && error.status < 500) && count < 1,
  });
  const plan = shared.data;
  return (
    <DatingPage title="A shared date · Tablefair Dating" className="dating--app">
      <div className="d-container d-app__state">
        {shared.isPending ? (
          <div aria-busy="true" aria-label="Loading the date">
            <Skeleton width="100%" height={200} radius="var(--radius-lg)" />
          </div>
        ) : !plan ? (
          <Alert tone="error" title="This link does not work">
            {datingErrorMessage(shared.error, 'Please check your connection and try again.')}
          </Alert>
        ) : (
          <article className="d-plan d-plan--shared" aria-labelledby="shared-title">
            <p className="d-plan__badge">Shared with you</p>
            <h1 id="shared-title" className="d-plan__headline">
              {plan.firstNames.join(' and ')} have a date
            </h1>
            <h2 className="d-plan__place">
              <span className="emoji" aria-hidden="true">
                {plan.restaurant.emoji}
              </span>{' '}
              {plan.restaurant.name}
            </h2>
            <p className="d-plan__hood">{plan.restaurant.neighborhood}, Bengaluru</p>
            <dl className="d-plan__facts">
              <div className="d-plan__fact">
                <dt>When</dt>
                <dd>{planWhen(plan)}</dd>
              </div>
              <div className="d-plan__fact">
                <dt>Now</dt>
                <dd>{stateWords(plan)}</dd>
              </div>
            </dl>
            <p className="d-plan__money">This link works until {formatInstantKolkata(plan.expiresAt, ' at ')}.</p>
          </article>
        )}
      </div>
    </DatingPage>
  );
}
