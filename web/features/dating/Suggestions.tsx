import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DatingSuggestion, DatingSuggestionsResponse } from '#common/contract/dating.ts';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { Alert, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { datingApi, datingErrorMessage, datingUrl } from './api.ts';
import { datingKeys } from './keys.ts';
import { MemberSafety, useMemberSafety } from './MemberSafety.tsx';
import { PLANS_SECTION_ID } from './plan-view.ts';
import { WhyYouTwo } from './WhyYouTwo.tsx';

/** Today's curated suggestions (decision 140): a few a day, each answered "Yes" or "Not for me". */
export function Suggestions({ hasPreferences }: { hasPreferences: boolean }) {
  const suggestions = useQuery({
    queryKey: datingKeys.suggestions,
    queryFn: ({ signal }) => datingApi.suggestions(signal),
    enabled: hasPreferences,
  });

  return (
    <section className="d-card d-app__card d-suggest" aria-labelledby="suggest-title">
      <h2 id="suggest-title" className="d-app__card-title">
        Today's suggestions
      </h2>
      {!hasPreferences ? (
        <p className="d-muted">Tell us your neighbourhoods and the evenings you're free below, and your first suggestions appear here.</p>
      ) : suggestions.isPending ? (
        <div aria-busy="true" aria-label="Loading your suggestions">
          <Skeleton width="100%" height={160} radius="var(--radius-lg)" />
        </div>
      ) : suggestions.isError ? (
        <div>
          <Alert tone="error" title="We could not load your suggestions">
            {datingErrorMessage(suggestions.error, 'Please check your connection and try again.')}
          </Alert>
          <button type="button" className="btn d-btn--primary" onClick={() => suggestions.refetch()}>
            Try again
          </button>
        </div>
      ) : suggestions.data.suggestions.length === 0 ? (
        <p className="d-muted">
          No one new today. We suggest at most {suggestions.data.perDay} people a day, only those who fit what you both want; check back tomorrow.
        </p>
      ) : (
        <ul className="d-suggest__list" aria-label="Suggested members">
          {suggestions.data.suggestions.map((suggestion) => (
            <SuggestionCard key={suggestion.memberId} suggestion={suggestion} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SuggestionCard({ suggestion }: { suggestion: DatingSuggestion }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () => queryClient.invalidateQueries({ queryKey: datingKeys.suggestions });
  const [isConfirmingPass, setConfirmingPass] = useState(false);
  const answer = useMutation({
    mutationFn: (value: 'YES' | 'NO') => datingApi.answer(suggestion.memberId, { answer: value }),
    onSuccess: ({ isMatch }, value) => {
      setConfirmingPass(false);
      // The card shows the answer at once; the list reads again behind it.
      queryClient.setQueryData<DatingSuggestionsResponse>(datingKeys.suggestions, (data) =>
        data ? { ...data, suggestions: data.suggestions.map((s) => (s.memberId === suggestion.memberId ? { ...s, myAnswer: value, isMatch } : s)) } : data,
      );
      if (isMatch) toast(`It's a match: you and ${suggestion.firstName} both said yes`, 'success');
      // A mutual yes becomes a date plan: "Your dates" reads again too.
      return Promise.all([refresh(), isMatch ? queryClient.invalidateQueries({ queryKey: datingKeys.plans }) : null]);
    },
    onError: (error) => toast(datingErrorMessage(error, 'Could not save your answer. Please try again.'), 'error'),
  });
  const safety = useMemberSafety({ memberId: suggestion.memberId, firstName: suggestion.firstName, onDone: refresh });
  const isBusy = answer.isPending || safety.isPending;
  const answers = [
    ['What I want in a partner', suggestion.whatIWantInPartner],
    ["Why you'd love dating me", suggestion.whyPartnerWouldLikeMe],
    ['My dreams', suggestion.dreams],
    ['In five years', suggestion.fiveYearGoal],
  ].filter(([, text]) => text);

  return (
    <li className="d-suggest__card" data-member={suggestion.memberId}>
      <ul className="d-suggest__photos" aria-label={`Photos of ${suggestion.firstName}`}>
        {suggestion.photos.map((photo, index) => (
          <li key={photo.url}>
            <img
              src={datingUrl(photo.url)}
              alt={`${suggestion.firstName}, photo ${index + 1} of ${suggestion.photos.length}`}
              width={300}
              height={400}
              loading="lazy"
            />
          </li>
        ))}
      </ul>
      <h3 className="d-suggest__name">
        {suggestion.firstName}, {suggestion.age}
      </h3>
      {suggestion.gender || suggestion.profession ? <p className="d-muted">{[suggestion.gender, suggestion.profession].filter(Boolean).join(' · ')}</p> : null}
      <WhyYouTwo shared={suggestion.shared} />
      {answers.length ? (
        <dl className="d-answers">
          {answers.map(([question, text]) => (
            <div key={question} className="d-answer">
              <dt className="d-answer__q">{question}</dt>
              <dd className="d-answer__a">{text}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {suggestion.isMatch ? (
        <p className="d-suggest__status" role="status">
          It's a match: you both said yes. We plan your date under <a href={`#${PLANS_SECTION_ID}`}>Your dates</a>.
        </p>
      ) : suggestion.myAnswer === 'YES' ? (
        <p className="d-suggest__status" role="status">
          You said yes. We'll tell you if {suggestion.firstName} does too.
        </p>
      ) : suggestion.myAnswer === 'NO' ? (
        <p className="d-suggest__status d-muted">You passed.</p>
      ) : (
        <div className="d-suggest__actions">
          <button type="button" className="btn d-btn--primary" disabled={isBusy} onClick={() => answer.mutate('YES')}>
            Yes
          </button>
          <button type="button" className="btn d-btn--ghost" disabled={isBusy} onClick={() => setConfirmingPass(true)}>
            Not for me
          </button>
        </div>
      )}
      <ConfirmDialog
        open={isConfirmingPass}
        title={`Pass on ${suggestion.firstName}?`}
        confirmLabel="Not for me"
        cancelLabel="Go back"
        tone="primary"
        busy={answer.isPending}
        onCancel={() => setConfirmingPass(false)}
        onConfirm={() => answer.mutate('NO')}
      >
        {isConfirmingPass ? <p>A pass is final: you won't be suggested to each other again. {suggestion.firstName} is not told.</p> : null}
      </ConfirmDialog>
      <MemberSafety safety={safety} disabled={answer.isPending} />
    </li>
  );
}
